// The readers' messages (src/model-file/messages.ts): one id space across the sections, every id
// thrown somewhere in the readers, and every one the model-unreadable rule can report is one of its
// messages, its placeholders the reader's plus what the rule's wording adds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_READ_MESSAGES } from '../../src/lint/model-read.js';
import {
  BUG_READ_MESSAGES,
  IO_READ_MESSAGES,
  LFS_READ_MESSAGES,
  ONNX_EXTERNAL_MESSAGES,
  ONNX_READ_MESSAGES,
  OPENVINO_READ_MESSAGES,
  PROTOBUF_READ_MESSAGES,
  PYTORCH_READ_MESSAGES,
  READ_MESSAGES,
  SAVEDMODEL_READ_MESSAGES,
} from '../../src/model-file/messages.js';
import { placeholdersOf } from '../../src/util/message-template.js';
import { ROOT } from '../support/snapshot.js';

const SECTIONS = {
  IO_READ_MESSAGES,
  LFS_READ_MESSAGES,
  PROTOBUF_READ_MESSAGES,
  ONNX_READ_MESSAGES,
  ONNX_EXTERNAL_MESSAGES,
  SAVEDMODEL_READ_MESSAGES,
  PYTORCH_READ_MESSAGES,
  OPENVINO_READ_MESSAGES,
  BUG_READ_MESSAGES,
};

/** The source of the readers and of what makes their errors (the workspace's remote store). */
function sources(): string {
  const dirs = ['src/onnx', 'src/openvino', 'src/pytorch', 'src/savedmodel', 'src/model-file', 'src/model-readers', 'src/remote'];
  return dirs
    .flatMap((d) =>
      readdirSync(join(ROOT, d))
        .filter((f) => f.endsWith('.ts') && f !== 'messages.ts')
        .map((f) => readFileSync(join(ROOT, d, f), 'utf8')),
    )
    .join('\n');
}

describe("the readers' messages", () => {
  it('one id space: no section redefines an id of another', () => {
    const count = Object.values(SECTIONS).reduce((n, s) => n + Object.keys(s).length, 0);
    expect(Object.keys(READ_MESSAGES)).toHaveLength(count);
  });

  it('every id is made by a reader (no wording left without a place that says it)', () => {
    const text = sources();
    const made = (id: string) => text.includes(`'${id}'`);
    expect(Object.keys(READ_MESSAGES).filter((id) => !made(id))).toEqual([]);
  });

  it('model-unreadable has each (but the LFS pointer, which it reports by the pointer) under the same id, with the same placeholders and its own', () => {
    const rule = MODEL_READ_MESSAGES as Readonly<Record<string, string>>;
    for (const [id, template] of Object.entries(READ_MESSAGES)) {
      if (id in LFS_READ_MESSAGES) {
        expect(rule[id], id).toBeUndefined();
        continue;
      }
      expect(rule[id], id).toContain(template);
      const added = placeholdersOf(rule[id]!).filter((p) => !placeholdersOf(template).includes(p));
      expect(
        added.every((p) => p === 'byteOffset' || p === 'backend' || p === 'format'),
        `${id}: ${added.join(', ')}`,
      ).toBe(true);
    }
  });
});

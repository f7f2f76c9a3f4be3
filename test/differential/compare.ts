// Compares tritonc's parse of each text with the reference implementation's (Python text_format).
import { expect } from 'vitest';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { normalizeReferenceJson } from '../support/proto-json-compare.js';
import { parseWithReference } from './reference.js';

const schema = loadSchema();

/** Every text must parse in the reference into the message whose value tritonc gives. */
export function compareWithReference(texts: string[], values: Record<string, unknown>[], label: (i: number) => string): void {
  const answers = parseWithReference(texts);
  const failures: string[] = [];
  texts.forEach((_, i) => {
    const a = answers[i];
    if (!a || !a.ok) {
      failures.push(`${label(i)}: the reference refused tritonc's output: ${a && !a.ok ? a.error : 'no answer'}`);
      return;
    }
    const ours = toProtoJson(values[i]!, schema.modelConfig);
    const theirs = normalizeReferenceJson(a.value, schema.modelConfig);
    try {
      expect(ours).toEqual(theirs);
    } catch {
      failures.push(`${label(i)}: values differ\n ours:   ${JSON.stringify(ours)}\n theirs: ${JSON.stringify(theirs)}`);
    }
  });
  expect(failures.slice(0, 5)).toEqual([]);
}

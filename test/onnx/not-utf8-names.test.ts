// An ONNX tensor name is bytes; a config names tensors in UTF-8 text (model_config.proto is proto3).
// A name that is not UTF-8 is kept as such by the reader: generate refuses it, lint says so, inspect
// shows its bytes; none of them quietly uses the text with U+FFFD in place of the bad byte.
import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSignature } from '../../src/onnx/index.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { NOT_UTF8_INPUT, notUtf8Onnx } from '../lint/harness.js';

function repo(config?: string): string {
  const dir = tempDir('tritonc-not-utf8-');
  mkdirSync(join(dir, 'm', '1'), { recursive: true });
  writeFileSync(join(dir, 'm', '1', 'model.onnx'), notUtf8Onnx());
  if (config !== undefined) writeFileSync(join(dir, 'm', 'config.pbtxt'), config);
  return dir;
}

describe('a tensor name that is not UTF-8', () => {
  it('the reader keeps that it is not UTF-8, and its bytes', async () => {
    const dir = repo();
    const sig = await readSignature(join(dir, 'm', '1', 'model.onnx'));
    expect(sig.inputs.map((t) => [t.name, t.notUtf8])).toEqual([['in\uFFFDput', NOT_UTF8_INPUT]]);
    expect(sig.outputs.map((t) => [t.name, t.notUtf8])).toEqual([['out', undefined]]);
  });

  it('generate refuses it, naming its bytes and the fix, and writes nothing', async () => {
    const dir = repo();
    const r = await cli(['generate', 'm', '--write'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`m/1/model.onnx: input "${NOT_UTF8_INPUT}" has a name that is not UTF-8`);
    expect(r.stderr).toContain('rename the input to UTF-8 text in the export');
    expect(existsSync(join(dir, 'm', 'config.pbtxt'))).toBe(false);
  });

  it('inspect shows its bytes, in the table and the JSON', async () => {
    const dir = repo();
    const text = await cli(['inspect', 'm/1/model.onnx'], { cwd: dir });
    expect(text.stdout).toContain(`${NOT_UTF8_INPUT} (not UTF-8)`);
    const json = await cli(['inspect', 'm/1/model.onnx', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(json.stdout).inputs[0]).toMatchObject({ name: 'in\uFFFDput', notUtf8: NOT_UTF8_INPUT });
  });

  it('lint reports it; a config naming the text with U+FFFD names no input of the model', async () => {
    const dir = repo(
      'platform: "onnxruntime_onnx"\nmax_batch_size: 4\ninput [ { name: "in\uFFFDput" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "out" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
    );
    const r = await cli(['lint', '.', '--format', 'json'], { cwd: dir });
    const found = (JSON.parse(r.stdout) as { messages: { ruleId: string; messageId: string; message: string }[] }[])
      .flatMap((f) => f.messages)
      .filter((m) => m.ruleId === 'io-name');
    expect(found.map((m) => m.messageId).sort()).toEqual(['inputUnknownNoModelInputs', 'modelNameNotUtf8']);
    expect(found.find((m) => m.messageId === 'modelNameNotUtf8')!.message).toContain(`the model's input "${NOT_UTF8_INPUT}" has a name that is not UTF-8`);
  });
});

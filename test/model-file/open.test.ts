// The one opener every reader uses (src/model-file/open.ts): on real files, each failure one id
// whatever the format (the format is data), a FIFO refused without blocking, a link followed (as
// Triton follows it), the descriptor closed on every path.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readWhole, withModelFile, withModelFileSync, type ModelFormat } from '../../src/model-file/open.js';
import { readerOf } from '../../src/model-readers/readers.js';
import { tempDir } from '../support/temp.js';

const thrown = (f: () => unknown): ModelReadError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelReadError) return e;
    throw e;
  }
  throw new Error('no error');
};
const openFds = (): number => readdirSync('/proc/self/fd').length;

describe('model-file/open.ts', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'model.bin'), 'abcdef');
  symlinkSync(join(dir, 'model.bin'), join(dir, 'link.bin'));
  mkdirSync(join(dir, 'sub'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);

  it('reads a regular file by position, and through a link', async () => {
    expect(withModelFileSync(join(dir, 'link.bin'), 'ONNX', (f) => ({ size: f.size, bytes: readWhole(f).toString() }))).toEqual({ size: 6, bytes: 'abcdef' });
    const b = Buffer.alloc(4);
    expect(await withModelFile(join(dir, 'model.bin'), 'ONNX', async (f) => [await f.read(b, 0, 4, 4), b.subarray(0, 2).toString()])).toEqual([2, 'ef']);
  });

  it('a directory, a FIFO, a missing path: one id each for every reader, its format the data', () => {
    const formats = (['onnx', 'openvino', 'pytorch'] as const).map((f) => readerOf(f)!);
    for (const reader of formats) {
      const format: ModelFormat = reader.title;
      expect(thrown(() => reader.readSync(join(dir, 'sub')))).toMatchObject({ kind: 'io', offset: null, messageId: 'isDirectory', data: { format } });
      expect(thrown(() => reader.readSync(join(dir, 'fifo')))).toMatchObject({ kind: 'io', messageId: 'notRegularFile', data: { format, fileType: 'FIFO' } });
      expect(thrown(() => reader.readSync(join(dir, 'none')))).toMatchObject({ kind: 'io', messageId: 'noSuchFile', data: {} });
    }
    expect(formats.map((r) => r.title)).toEqual(['ONNX', 'OpenVINO IR', 'PyTorch']);
    // The SavedModel's saved_model.pb, opened the same way.
    const tf = join(dir, 'tf');
    mkdirSync(join(tf, 'saved_model.pb'), { recursive: true });
    expect(thrown(() => readerOf('tensorflow')!.readSync(tf))).toMatchObject({
      file: join(tf, 'saved_model.pb'),
      messageId: 'isDirectory',
      data: { format: 'TensorFlow SavedModel' },
    });
  });

  it('closes the descriptor whatever the reader does with it', async () => {
    const before = openFds();
    expect(() =>
      withModelFileSync(join(dir, 'model.bin'), 'PyTorch', () => {
        throw new Error('reader bug');
      }),
    ).toThrow('reader bug');
    await expect(withModelFile(join(dir, 'model.bin'), 'PyTorch', () => Promise.reject(new Error('reader bug')))).rejects.toThrow('reader bug');
    expect(() => withModelFileSync(join(dir, 'fifo'), 'PyTorch', () => 0)).toThrow(ModelReadError);
    expect(openFds()).toBe(before);
  });
});

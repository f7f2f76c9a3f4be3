// The reader is picked by the format a backend record gives its model file, and a signature stands
// for a file only when that format's reader could have made it (a config that changes backend must
// not see the signature read for the old one).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatOfSignature, hasReader, loadSignature, readBy } from '../../src/model-readers/readers.js';
import { Sources } from '../../src/workspace/sources.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const CLASSIFIER = join(ROOT, 'model_repository', 'classifier', '1', 'model.onnx');

describe('model file readers', () => {
  it('reads an ONNX file as onnx, and nothing for a format without a reader', () => {
    const read = loadSignature(CLASSIFIER, 'onnx');
    expect(read.signature?.format).toBe('onnx');
    expect(read.signature?.inputs.length).toBeGreaterThan(0);
    expect(loadSignature(CLASSIFIER, 'tensorrt')).toEqual({});
    expect(hasReader('tensorrt')).toBe(false);
    expect(hasReader('onnx')).toBe(true);
  });

  it('turns a file the reader refuses into an error, never an exception', () => {
    const read = loadSignature(join(ROOT, 'README.md'), 'onnx');
    expect(read.signature).toBeUndefined();
    expect(read.error?.kind).toBe('format');
    expect(read.error?.file).toBe(join(ROOT, 'README.md'));
  });

  it('says which format made a signature (a lock names its format; ONNX when it names none)', () => {
    const sig = loadSignature(CLASSIFIER, 'onnx').signature!;
    expect(formatOfSignature(sig)).toBe('onnx');
    const { format: _format, ...unnamed } = sig;
    expect(formatOfSignature(unnamed)).toBe('onnx');
    expect(readBy('onnx', sig)).toBe(true);
    expect(readBy('openvino', sig)).toBe(false);
  });

  it('keeps a stand-in signature from answering for another format', () => {
    const sig = loadSignature(CLASSIFIER, 'onnx').signature!;
    const sources = new Sources();
    const at = join(tempDir('tritonc-readers-'), 'model.xml');
    sources.setSignature(at, sig);
    expect(sources.signature(at, 'onnx').signature).toBe(sig);
    expect(sources.signature(at, 'openvino')).toEqual({});
  });

  it('reads the same path once per format in a run, and again as another format', () => {
    const dir = tempDir('tritonc-readers-');
    mkdirSync(join(dir, '1'));
    const file = join(dir, '1', 'model.onnx');
    copyFileSync(CLASSIFIER, file);
    const sources = new Sources();
    const first = sources.signature(file, 'onnx');
    expect(sources.signature(file, 'onnx')).toBe(first);
    expect(sources.signature(file, 'tensorrt')).toEqual({});
  });
});

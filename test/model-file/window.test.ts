// The one protobuf byte window (src/model-file/window.ts) under both walks that use it: the same
// broken bytes give the same failure, by one id, in the ONNX reader and the SavedModel reader, the
// format the error's; and the window refills one bounded buffer, never holding the file.
import { describe, expect, it } from 'vitest';
import { bytesField, intField, key } from '../../fixtures/onnx/proto-writer.js';
import { ModelReadError } from '../../src/model-file/errors.js';
import { ByteWindow, driveSync, HEADER_BYTES, MIN_WINDOW_BYTES } from '../../src/model-file/window.js';
import { readSignatureOfBytes } from '../../src/onnx/reader.js';
import { readSavedModelOfBytes } from '../../src/savedmodel/reader.js';

const thrown = (f: () => unknown): ModelReadError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ModelReadError) return e;
    throw e;
  }
  throw new Error('no error');
};
const cat = (...parts: (Uint8Array | number[])[]): Uint8Array => Buffer.concat(parts.map((p) => Buffer.from(p)));
const both = (bytes: Uint8Array) => [thrown(() => readSignatureOfBytes('m.onnx', bytes)), thrown(() => readSavedModelOfBytes('m.savedmodel', bytes))];

describe('model-file/window.ts under the ONNX and the SavedModel walk', () => {
  it("a length past the end of the file: one id, one wording, the format the error's", () => {
    // Field 1 (a varint in both ModelProto and SavedModel), then field 9 claiming 1000 bytes of 3.
    const [onnx, tf] = both(cat(intField(1, 7), key(9, 2), [0xe8, 0x07], [1, 2, 3]));
    for (const [e, format] of [
      [onnx, 'ONNX'],
      [tf, 'TensorFlow SavedModel'],
    ] as const) {
      expect(e).toMatchObject({
        kind: 'format',
        offset: 3,
        messageId: 'protobufLengthPastFile',
        format,
        data: { field: 'field 9', claimed: 1000, remaining: '3 bytes', fileSize: '8 bytes' },
      });
    }
    expect(onnx!.reason).toBe(tf!.reason);
  });

  it("a group tag (which neither format writes): the format is the wording's data", () => {
    const [onnx, tf] = both(cat(intField(1, 7), key(5, 3)));
    expect(onnx).toMatchObject({ messageId: 'protobufTagGroup', data: { fieldNumber: 5, wire: 3, format: 'ONNX' } });
    expect(tf).toMatchObject({ messageId: 'protobufTagGroup', data: { fieldNumber: 5, wire: 3, format: 'TensorFlow SavedModel' } });
    expect(tf!.reason).toBe('field 5 uses a protobuf group (wire type 3), which TensorFlow SavedModel never writes');
  });

  it("reads through one buffer of the window's size, refilled: a field skipped is never read", () => {
    const file = cat(intField(1, 7), bytesField(9, Buffer.alloc(100_000, 0xab)), intField(1, 8));
    const reads: number[] = [];
    const w = new ByteWindow('f', file.length, 'ONNX', { windowBytes: MIN_WINDOW_BYTES });
    const read = (b: Buffer, o: number, l: number, p: number): number => {
      reads.push(l);
      const part = file.subarray(p, p + l);
      b.set(part, o);
      return part.length;
    };
    const fields: number[] = [];
    while (w.pos < file.length) {
      driveSync(w.fill(HEADER_BYTES, file.length), read);
      const tag = w.tag(file.length);
      fields.push(tag.field);
      w.skip(tag, file.length);
    }
    expect(fields).toEqual([1, 9, 1]);
    expect(reads.every((l) => l <= MIN_WINDOW_BYTES)).toBe(true);
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThan(200);
  });
});

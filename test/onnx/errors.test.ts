// Bad files: every failure is an ModelReadError naming the file and the byte offset of the problem.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { bytesField, intField, key, stringField, tensorTypeProto, valueInfoProto, varint } from '../../fixtures/onnx/proto-writer.js';
import { ModelReadError, readSignature, readSignatureSync } from '../../src/onnx/index.js';
import { makeTempDir, removeDir, writeBytes } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir('onnx-errors');
});
afterAll(() => removeDir(dir));

let counter = 0;
/** Reads `bytes` as a model both ways; both must fail alike. Returns the error. */
async function failure(bytes: Uint8Array | Buffer): Promise<ModelReadError> {
  const file = writeBytes(dir, `bad-${counter++}.onnx`, bytes);
  let asyncError: unknown;
  try {
    await readSignature(file);
  } catch (e) {
    asyncError = e;
  }
  let syncError: unknown;
  try {
    readSignatureSync(file);
  } catch (e) {
    syncError = e;
  }
  expect(asyncError).toBeInstanceOf(ModelReadError);
  expect(syncError).toBeInstanceOf(ModelReadError);
  const e = asyncError as ModelReadError;
  expect((syncError as ModelReadError).message).toBe(e.message);
  expect(e.file).toBe(file);
  expect(e.message.startsWith(`${file}: `)).toBe(true);
  return e;
}

const IR8 = intField(1, 8); // 08 08: two bytes
const io = (name: string) => valueInfoProto(name, tensorTypeProto(1, ['batch', 4]));
const minimalGraph = Buffer.concat([bytesField(11, io('x')), bytesField(12, io('y'))]);
const minimalModel = Buffer.concat([IR8, bytesField(7, minimalGraph), bytesField(8, [stringField(1, ''), intField(2, 17)])]);

describe('well-formed hand-encoded models', () => {
  it('the minimal model reads', async () => {
    const file = writeBytes(dir, 'minimal.onnx', minimalModel);
    const sig = await readSignature(file);
    expect(sig.inputs.map((i) => i.name)).toEqual(['x']);
    expect(sig.opsets).toEqual([{ domain: '', version: 17 }]);
  });

  it('decodes 10-byte negative varints and 64-bit dims exactly', async () => {
    const type = tensorTypeProto(1, [-1, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER]);
    const graph = Buffer.concat([bytesField(11, valueInfoProto('x', type)), bytesField(12, io('y'))]);
    const file = writeBytes(dir, 'bigdims.onnx', Buffer.concat([IR8, bytesField(7, graph)]));
    const sig = await readSignature(file);
    expect(sig.inputs[0]!.shape).toEqual([-1, 2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER]);
    expect(sig.batchable).toBe(true);
  });

  it('reads an int32 elem_type written as a sign-extended negative varint as an unknown type', async () => {
    const type = Buffer.concat([bytesField(1, [intField(1, -3), bytesField(2, [])])]);
    const graph = Buffer.concat([bytesField(11, valueInfoProto('x', type)), bytesField(12, io('y'))]);
    const sig = await readSignature(writeBytes(dir, 'negelem.onnx', Buffer.concat([IR8, bytesField(7, graph)])));
    expect(sig.inputs[0]).toEqual({ name: 'x', kind: 'tensor', elemType: null, tritonType: null, shape: [] });
  });

  it('reports opaque types and unknown fields are skipped', async () => {
    const opaque = bytesField(7, [stringField(1, 'com.example'), stringField(2, 'Blob')]);
    const unknownFields = Buffer.concat([intField(1000, 5), bytesField(2000, Buffer.alloc(300)), key(3000, 5), Buffer.alloc(4), key(3001, 1), Buffer.alloc(8)]);
    const graph = Buffer.concat([unknownFields, bytesField(11, valueInfoProto('blob', opaque)), bytesField(12, io('y'))]);
    const sig = await readSignature(writeBytes(dir, 'opaque.onnx', Buffer.concat([IR8, unknownFields, bytesField(7, graph)])));
    expect(sig.inputs).toEqual([{ name: 'blob', kind: 'opaque', elemType: null, tritonType: null, shape: null }]);
  });

  it('a model with no inputs or outputs is vacuously batchable (as in Triton)', async () => {
    const sig = await readSignature(writeBytes(dir, 'empty-graph.onnx', Buffer.concat([IR8, bytesField(7, [])])));
    expect(sig.inputs).toEqual([]);
    expect(sig.batchable).toBe(true);
  });
});

describe('bad files', () => {
  it('an initializer whose packed dims claim 300 MB: refused at the decode budget, in bounded memory', async () => {
    // ModelProto.graph > GraphProto.initializer > TensorProto.dims (packed), 300 MB of zero varints:
    // a sparse file, so it costs no disk. Before the budget counted packed dims, this grew a list
    // of 300 million numbers until V8 died.
    const DIMS = 300_000_000;
    const dims = Buffer.concat([key(1, 2), varint(DIMS)]);
    const tensor = Buffer.concat([key(5, 2), varint(dims.length + DIMS)]);
    const graph = Buffer.concat([key(7, 2), varint(tensor.length + dims.length + DIMS)]);
    const head = Buffer.concat([IR8, graph, tensor, dims]);
    const file = path.join(dir, 'packed-dims.onnx');
    fs.writeFileSync(file, head);
    fs.truncateSync(file, head.length + DIMS);
    const before = process.memoryUsage().rss;
    const e = readSignatureSync.bind(null, file);
    expect(e).toThrow(ModelReadError);
    try {
      readSignatureSync(file);
    } catch (err) {
      expect((err as ModelReadError).reason).toBe('more than 10000000 inputs, outputs, dims and other entries; refusing to decode further');
      expect((err as ModelReadError).offset).toBe(IR8.length + graph.length + tensor.length);
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);

  it('empty file', async () => {
    const e = await failure(Buffer.alloc(0));
    expect(e.offset).toBe(0);
    expect(e.reason).toMatch(/empty/);
  });

  it('a length beyond the end of the file names the offset of the length', async () => {
    // 08 08 | 3a | e8 07 (1000) | 3 bytes
    const e = await failure(Buffer.concat([IR8, key(7, 2), varint(1000), Buffer.from([1, 2, 3])]));
    expect(e.kind).toBe('format');
    expect(e.offset).toBe(3);
    expect(e.reason).toBe('ModelProto.graph claims 1000 bytes but only 3 bytes remain in the file (8 bytes in all; truncated?)');
  });

  it('a length beyond the enclosing message', async () => {
    // graph (5 bytes of payload) contains an input claiming 50 bytes.
    const graph = Buffer.concat([key(11, 2), varint(50), Buffer.from([0, 0, 0])]);
    const e = await failure(Buffer.concat([IR8, bytesField(7, graph), Buffer.alloc(100)]));
    expect(e.offset).toBe(5); // 08 08 3a 05 | 5a <len at 5>
    expect(e.reason).toBe('GraphProto.input claims 50 bytes but only 3 bytes remain in the enclosing message (which ends at byte 9)');
  });

  it('a huge length is reported without allocating it', async () => {
    const e = await failure(Buffer.concat([IR8, key(2, 2), varint(2 ** 60), Buffer.from('abc')]));
    expect(e.offset).toBe(3);
    expect(e.reason).toMatch(/ModelProto.producer_name claims over 2\^53 bytes/);
  });

  it('a truncated copy of a real model', async () => {
    const file = await buildFixture('classifier', dir);
    const bytes = fs.readFileSync(file);
    const e = await failure(bytes.subarray(0, 20_000));
    // The graph's length prefix is what announces more bytes than the file has.
    expect(e.reason).toMatch(/^ModelProto.graph claims \d+ bytes but only 19971 bytes remain in the file \(20000 bytes in all; truncated\?\)$/);
    expect(e.offset).toBe(bytes.indexOf(0x3a) + 1);
  });

  it('wrong wire type for a known field', async () => {
    const e = await failure(Buffer.concat([key(1, 2), varint(1), Buffer.from([8])]));
    expect(e.offset).toBe(0);
    expect(e.reason).toBe('ModelProto.ir_version (field 1) has wire type 2 (length-delimited), expected 0 (varint)');
  });

  it('wrong wire type deep inside a value info', async () => {
    const badType = Buffer.concat([key(1, 0), varint(1)]); // tensor_type as a varint
    const graph = bytesField(11, valueInfoProto('x', badType));
    const e = await failure(Buffer.concat([IR8, bytesField(7, graph)]));
    expect(e.reason).toMatch(/^TypeProto.tensor_type \(field 1\) has wire type 0/);
    expect(e.offset).toBe(Buffer.concat([IR8, bytesField(7, graph)]).indexOf(badType));
  });

  it('protobuf groups and invalid wire types', async () => {
    expect((await failure(Buffer.concat([IR8, key(5, 3)]))).reason).toMatch(/group/);
    const e = await failure(Buffer.concat([IR8, key(5, 6)]));
    expect(e.offset).toBe(2);
    expect(e.reason).toMatch(/invalid wire type 6/);
  });

  it('field number 0', async () => {
    const e = await failure(Buffer.concat([IR8, Buffer.from([0x00])]));
    expect(e.offset).toBe(2);
    expect(e.reason).toMatch(/field number 0/);
  });

  it('a varint cut off by the end of the file', async () => {
    const e = await failure(Buffer.from([0x08, 0xff, 0xff]));
    expect(e.offset).toBe(1);
    expect(e.reason).toMatch(/ModelProto.ir_version is cut off by the end of the file/);
  });

  it('a varint longer than 10 bytes', async () => {
    const e = await failure(Buffer.concat([Buffer.from([0x08]), Buffer.alloc(11, 0xff), Buffer.from([1])]));
    expect(e.offset).toBe(1);
    expect(e.reason).toMatch(/not a valid varint/);
  });

  it('absurd TypeProto nesting', async () => {
    let type = tensorTypeProto(1, [1]);
    for (let i = 0; i < 100; i++) type = bytesField(4, bytesField(1, type)); // sequence of sequence of ...
    const graph = bytesField(11, valueInfoProto('x', type));
    const e = await failure(Buffer.concat([IR8, bytesField(7, graph)]));
    expect(e.reason).toMatch(/nested deeper than 64 levels/);
    expect(e.offset).toBeGreaterThan(0);
  });

  it('no graph', async () => {
    const e = await failure(Buffer.concat([IR8, stringField(2, 'nothing else')]));
    expect(e.offset).toBe(0);
    expect(e.reason).toMatch(/not an ONNX model: there is no graph/);
  });

  it('no ir_version', async () => {
    const e = await failure(bytesField(7, minimalGraph));
    expect(e.reason).toMatch(/no ir_version/);
  });

  it('a ZIP archive (a PyTorch checkpoint)', async () => {
    const e = await failure(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60)]));
    expect(e.offset).toBe(0);
    expect(e.reason).toMatch(/ZIP archive/);
  });

  // git-lfs docs/spec.md: the version line, then oid and size, in a file under 1024 bytes.
  it('a Git LFS pointer: the object it stands for, and git lfs pull', async () => {
    const e = await failure(
      Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 102502400\n'),
    );
    expect(e.offset).toBe(0);
    expect(e.lfsPointer).toEqual({ oid: 'sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393', size: 102502400 });
    expect(e.reason).toMatch(/Git LFS pointer to an object of 102502400 bytes .* run git lfs pull$/);
  });

  it('text that only starts like a pointer is a text file, not a pointer', async () => {
    const e = await failure(Buffer.from('version https://example.com/spec\nhello\n'));
    expect(e.lfsPointer).toBeUndefined();
    expect(e.reason).toMatch(/looks like a text file/);
  });

  it('a text file', async () => {
    const e = await failure(Buffer.from('name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n'));
    expect(e.offset).toBe(0);
    expect(e.reason).toMatch(/looks like a text file/);
  });

  it('string fields beyond the window are read (and bounded) correctly', async () => {
    const long = 'x'.repeat(200_000);
    const graph = Buffer.concat([bytesField(11, io('x')), bytesField(12, io('y'))]);
    const file = writeBytes(dir, 'long-string.onnx', Buffer.concat([IR8, stringField(2, long), bytesField(7, graph)]));
    expect((await readSignature(file)).producer.name).toBe(long);
    expect(readSignatureSync(file, { windowBytes: 64 }).producer.name).toBe(long);
  });
});

describe('files that cannot be read', () => {
  it('a missing file is an io error without an offset', async () => {
    const file = path.join(dir, 'nope.onnx');
    await expect(readSignature(file)).rejects.toMatchObject({
      kind: 'io',
      offset: null,
      file,
      messageId: 'noSuchFile',
      message: `${file}: no such file or directory`,
    });
    expect(() => readSignatureSync(file)).toThrow(ModelReadError);
  });

  it('a directory', async () => {
    await expect(readSignature(dir)).rejects.toMatchObject({
      kind: 'io',
      messageId: 'isDirectory',
      data: { format: 'ONNX' },
      reason: 'is a directory where the ONNX model file should be',
    });
    expect(() => readSignatureSync(dir)).toThrow(/is a directory/);
  });

  it('errors serialize as data', async () => {
    const e = await failure(Buffer.from([0x08]));
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      kind: 'format',
      file: e.file,
      offset: 1,
      messageId: 'protobufVarintCutOffFile',
      data: { field: 'ModelProto.ir_version', fileSize: '1 byte' },
      message: `${e.file}: byte 1: ModelProto.ir_version is cut off by the end of the file (1 byte)`,
    });
  });
});

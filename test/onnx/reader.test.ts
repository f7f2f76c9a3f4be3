import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSIFIER_WEIGHT_BYTES, FIXTURE_NAMES, type FixtureName } from '../../fixtures/onnx/index.js';
import { ELEM_TYPES, elemTypeByName, readSignature, readSignatureSync, type Dim, type ModelSignature, type TensorInfo } from '../../src/onnx/index.js';
import { model, node, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';
import { buildAllFixtures, makeTempDir, removeDir } from './helpers.js';

let dir: string;
let files: Record<FixtureName, string>;

beforeAll(async () => {
  dir = makeTempDir('onnx-reader');
  files = await buildAllFixtures(dir);
});
afterAll(() => removeDir(dir));

/** Expected TensorInfo of a tensor: the Triton type comes from the element type. */
function tensor(name: string, elemType: string, shape: Dim[] | null): TensorInfo {
  return { name, kind: 'tensor', elemType, tritonType: elemTypeByName(elemType)!.tritonType, shape };
}

function other(name: string, kind: TensorInfo['kind'], elemType: string | null, shape: Dim[] | null = null): TensorInfo {
  return { name, kind, elemType, tritonType: null, shape };
}

const read = (name: FixtureName) => readSignature(files[name]);

const NO_WEIGHTS = { count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 };
const DEFAULT_PRODUCER = { name: 'tritonc-fixtures', version: '1.0' };
const OPSET_17 = [{ domain: '', version: 17 }];

describe('readSignature on each fixture', () => {
  it('fixed-batch: fixed dims, producer, metadata; not batchable', async () => {
    const sig = await read('fixed-batch');
    expect(sig).toEqual<ModelSignature>({
      path: files['fixed-batch'],
      format: 'onnx',
      irVersion: 8,
      producer: { name: 'pytorch', version: '2.3.0' },
      opsets: OPSET_17,
      inputs: [tensor('images', 'FLOAT', [1, 3, 32, 32])],
      outputs: [tensor('features', 'FLOAT', [1, 3, 32, 32])],
      initializers: NO_WEIGHTS,
      batchable: false,
      metadata: [
        { key: 'author', value: 'tritonc' },
        { key: 'license', value: 'MIT' },
      ],
      overridableInitializers: [],
      weightsInline: true,
      externalDataFiles: [],
    });
  });

  it('dynamic-batch: dim_param batch makes it batchable', async () => {
    const sig = await read('dynamic-batch');
    expect(sig.inputs).toEqual([tensor('input', 'FLOAT', ['batch', 3, 32, 32])]);
    expect(sig.outputs).toEqual([tensor('output', 'FLOAT', ['batch', 3, 32, 32])]);
    expect(sig.producer).toEqual(DEFAULT_PRODUCER);
    expect(sig.batchable).toBe(true);
    expect(sig.metadata).toEqual([]);
  });

  it('symbolic-dims: dim_param, unset dims (null) and dim_value -1', async () => {
    const sig = await read('symbolic-dims');
    expect(sig.inputs).toEqual([
      tensor('input_ids', 'INT64', ['batch', 'sequence']),
      tensor('attention_mask', 'INT64', ['batch', 'sequence']),
      tensor('extra', 'FLOAT', [-1, null, 4]),
    ]);
    expect(sig.outputs).toEqual([tensor('logits', 'FLOAT', ['batch', 'sequence']), tensor('extra_out', 'FLOAT', [-1, null, 4])]);
    expect(sig.batchable).toBe(true);
  });

  it('scalar: [] is a scalar, which cannot batch', async () => {
    const sig = await read('scalar');
    expect(sig.inputs).toEqual([tensor('x', 'FLOAT', ['n']), tensor('threshold', 'FLOAT', [])]);
    expect(sig.outputs).toEqual([tensor('mask', 'BOOL', ['n']), tensor('threshold_out', 'FLOAT', [])]);
    expect(sig.batchable).toBe(false);
  });

  it('unknown-rank: no shape field gives shape null', async () => {
    const sig = await read('unknown-rank');
    expect(sig.inputs).toEqual([tensor('x', 'FLOAT', null)]);
    expect(sig.outputs).toEqual([tensor('y', 'FLOAT', null)]);
    expect(sig.batchable).toBe(false);
  });

  it('multi-io: order and types of several inputs and outputs', async () => {
    const sig = await read('multi-io');
    expect(sig.inputs).toEqual([
      tensor('image', 'FLOAT', ['batch', 3, 8, 8]),
      tensor('scale', 'FLOAT', ['batch', 1, 1, 1]),
      tensor('ids', 'INT32', ['batch', 5]),
    ]);
    expect(sig.outputs).toEqual([
      tensor('scaled', 'FLOAT', ['batch', 3, 8, 8]),
      tensor('ids_out', 'INT64', ['batch', 5]),
      tensor('pooled', 'FLOAT', ['batch', 3, 1, 1]),
    ]);
    expect(sig.batchable).toBe(true);
  });

  it('all-elem-types: every element type 1..26 with its Triton type', async () => {
    const sig = await read('all-elem-types');
    expect(sig.irVersion).toBe(11);
    expect(sig.opsets).toEqual([{ domain: '', version: 23 }]);
    const types = ELEM_TYPES.slice(1);
    expect(sig.inputs).toEqual(types.map((t) => ({ name: `in_${t.name}`, kind: 'tensor', elemType: t.name, tritonType: t.tritonType, shape: ['batch', 2] })));
    expect(sig.outputs.map((o) => [o.name, o.elemType, o.tritonType])).toEqual(types.map((t) => [`out_${t.name}`, t.name, t.tritonType]));
    // Spot checks against onnxruntime_backend's OnnxDataTypeToModelConfigDataType.
    const byName = new Map(sig.inputs.map((i) => [i.elemType, i.tritonType]));
    expect(byName.get('STRING')).toBe('TYPE_STRING');
    expect(byName.get('BFLOAT16')).toBe('TYPE_BF16');
    expect(byName.get('FLOAT16')).toBe('TYPE_FP16');
    expect(byName.get('COMPLEX64')).toBeNull();
    expect(byName.get('FLOAT8E4M3FN')).toBeNull();
    expect(byName.get('INT2')).toBeNull();
  });

  it('non-tensor-io: sequence, map, optional, sparse_tensor and untyped values', async () => {
    const sig = await read('non-tensor-io');
    expect(sig.inputs).toEqual([
      other('tensors', 'sequence', 'FLOAT'),
      tensor('scores', 'FLOAT', ['batch', 2]),
      other('lookup', 'map', 'INT64'),
      other('maybe', 'optional', 'INT32'),
      other('sparse', 'sparse_tensor', 'FLOAT', [100, 'cols']),
      other('untyped', 'unknown', null),
      other('nested', 'sequence', 'DOUBLE'),
    ]);
    expect(sig.outputs).toEqual([other('tensors_out', 'sequence', 'FLOAT'), other('labels', 'sequence', 'FLOAT'), tensor('has_value', 'BOOL', [])]);
    expect(sig.opsets).toEqual([...OPSET_17, { domain: 'ai.onnx.ml', version: 3 }]);
    expect(sig.batchable).toBe(false);
  });

  it('initializers-as-inputs (IR 3): initializers listed as inputs are overridable, not inputs', async () => {
    const sig = await read('initializers-as-inputs');
    expect(sig.irVersion).toBe(3);
    expect(sig.opsets).toEqual([{ domain: '', version: 9 }]);
    expect(sig.inputs).toEqual([tensor('X', 'FLOAT', ['N', 4])]);
    expect(sig.overridableInitializers).toEqual([tensor('W', 'FLOAT', [4, 4]), tensor('B', 'FLOAT', [4]), tensor('shape', 'INT64', [2])]);
    expect(sig.outputs).toEqual([tensor('Y', 'FLOAT', ['N', 4])]);
    // W: packed float_data 16 x 4 bytes; B: raw_data 16 bytes; shape: packed int64_data [-1 (10 bytes), 4 (1 byte)].
    expect(sig.initializers).toEqual({ count: 3, bytes: 64 + 16 + 11, externalBytes: 0, constantBytes: 0 });
    expect(sig.batchable).toBe(true);
  });

  it('external-data: length key, file size when there is no length, inline remainder', async () => {
    const sig = await read('external-data');
    // W 256 (length) + B 32 (size of bias.bin) + C 32 (length) external; unused_inline 8 bytes raw_data.
    expect(sig.initializers).toEqual({ count: 4, bytes: 328, externalBytes: 320, constantBytes: 0 });
    expect(sig.weightsInline).toBe(false);
    expect(sig.externalDataFiles).toEqual(['weights.bin', 'bias.bin']);
    expect(sig.inputs).toEqual([tensor('X', 'FLOAT', ['batch', 8])]);
    expect(sig.outputs).toEqual([tensor('Y', 'FLOAT', ['batch', 8])]);
  });

  it('external-missing: dims x element size when the file is missing, else the length key', async () => {
    const sig = await read('external-missing');
    expect(sig.initializers).toEqual({ count: 2, bytes: 16 * 16 * 4 + 100, externalBytes: 16 * 16 * 4 + 100, constantBytes: 0 });
    expect(sig.externalDataFiles).toEqual(['missing.bin', 'gone/h.bin']);
  });

  it('subgraph-if: skips subgraphs, Constant tensors, value_info and functions', async () => {
    const sig = await read('subgraph-if');
    expect(sig.inputs).toEqual([tensor('cond', 'BOOL', []), tensor('x', 'FLOAT', ['batch', 4])]);
    expect(sig.outputs).toEqual([tensor('y', 'FLOAT', ['batch', 4])]);
    expect(sig.initializers).toEqual(NO_WEIGHTS);
    expect(sig.opsets).toEqual([...OPSET_17, { domain: 'tritonc.local', version: 1 }]);
    expect(sig.batchable).toBe(false);
  });

  it('torch-order: inputs after initializers and opset_import after the graph are found', async () => {
    const sig = await read('torch-order');
    expect(sig).toEqual<ModelSignature>({
      path: files['torch-order'],
      format: 'onnx',
      irVersion: 8,
      producer: { name: 'pytorch', version: '2.1.0' },
      opsets: [...OPSET_17, { domain: 'tritonc.local', version: 1 }],
      inputs: [tensor('x', 'FLOAT', ['batch', 4])],
      outputs: [tensor('y', 'FLOAT', ['batch', 4])],
      // W's 64 bytes and the Constant node's [4] floats, 16 bytes: a weight too.
      initializers: { count: 1, bytes: 80, externalBytes: 0, constantBytes: 16 },
      batchable: true,
      metadata: [{ key: 'exported_by', value: 'torch.onnx' }],
      overridableInitializers: [],
      weightsInline: true,
      externalDataFiles: [],
    });
  });

  it("classifier: the tutorial's signature", async () => {
    const sig = await read('classifier');
    expect(sig.inputs).toEqual([tensor('input', 'FLOAT', ['batch', 3, 224, 224])]);
    expect(sig.outputs).toEqual([tensor('output', 'FLOAT', ['batch', 1000])]);
    expect(sig.initializers).toEqual({ count: 4, bytes: CLASSIFIER_WEIGHT_BYTES, externalBytes: 0, constantBytes: 0 });
    expect(sig.opsets).toEqual(OPSET_17);
    expect(sig.irVersion).toBe(8);
    expect(sig.batchable).toBe(true);
  });

  it('batch1 fixtures: the declared signature is dynamic', async () => {
    for (const name of ['batch1-reshape', 'batch1-output'] as const) {
      const sig = await read(name);
      expect(sig.inputs).toEqual([tensor('input', 'FLOAT', ['batch', 4])]);
      expect(sig.outputs).toEqual([tensor('output', 'FLOAT', ['batch', 4])]);
      expect(sig.initializers).toEqual({ count: 1, bytes: 2, externalBytes: 0, constantBytes: 0 });
      expect(sig.batchable).toBe(true);
    }
  });
});

describe('sparse initializers', () => {
  it('count as initializers, and hide a graph input of the same name', async () => {
    const graph = {
      name: 'sparse',
      node: [node('Add', ['x', 'S'], ['y'])],
      sparseInitializer: [
        {
          values: { name: 'S', dataType: 1, dims: [3], rawData: Buffer.alloc(12) },
          indices: { name: 'S_indices', dataType: 7, dims: [3], int64Data: [0, 5, 9] },
          dims: [10],
        },
      ],
      input: [tensorInfo('x', 1, [10]), tensorInfo('S', 1, [10])],
      output: [tensorInfo('y', 1, [10])],
    };
    const file = await writeModel(path.join(dir, 'sparse', 'model.onnx'), model(graph));
    const sig = await readSignature(file);
    expect(sig.inputs.map((i) => i.name)).toEqual(['x']);
    expect(sig.overridableInitializers.map((i) => i.name)).toEqual(['S']);
    // values: 12 bytes of raw_data; indices: packed int64_data of three one-byte varints.
    expect(sig.initializers).toEqual({ count: 1, bytes: 15, externalBytes: 0, constantBytes: 0 });
  });
});

describe('readSignatureSync and window sizes', () => {
  it.each(FIXTURE_NAMES)('%s: sync, async and a 64-byte window agree', async (name) => {
    const expected = await readSignature(files[name]);
    expect(readSignatureSync(files[name])).toEqual(expected);
    expect(readSignatureSync(files[name], { windowBytes: 64 })).toEqual(expected);
    expect(await readSignature(files[name], { windowBytes: 100 })).toEqual(expected);
  });
});

describe('the synchronous reader shares one window buffer', () => {
  it('reads every fixture right after every other, in both orders, and with the window size changing between them', async () => {
    const expected = new Map<FixtureName, ModelSignature>();
    for (const name of FIXTURE_NAMES) expected.set(name, await readSignature(files[name]));
    // Each read leaves the previous file's bytes in the shared buffer: a read that used a byte it
    // did not fill would return a mix of two models.
    for (const [i, a] of FIXTURE_NAMES.entries()) {
      for (const b of [...FIXTURE_NAMES].reverse()) {
        expect(readSignatureSync(files[a], { windowBytes: 64 + i })).toEqual(expected.get(a));
        expect(readSignatureSync(files[b])).toEqual(expected.get(b));
      }
    }
  });
});

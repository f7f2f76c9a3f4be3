// The ONNX Runtime backend's auto-complete (onnxruntime_backend AutoCompleteConfig) on signatures built in memory.
import { describe, expect, it } from 'vitest';
import { autoCompleteOnnx, onnxAutoCompleteSkipped } from '../../src/triton/backends/onnxruntime/autocomplete.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { elemTypeByName } from '../../src/onnx/elem-types.js';
import type { Dim, ModelSignature, TensorInfo, ValueKind } from '../../src/model-file/signature.js';

function t(name: string, elem: string, shape: Dim[] | null, kind: ValueKind = 'tensor'): TensorInfo {
  return { name, kind, elemType: elem, tritonType: kind === 'tensor' ? (elemTypeByName(elem)?.tritonType ?? null) : null, shape };
}

function sig(inputs: TensorInfo[], outputs: TensorInfo[]): ModelSignature {
  return {
    path: 'model.onnx',
    irVersion: 8,
    producer: { name: 'test', version: '1' },
    opsets: [{ domain: '', version: 17 }],
    inputs,
    outputs,
    initializers: { count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 },
    batchable: false,
    metadata: [],
    overridableInitializers: [],
    weightsInline: true,
    externalDataFiles: [],
  };
}

const BATCHING = sig([t('images', 'FLOAT', ['batch', 3, 224, 224])], [t('logits', 'FLOAT', [-1, 1000])]);
const FIXED = sig([t('images', 'FLOAT', [1, 3, 224, 224])], [t('logits', 'FLOAT', [1, 1000])]);
const base: ModelConfig = { name: 'm', backend: 'onnxruntime' };

describe('the skip rule', () => {
  it('>= 1 input and >= 1 output: nothing changes, an omitted max_batch_size stays 0 even for a model that can batch', () => {
    const config: ModelConfig = {
      ...base,
      input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [3] }],
      output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [3] }],
    };
    const r = autoCompleteOnnx(config, BATCHING);
    expect(r.config).toEqual(config);
    expect(r.problems).toEqual([]);
    expect(r.steps).toEqual([
      expect.objectContaining({ action: 'note', reason: expect.stringContaining("skipping model configuration auto-complete for 'm'") }),
    ]);
  });

  it('batch_input entries count as inputs', () => {
    expect(onnxAutoCompleteSkipped({ batch_input: [{ kind: 'BATCH_ELEMENT_COUNT' }], output: [{ name: 'y' }] })).toBe(true);
    expect(onnxAutoCompleteSkipped({ input: [{ name: 'x' }] })).toBe(false);
    expect(onnxAutoCompleteSkipped({ output: [{ name: 'y' }] })).toBe(false);
  });
});

describe('AutoCompleteMaxBatch', () => {
  it('a model that can batch with no max_batch_size gets 4 and dynamic batching', () => {
    const r = autoCompleteOnnx(base, BATCHING);
    expect(r.config.max_batch_size).toBe(4);
    expect(r.config.dynamic_batching).toEqual({});
    expect(r.config.input).toEqual([{ name: 'images', data_type: 'TYPE_FP32', dims: [3, 224, 224] }]);
    expect(r.config.output).toEqual([{ name: 'logits', data_type: 'TYPE_FP32', dims: [1000] }]);
    expect(r.steps.find((s) => s.path[0] === 'max_batch_size')?.reason).toContain("autofilled max_batch_size to 4 for model 'm'");
  });

  it('default-max-batch-size is configurable; 1 gives no dynamic batching, 0 leaves the model unbatched', () => {
    expect(autoCompleteOnnx(base, BATCHING, { defaultMaxBatchSize: 16 }).config).toMatchObject({ max_batch_size: 16, dynamic_batching: {} });
    const one = autoCompleteOnnx(base, BATCHING, { defaultMaxBatchSize: 1 }).config;
    expect(one.max_batch_size).toBe(1);
    expect(one.dynamic_batching).toBeUndefined();
    const zero = autoCompleteOnnx(base, BATCHING, { defaultMaxBatchSize: 0 }).config;
    expect(zero.max_batch_size).toBe(0);
    expect(zero.input![0]!.dims).toEqual([-1, 3, 224, 224]);
  });

  it('keeps a given max_batch_size and scheduler: no dynamic_batching over sequence_batching', () => {
    expect(autoCompleteOnnx({ ...base, max_batch_size: 32 }, BATCHING).config).toMatchObject({ max_batch_size: 32, dynamic_batching: {} });
    const seq = autoCompleteOnnx({ ...base, max_batch_size: 8, sequence_batching: {} }, BATCHING).config;
    expect(seq.dynamic_batching).toBeUndefined();
    const db = autoCompleteOnnx({ ...base, max_batch_size: 8, dynamic_batching: { max_queue_delay_microseconds: 100 } }, BATCHING).config;
    expect(db.dynamic_batching).toEqual({ max_queue_delay_microseconds: 100 });
  });

  it("a model that cannot batch with a non-zero max_batch_size: Triton's autofill failure, with the tensor to blame", () => {
    const r = autoCompleteOnnx({ ...base, max_batch_size: 8 }, FIXED);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({
      stage: 'autocomplete',
      message: "autofill failed for model 'm': model does not support batching while non-zero max_batch_size is specified",
    });
    expect(r.problems[0]!.fix).toContain("input 'images' has the fixed first dimension 1 (shape [1,3,224,224])");
    expect(r.problems[0]!.fix).toContain('max_batch_size: 0');
  });

  it('a model that cannot batch and no max_batch_size: full shapes, no batching', () => {
    const r = autoCompleteOnnx(base, FIXED);
    expect(r.problems).toEqual([]);
    expect(r.config.max_batch_size).toBeUndefined();
    expect(r.config.input).toEqual([{ name: 'images', data_type: 'TYPE_FP32', dims: [1, 3, 224, 224] }]);
  });

  it('runs even when only one side is missing, and keeps the written side as is', () => {
    const written = [{ name: 'wrong_name', data_type: 'TYPE_INT8' as const, dims: [7] }];
    const r = autoCompleteOnnx({ ...base, input: written }, BATCHING);
    expect(r.config.input).toEqual(written);
    expect(r.config.output).toEqual([{ name: 'logits', data_type: 'TYPE_FP32', dims: [1000] }]);
    expect(r.config.max_batch_size).toBe(4);
  });
});

describe('generated inputs and outputs', () => {
  it('symbolic and unknown dims are -1; a rank-1 batched tensor is dims [1] with an empty reshape', () => {
    const s = sig([t('ids', 'INT64', [-1, 'seq', null])], [t('score', 'FLOAT', ['n'])]);
    const r = autoCompleteOnnx(base, s);
    expect(r.config.input).toEqual([{ name: 'ids', data_type: 'TYPE_INT64', dims: [-1, -1] }]);
    expect(r.config.output).toEqual([{ name: 'score', data_type: 'TYPE_FP32', dims: [1], reshape: { shape: [] } }]);
  });

  it('a scalar rules batching out and becomes dims [1] without reshape', () => {
    const r = autoCompleteOnnx(base, sig([t('x', 'FLOAT', [-1, 4])], [t('total', 'DOUBLE', [])]));
    expect(r.config.max_batch_size).toBeUndefined();
    expect(r.config.output).toEqual([{ name: 'total', data_type: 'TYPE_FP64', dims: [1] }]);
  });

  it("a non-tensor input or output fails before anything else, in Triton's words", () => {
    const r = autoCompleteOnnx({ ...base, max_batch_size: 8 }, sig([t('x', 'FLOAT', [-1, 4])], [t('tokens', 'INT64', null, 'sequence')]));
    expect(r.problems.map((p) => p.message)).toEqual(["Unsupported ONNX Type 'ONNX_TYPE_SEQUENCE' for I/O 'tokens', expected 'ONNX_TYPE_TENSOR'."]);
  });

  it('an element type Triton cannot serve is refused by core as a missing data_type', () => {
    const r = autoCompleteOnnx(base, sig([t('x', 'FLOAT', [-1, 4])], [t('z', 'COMPLEX64', [-1, 4])]));
    expect(r.problems).toEqual([expect.objectContaining({ stage: 'validate', message: "model output 'z' must specify 'data_type' for m" })]);
    expect(r.problems[0]!.fix).toContain('COMPLEX64');
  });

  it('never mutates the config it is given', () => {
    const config: ModelConfig = { ...base };
    autoCompleteOnnx(config, BATCHING);
    expect(config).toEqual(base);
  });
});

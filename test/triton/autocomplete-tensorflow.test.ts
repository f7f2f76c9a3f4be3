// The TensorFlow backend's auto-complete of a SavedModel (tensorflow_backend src/tensorflow.cc
// AutoCompleteHelper), on the real exports: what it fills in and each way it refuses a config.
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/model-config.js';
import { readSavedModelSync } from '../../src/savedmodel/index.js';
import { autoCompleteTensorflow, tensorflowAutoCompleteSkipped } from '../../src/triton/backends/tensorflow/autocomplete.js';
import { savedModelDir } from '../savedmodel/helpers.js';

const sig = (name: string) => readSavedModelSync(savedModelDir(name));
const ADDSUB = 'savedmodel_int32_int8_int8';
const complete = (config: ModelConfig, model = ADDSUB, defaultMaxBatchSize?: number) =>
  autoCompleteTensorflow(
    { name: 'm', platform: 'tensorflow_savedmodel', backend: 'tensorflow', ...config },
    sig(model),
    defaultMaxBatchSize === undefined ? {} : { defaultMaxBatchSize },
  );

describe('TensorFlow auto-complete', () => {
  it('an empty config: every tensor, max_batch_size 4 and dynamic batching for a batchable signature', () => {
    const r = complete({});
    expect(r.problems).toEqual([]);
    expect(r.config.max_batch_size).toBe(4);
    expect(r.config.dynamic_batching).toEqual({});
    expect(r.config.input?.map((i) => [i.name, i.data_type, i.dims])).toEqual([
      ['INPUT0', 'TYPE_INT32', [16]],
      ['INPUT1', 'TYPE_INT32', [16]],
    ]);
    expect(r.config.output?.map((o) => [o.name, o.data_type, o.dims])).toEqual([
      ['OUTPUT0', 'TYPE_INT8', [16]],
      ['OUTPUT1', 'TYPE_INT8', [16]],
    ]);
  });

  it('default-max-batch-size 0: no batching, the full shapes', () => {
    const r = complete({}, ADDSUB, 0);
    expect(r.config.max_batch_size ?? 0).toBe(0);
    expect(r.config.input?.[0]?.dims).toEqual([-1, 16]);
  });

  it('a listed input keeps its place, the missing one is appended; a listed output is completed, no other added', () => {
    const r = complete({ input: [{ name: 'INPUT1', dims: [16] }], output: [{ name: 'OUTPUT0' }] });
    expect(r.config.input?.map((i) => [i.name, i.data_type, i.dims])).toEqual([
      ['INPUT1', 'TYPE_INT32', [16]],
      ['INPUT0', 'TYPE_INT32', [16]],
    ]);
    expect(r.config.output?.map((o) => [o.name, o.data_type, o.dims])).toEqual([['OUTPUT0', 'TYPE_INT8', [16]]]);
  });

  it('refuses dims that hint at batching and at no batching together', () => {
    const r = complete({
      max_batch_size: 1,
      input: [
        { name: 'INPUT0', data_type: 'TYPE_INT32', dims: [16, 1] },
        { name: 'INPUT1', data_type: 'TYPE_INT32', dims: [16] },
      ],
    });
    expect(r.problems[0]?.message).toBe(
      "unable to autofill for 'm', model tensor configurations are contradicting each other in terms of whether batching is supported",
    );
    expect(r.problems[0]?.path).toEqual(['input', 1, 'dims']);
  });

  it('refuses max_batch_size > 0 on a signature that cannot batch', () => {
    const r = complete({ max_batch_size: 4 }, 'savedmodel_nobatch_images_float32');
    expect(r.problems[0]?.message).toBe("unable to autofill for 'm', configuration specified max-batch 4 but model signature does not support batching");
  });

  it('refuses a signature tensor of a type it cannot serve', () => {
    expect(complete({}, 'savedmodel_complex64').problems[0]?.message).toBe("unable to process input 'INPUT0' for 'm', unsupported datatype 'DT_COMPLEX64'");
  });

  it("refuses to fill in dims of a rank-0 tensor; takes the config's when written", () => {
    expect(complete({}, 'savedmodel_unknown_rank_float32').problems[0]?.message).toBe(
      "Unable to autofill for 'm': the rank of model tensor 'INPUT0' is 0 and dimensions are not defined",
    );
    const ok = complete(
      { input: [{ name: 'INPUT0', data_type: 'TYPE_FP32', dims: [3] }], output: [{ name: 'OUTPUT0', data_type: 'TYPE_FP32', dims: [3] }] },
      'savedmodel_scalar_float32',
    );
    expect(ok.problems).toEqual([]);
    expect(ok.config.max_batch_size ?? 0).toBe(0);
  });

  it('a SavedModel whose parameters name another graph or signature is left alone (tritonc reads serve / serving_default)', () => {
    const param = (key: string, value: string): ModelConfig => ({ platform: 'tensorflow_savedmodel', parameters: { [key]: { string_value: value } } });
    expect(tensorflowAutoCompleteSkipped(param('TF_SIGNATURE_DEF', 'predict'))).toBe(true);
    expect(tensorflowAutoCompleteSkipped(param('TF_GRAPH_TAG', 'gpu'))).toBe(true);
    expect(tensorflowAutoCompleteSkipped(param('TF_SIGNATURE_DEF', 'serving_default'))).toBe(false);
    expect(tensorflowAutoCompleteSkipped(param('TF_GRAPH_TAG', 'serve'))).toBe(false);
  });

  it('a GraphDef is not auto-completed', () => {
    expect(tensorflowAutoCompleteSkipped({ platform: 'tensorflow_graphdef' })).toBe(true);
    expect(tensorflowAutoCompleteSkipped({ platform: 'tensorflow_savedmodel' })).toBe(false);
  });
});

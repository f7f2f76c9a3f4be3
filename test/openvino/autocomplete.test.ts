// The OpenVINO backend's auto-complete (triton/backends/openvino/autocomplete.ts) on the exported IRs: batching
// from the layouts, each side filled only when absent, and the validation of what it wrote.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoCompleteOpenVino } from '../../src/triton/backends/openvino/autocomplete.js';
import { readOpenVinoSync } from '../../src/openvino/index.js';
import { OPENVINO_FIXTURES } from './fixtures.js';

const sig = (m: string) => readOpenVinoSync(join(OPENVINO_FIXTURES, m, '1', 'model.xml'));

describe('autoCompleteOpenVino', () => {
  it('layouts with N: max_batch_size becomes default-max-batch-size (at least 1), dynamic_batching is added', () => {
    const done = autoCompleteOpenVino({ name: 'd' }, sig('openvino_dynamic_batch'), { defaultMaxBatchSize: 0 });
    expect(done.config.max_batch_size).toBe(1);
    expect(done.config.dynamic_batching).toBeUndefined();
    const four = autoCompleteOpenVino({ name: 'd' }, sig('openvino_dynamic_batch'));
    expect(four.config.max_batch_size).toBe(4);
    expect(four.config.dynamic_batching).toEqual({});
    expect(four.config.input?.map((i) => [i.name, i.dims])).toEqual([
      ['Func/PartitionedCall/input/_0:0', [4]],
      ['input1', [4]],
    ]);
    expect(four.problems).toEqual([]);
  });
  it('no layouts and max_batch_size set: a warning only, and only the absent side is filled', () => {
    const done = autoCompleteOpenVino(
      { name: 'p', max_batch_size: 8, output: [{ name: 'OUTPUT0', data_type: 'TYPE_INT8', dims: [16] }] },
      sig('openvino_int8_int8_int8'),
    );
    expect(done.steps.find((s) => s.path[0] === 'max_batch_size')?.reason).toContain(
      'model layout for model p does not support batching while non-zero max_batch_size is specified',
    );
    expect(done.config.input?.map((i) => i.dims)).toEqual([[16], [16]]);
    expect(done.config.output).toHaveLength(1);
    expect(done.problems).toEqual([]);
  });
  it('a dynamic dim makes every auto-completed dim -1, which the backend then refuses against a static output dim', () => {
    const done = autoCompleteOpenVino({ name: 'c' }, sig('openvino_classifier'));
    expect(done.config.input?.map((i) => i.dims)).toEqual([[-1, -1, -1], [-1]]);
    expect(done.problems.map((p) => p.message)).toEqual([
      "model 'c', tensor 'classifier/add:0': the model expects 2 dimensions (shape [4,10]) but the model configuration specifies 2 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [4,-1])",
    ]);
  });
});

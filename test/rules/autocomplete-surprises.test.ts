import { describe, expect, it } from 'vitest';
import { missingDynamicAxis } from '../../src/lint/rules/correctness/missing-dynamic-axis.js';
import { autocompleteSurprises } from '../../src/lint/rules/suspicious/autocomplete-surprises.js';
import type { Rule } from '../../src/lint/rule.js';
import { CLASSIFIER, check, type OnnxSpec } from '../lint/harness.js';
import { testRule } from '../support/rule-tester.js';
import { QA_MODEL_NOBATCH } from './qa-model.js';

const ORT = 'platform: "onnxruntime_onnx"\n';
const IO = 'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
const FULL_IO =
  'input [ { name: "input" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ -1, 1000 ] } ]\n';
const UNBATCHABLE = `max_batch_size: 1\ninput [ { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]\n`;
const SCALARS: OnnxSpec = { inputs: [['x', 'FLOAT', []]], outputs: [['y', 'FLOAT', []]] };
/** The config, with the model file beside it. */
const withModel = (config: string, onnx: OnnxSpec) => ({ files: { 'm/config.pbtxt': config, 'm/1/model.onnx': onnx } });

testRule('autocomplete-surprises', {
  valid: [
    { name: 'a batchable model with max_batch_size and its I/O listed', ...withModel(`${ORT}max_batch_size: 8\n${IO}dynamic_batching { }\n`, CLASSIFIER) },
    { name: 'a config that leaves max_batch_size and I/O to auto-complete (the documented default)', ...withModel(ORT, CLASSIFIER) },
    {
      name: 'an explicit max_batch_size: 0 with inputs and outputs listed means what it says',
      ...withModel(`${ORT}max_batch_size: 0\n${FULL_IO}`, CLASSIFIER),
    },
    { name: 'a model that cannot batch, served with max_batch_size 0', ...withModel(`${ORT}max_batch_size: 0\n`, QA_MODEL_NOBATCH) },
    { name: 'no model file: nothing is guessed about batching', config: `${ORT}max_batch_size: 0\n` },
    // Auto-complete may still raise max_batch_size when there is no model to tell.
    { name: 'dynamic_batching with max_batch_size 0 and no model file', config: `${ORT}dynamic_batching { }\n` },
  ],
  invalid: [
    {
      name: 'an explicit max_batch_size: 0 on a batchable model without both I/O lists is replaced by 4',
      ...withModel(`${ORT}max_batch_size: 0\n`, CLASSIFIER),
      errors: [{ messageId: 'maxBatchSizeZeroReplaced', severity: 'warning', line: 2, token: '0', data: { defaultMaxBatchSize: 4 } }],
      output: null,
    },
    {
      name: 'inputs and outputs listed without max_batch_size: auto-complete is skipped and batching never turned on',
      ...withModel(`${ORT}${FULL_IO}`, CLASSIFIER),
      errors: [{ messageId: 'batchableButNotBatching', severity: 'warning', line: 2, token: 'input', data: { model: 'm' } }],
    },
    {
      name: 'max_batch_size > 0 on a model with a fixed first dimension, when missing-dynamic-axis is off',
      ...withModel(UNBATCHABLE, QA_MODEL_NOBATCH),
      errors: [
        {
          messageId: 'maxBatchSizeUnbatchable',
          severity: 'error',
          token: '1',
          data: { mbs: 1, direction: 'input', name: 'INPUT0', dim: '16', shape: '[16]', model: 'm' },
        },
      ],
    },
    {
      name: 'max_batch_size > 0 on a model with scalar inputs',
      ...withModel('max_batch_size: 1\n', SCALARS),
      errors: [{ messageId: 'maxBatchSizeUnbatchableScalar', severity: 'error', token: '1', data: { mbs: 1, direction: 'input', name: 'x', model: 'm' } }],
    },
    {
      name: 'version_policy {} serves every version',
      config: `${ORT}version_policy { }\n`,
      errors: [{ messageId: 'emptyVersionPolicy', severity: 'warning', token: 'version_policy' }],
    },
    {
      name: 'dynamic_batching with max_batch_size 0 that stays 0: I/O listed',
      ...withModel(`${ORT}max_batch_size: 0\n${FULL_IO}dynamic_batching { }\n`, CLASSIFIER),
      errors: [{ messageId: 'dynamicBatchingWithoutBatching', severity: 'warning', token: 'dynamic_batching' }],
    },
    {
      name: 'dynamic_batching with max_batch_size 0 that stays 0: a model that cannot batch',
      ...withModel(`${ORT}dynamic_batching { }\n`, QA_MODEL_NOBATCH),
      errors: [{ messageId: 'dynamicBatchingWithoutBatching', token: 'dynamic_batching' }],
    },
  ],
});

describe('autocomplete-surprises beside missing-dynamic-axis', () => {
  it('missing-dynamic-axis reports an unbatchable model with max_batch_size > 0; this rule then stays quiet', async () => {
    const run = (rules: Rule[]) => check('autocomplete-surprises', UNBATCHABLE, QA_MODEL_NOBATCH, { rules });
    expect((await run([autocompleteSurprises])).length).toBe(1);
    expect(await run([autocompleteSurprises, missingDynamicAxis])).toEqual([]);
  });
});

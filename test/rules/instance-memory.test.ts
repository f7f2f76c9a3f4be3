import { describe, expect, it } from 'vitest';
import { attr, encodeModel, floatTensor, model as onnxModel, node, tensorInfo } from '../../fixtures/onnx/model-builder.js';
import { lintSync } from '../../src/lint/engine.js';
import { ruleById } from '../../src/lint/rules/index.js';
import { gpuPlacements } from '../../src/triton/normalize.js';
import type { OnnxSpec } from '../lint/harness.js';
import { memoryFiles } from '../support/memory-files.js';
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const MiB = 1024 ** 2;
/** A model with `mib` MiB of FP32 weights. */
const weights = (mib: number): OnnxSpec => ({
  inputs: [['x', 'FLOAT', ['b', 4]]],
  outputs: [['y', 'FLOAT', ['b', 4]]],
  // External data sized by its `length` key: no file needed, so big models cost nothing to hold.
  externalBytes: mib * MiB,
});
const model = (name: string, extra = '') => `name: "${name}"\nmax_batch_size: 8\n${extra}`;
/** Four instances of 744 MiB of weights: 4 x (744 + 256) MiB = 4000 MiB. */
const FOUR = { 'a/config.pbtxt': model('a', 'instance_group { count: 4 }\n'), 'a/1/model.onnx': weights(744) };
/** A model whose weights its backend loads itself (vLLM): one instance at the overhead only. */
const LLM = { 'llm/config.pbtxt': 'backend: "vllm"\ninstance_group [ { kind: KIND_GPU } ]\n', 'llm/1/model.json': '{"model":"x"}' };
const gpu = (o: object) => ({ gpu: o });

// 16 MiB of floats in a Constant node (paddle2onnx, spox exports) rather than an initializer.
const n = 4 * 2 ** 20;
const CONSTANTS = encodeModel(
  onnxModel({
    name: 'constants',
    node: [node('Constant', [], ['k'], [attr.tensor('value', floatTensor('k', [n], new Float32Array(n)))]), node('Add', ['x', 'k'], ['y'])],
    input: [tensorInfo('x', 1, ['b', n])],
    output: [tensorInfo('y', 1, ['b', n])],
  }),
);

testRule('instance-memory', {
  valid: [
    { name: 'four instances fit an A10G', files: FOUR, settings: gpu({ preset: 'A10G' }), targets: ['a'] },
    {
      name: 'gpu.count 0 (a CPU-only server): nothing on GPUs',
      files: { 'a/config.pbtxt': model('a'), 'a/1/model.onnx': weights(1) },
      settings: gpu({ count: 0 }),
      targets: ['a'],
    },
  ],
  invalid: [
    {
      name: 'without a budget: one short info per run, on the first config, about the busiest GPU',
      files: {
        'a/config.pbtxt': model('a', 'instance_group { count: 2 kind: KIND_GPU }\n'),
        'a/1/model.onnx': weights(100),
        'b/config.pbtxt': model('b'),
        'b/1/model.onnx': weights(10),
      },
      targets: ['a', 'b'],
      // 2 x (100 MiB + 256 MiB) + 1 x (10 MiB + 256 MiB) = 978 MiB
      errors: [
        {
          messageId: 'estimate',
          severity: 'info',
          token: '"a"',
          line: 1,
          data: { total: '978 MiB', parts: 'a: 2 x (100 MiB + 256 MiB), b: 1 x (10 MiB + 256 MiB)', gpus: [0], totalBytes: 978 * MiB },
        },
      ],
      output: null,
    },
    {
      name: 'linting one config (pre-commit): the line is on it',
      files: {
        'a/config.pbtxt': model('a', 'instance_group { count: 2 kind: KIND_GPU }\n'),
        'a/1/model.onnx': weights(100),
        'b/config.pbtxt': model('b'),
        'b/1/model.onnx': weights(10),
      },
      targets: ['b'],
      errors: [{ messageId: 'estimate', file: 'b/config.pbtxt', data: { total: '978 MiB' } }],
    },
    {
      name: 'a model whose weights its backend loads itself (vLLM): said, not counted as if it had none',
      files: { 'a/config.pbtxt': model('a'), 'a/1/model.onnx': weights(100), ...LLM },
      targets: ['a'],
      errors: [
        {
          messageId: 'estimateUnsized',
          severity: 'info',
          data: { total: '612 MiB', parts: 'a: 1 x (100 MiB + 256 MiB), llm: 1 x (? + 256 MiB)', unsized: 'llm' },
        },
      ],
    },
    {
      name: 'several GPUs without a budget: the busiest, by id',
      files: {
        'a/config.pbtxt': model('a', 'instance_group [ { count: 2 kind: KIND_GPU gpus: [ 0 ] } ]\n'),
        'a/1/model.onnx': weights(1000),
        'b/config.pbtxt': model('b'),
        'b/1/model.onnx': weights(1000),
      },
      targets: ['a', 'b'],
      settings: gpu({ count: 3 }),
      errors: [{ messageId: 'estimatePerGpu', data: { gpuIds: '0', gpus: [0], total: '3.68 GiB' } }],
    },
    {
      name: 'several GPUs with the same load, and a model without sized weights',
      files: { 'a/config.pbtxt': model('a'), 'a/1/model.onnx': weights(100), ...LLM },
      targets: ['a'],
      settings: gpu({ count: 2 }),
      errors: [{ messageId: 'estimatePerGpuUnsized', data: { gpuIds: '0-1', gpus: [0, 1], unsized: 'llm', total: '612 MiB' } }],
    },
    {
      name: 'above the budget: error on the count of the biggest contributor',
      files: FOUR,
      targets: ['a'],
      settings: gpu({ memory: '3GiB' }),
      errors: [
        {
          messageId: 'overBudget',
          severity: 'error',
          line: 3,
          token: '4',
          data: { total: '3.91 GiB', budget: '3 GiB', percent: 130, parts: 'a: 4 x 1000 MiB', overhead: '256 MiB', budgetBytes: 3 * 1024 * MiB },
        },
      ],
      output: null,
    },
    {
      name: 'a preset budget is named',
      files: { 'a/config.pbtxt': model('a', 'instance_group { count: 4 }\n'), 'a/1/model.onnx': weights(6000) },
      targets: ['a'],
      settings: gpu({ preset: 'A10G' }),
      errors: [{ messageId: 'overBudget', data: { budget: '22.5 GiB (A10G)' } }],
    },
    {
      name: '--gpu-memory (a preset or a size) overrides the settings',
      files: FOUR,
      targets: ['a'],
      settings: gpu({ preset: 'A10G' }),
      options: { gpuMemory: { bytes: 3 * 1024 * MiB, source: '3GiB' } },
      errors: [{ messageId: 'overBudget', severity: 'error', data: { budget: '3 GiB', percent: 130 } }],
    },
    {
      name: 'above 90% of the budget: warning',
      files: FOUR,
      targets: ['a'],
      settings: gpu({ memory: '4300MiB' }),
      errors: [{ messageId: 'nearBudget', severity: 'warning', data: { total: '3.91 GiB', budget: '4.2 GiB', percent: 93, parts: 'a: 4 x 1000 MiB' } }],
    },
    {
      name: 'places groups per GPU: gpus lists, KIND_CPU, several GPUs; equal GPUs share one finding',
      files: {
        'a/config.pbtxt': model('a', 'instance_group [ { count: 2 kind: KIND_GPU gpus: [ 0 ] }, { count: 4 kind: KIND_CPU } ]\n'),
        'a/1/model.onnx': weights(1000),
        'b/config.pbtxt': model('b'),
        'b/1/model.onnx': weights(1000),
      },
      targets: ['a', 'b'],
      settings: gpu({ memory: '4GiB', count: 3 }),
      // GPU 0: a 2 x 1256 + b 1 x 1256 = 3768 MiB (warning, > 90% of 4096); GPUs 1-2: b only (fine).
      errors: [
        {
          messageId: 'nearBudgetPerGpu',
          severity: 'warning',
          data: { gpuIds: '0', total: '3.68 GiB', budget: '4 GiB', percent: 92, parts: 'a: 2 x 1.23 GiB, b: 1 x 1.23 GiB' },
        },
      ],
    },
    {
      name: 'over the budget on each of several GPUs',
      files: FOUR,
      targets: ['a'],
      settings: gpu({ memory: '3GiB', count: 2 }),
      errors: [{ messageId: 'overBudgetPerGpu', severity: 'error', data: { gpuIds: '0-1', gpus: [0, 1], percent: 130 } }],
    },
    {
      name: 'over the budget with a model whose weights are unknown (counted at the overhead)',
      files: { ...FOUR, ...LLM },
      targets: ['a'],
      settings: gpu({ memory: '3GiB' }),
      // 4000 MiB + 256 MiB
      errors: [
        { messageId: 'overBudgetUnknownWeights', severity: 'error', data: { unknown: 1, total: '4.16 GiB', parts: 'a: 4 x 1000 MiB, llm: 1 x 256 MiB' } },
      ],
    },
    {
      name: 'over the budget on several GPUs with a model whose weights are unknown',
      files: { ...FOUR, ...LLM },
      targets: ['a'],
      settings: gpu({ memory: '3GiB', count: 2 }),
      errors: [{ messageId: 'overBudgetPerGpuUnknownWeights', data: { unknown: 1, gpuIds: '0-1' } }],
    },
    {
      name: 'near the budget with a model whose weights are unknown',
      files: { ...FOUR, ...LLM },
      targets: ['a'],
      settings: gpu({ memory: '4600MiB' }),
      errors: [{ messageId: 'nearBudgetUnknownWeights', severity: 'warning', data: { unknown: 1, percent: 93 } }],
    },
    {
      name: 'near the budget on several GPUs with a model whose weights are unknown',
      files: { ...FOUR, ...LLM },
      targets: ['a'],
      settings: gpu({ memory: '4600MiB', count: 2 }),
      errors: [{ messageId: 'nearBudgetPerGpuUnknownWeights', severity: 'warning', data: { unknown: 1, gpuIds: '0-1' } }],
    },
    {
      name: 'halves FP32 weights under a TensorRT FP16 precision_mode',
      files: {
        'a/config.pbtxt': model(
          'a',
          'optimization { execution_accelerators { gpu_execution_accelerator [ { name: "tensorrt" parameters { key: "precision_mode" value: "FP16" } } ] } }\n',
        ),
        'a/1/model.onnx': weights(512),
      },
      targets: ['a'],
      settings: gpu({ memory: '520MiB' }),
      // 512 MiB of FP32 weights are 256 MiB in the engine, plus 256 MiB per instance.
      errors: [{ messageId: 'nearBudget', data: { parts: 'a: 1 x 512 MiB' } }],
    },
    {
      name: 'counts models whose config is not linted, but reports only on linted configs',
      files: {
        'a/config.pbtxt': model('a'),
        'a/1/model.onnx': weights(1),
        'big/config.pbtxt': model('big', 'instance_group { count: 8 }\n'),
        'big/1/model.onnx': weights(1000),
      },
      targets: ['a/config.pbtxt'],
      settings: gpu({ memory: '8GiB' }),
      errors: [{ messageId: 'overBudget', severity: 'error', file: 'a/config.pbtxt', data: { parts: 'big: 8 x 1.23 GiB, a: 1 x 257 MiB' } }],
    },
    {
      name: 'weights in Constant nodes count like initializers',
      files: { 'c/config.pbtxt': model('c'), 'c/1/model.onnx': CONSTANTS },
      targets: ['c'],
      settings: gpu({ memory: '280MiB' }),
      // 16 MiB of weights + 256 MiB per instance = 272 MiB of a 280 MiB budget.
      errors: [{ messageId: 'nearBudget', data: { parts: 'c: 1 x 272 MiB' } }],
    },
  ],
});

describe('instance-memory', () => {
  it('lints only the config it is given', () => {
    const files = { 'a/config.pbtxt': model('a'), 'big/config.pbtxt': model('big') };
    const run = lintSync([`${MEMORY_ROOT}/a/config.pbtxt`], {
      cwd: MEMORY_ROOT,
      files: memoryFiles(MEMORY_ROOT, files),
      rules: [ruleById('instance-memory')!],
    });
    expect(run.results.map((r) => r.filePath)).toEqual([`${MEMORY_ROOT}/a/config.pbtxt`]);
  });

  it("gpuPlacements follows Triton's instance group normalization", () => {
    expect(gpuPlacements({}, 2)).toEqual([{ group: -1, instances: 1, gpus: [0, 1] }]);
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_GPU', count: 0 }] }, 1)).toEqual([{ group: 0, instances: 1, gpus: [0] }]);
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_AUTO', gpus: [5] }] }, 2)).toEqual([]); // becomes KIND_CPU
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_MODEL' }, { kind: 'KIND_CPU', count: 2 }] }, 2)).toEqual([]);
    expect(gpuPlacements({ instance_group: [{ count: 3, gpus: [1] }] }, 2)).toEqual([{ group: 0, instances: 3, gpus: [1] }]);
  });
});

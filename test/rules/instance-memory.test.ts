import { attr, floatTensor, model as onnxModel, node, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findings, lintDir, writeRepo, type OnnxSpec } from '../lint/harness.js';
import { gpuPlacements } from '../../src/triton/normalize.js';

const MiB = 1024 ** 2;
/** A model with `mib` MiB of FP32 weights. */
const weights = (mib: number): OnnxSpec => ({
  inputs: [['x', 'FLOAT', ['b', 4]]],
  outputs: [['y', 'FLOAT', ['b', 4]]],
  // External data sized by its `length` key: no file needed, so big models cost nothing to write.
  externalBytes: mib * MiB,
});
const model = (name: string, extra = '') => `name: "${name}"\nmax_batch_size: 8\n${extra}`;
const settings = (o: object) => JSON.stringify(o);

describe('instance-memory', () => {
  it('without a budget: one short info per run, on the first config, about the busiest GPU', async () => {
    const dir = await writeRepo({
      'a/config.pbtxt': model('a', 'instance_group { count: 2 kind: KIND_GPU }\n'),
      'a/1/model.onnx': weights(100),
      'b/config.pbtxt': model('b'),
      'b/1/model.onnx': weights(10),
    });
    const f = findings(lintDir(dir), 'instance-memory', dir, { 'a/config.pbtxt': model('a', 'instance_group { count: 2 kind: KIND_GPU }\n') });
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ file: 'a/config.pbtxt', severity: 'info', token: '"a"' });
    // 2 x (100 MiB + 256 MiB) + 1 x (10 MiB + 256 MiB) = 978 MiB
    expect(f[0]!.message).toBe('estimated GPU memory: 978 MiB on the GPU (a: 2 x (100 MiB of weights + 256 MiB per-instance overhead), b: 1 x (10 MiB of weights + 256 MiB per-instance overhead)); set a budget to check it (--gpu-memory 24GiB, or "gpu": { "preset": "A10G" } in tritonc.config.json)');
    // Linting one config (pre-commit): the line is on it.
    const grown = findings(lintDir(dir, ['b']), 'instance-memory', dir);
    expect(grown.map((x) => x.file)).toEqual(['b/config.pbtxt']);
    // A model whose weights its backend loads itself (vLLM): said, not counted as if it had none.
    await writeRepo({ 'llm/config.pbtxt': 'backend: "vllm"\ninstance_group [ { kind: KIND_GPU } ]\n', 'llm/1/model.json': '{"model":"x"}' }, dir);
    const withLlm = findings(lintDir(dir, ['a']), 'instance-memory', dir);
    expect(withLlm[0]!.message).toContain('without the weights of llm, which their backends load themselves');
  });

  it('error above the budget, warning above 90% of it', async () => {
    const files = {
      'a/config.pbtxt': model('a', 'instance_group { count: 4 }\n'),
      'a/1/model.onnx': weights(744), // 4 x (744 + 256) MiB = 4000 MiB
    };
    const over = await writeRepo({ ...files, 'tritonc.config.json': settings({ gpu: { memory: '3GiB' } }) });
    const [e] = findings(lintDir(over), 'instance-memory');
    expect(e!.severity).toBe('error');
    expect(e!.message).toContain('estimated memory on the GPU: 3.91 GiB of 3 GiB (130%)');
    expect(e!.message).toContain('Lower instance_group count');
    const near = await writeRepo({ ...files, 'tritonc.config.json': settings({ gpu: { memory: '4300MiB' } }) });
    expect(findings(lintDir(near), 'instance-memory')[0]!.severity).toBe('warning');
    const fits = await writeRepo({ ...files, 'tritonc.config.json': settings({ gpu: { preset: 'A10G' } }) });
    expect(findings(lintDir(fits), 'instance-memory')).toEqual([]);
  });

  it('--gpu-memory (a preset or a size) overrides the settings', async () => {
    const dir = await writeRepo({ 'a/config.pbtxt': model('a', 'instance_group { count: 4 }\n'), 'a/1/model.onnx': weights(744) });
    expect(findings(lintDir(dir, ['.'], { gpuMemory: { bytes: 3 * 1024 * MiB, source: '3GiB' } }), 'instance-memory')[0]!.severity).toBe('error');
  });

  it('places groups per GPU: gpus lists, KIND_CPU, several GPUs; equal GPUs share one finding', async () => {
    const a = model('a', 'instance_group [ { count: 2 kind: KIND_GPU gpus: [ 0 ] }, { count: 4 kind: KIND_CPU } ]\n');
    const dir = await writeRepo({
      'a/config.pbtxt': a,
      'a/1/model.onnx': weights(1000),
      'b/config.pbtxt': model('b'),
      'b/1/model.onnx': weights(1000),
      'tritonc.config.json': settings({ gpu: { memory: '4GiB', count: 3 } }),
    });
    const f = findings(lintDir(dir), 'instance-memory', dir);
    // GPU 0: a 2 x 1256 + b 1 x 1256 = 3768 MiB (warning, > 90% of 4096); GPUs 1-2: b only (fine).
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', file: 'a/config.pbtxt' });
    expect(f[0]!.message).toContain('estimated memory on GPU 0: 3.68 GiB of 4 GiB (92%)');
  });

  it('halves FP32 weights under a TensorRT FP16 precision_mode', async () => {
    const trt = 'optimization { execution_accelerators { gpu_execution_accelerator [ { name: "tensorrt" parameters { key: "precision_mode" value: "FP16" } } ] } }\n';
    const dir = await writeRepo({ 'a/config.pbtxt': model('a', trt), 'a/1/model.onnx': weights(512), 'tritonc.config.json': settings({ gpu: { memory: '520MiB' } }) });
    // 512 MiB of FP32 weights are 256 MiB in the engine, plus 256 MiB per instance.
    expect(findings(lintDir(dir), 'instance-memory')[0]!.message).toContain('a: 1 instance x 512 MiB');
  });

  it('counts models whose config is not linted, but reports only on linted configs', async () => {
    const dir = await writeRepo({
      'a/config.pbtxt': model('a'),
      'a/1/model.onnx': weights(1),
      'big/config.pbtxt': model('big', 'instance_group { count: 8 }\n'),
      'big/1/model.onnx': weights(1000),
      'tritonc.config.json': settings({ gpu: { memory: '8GiB' } }),
    });
    const onlyA = lintDir(dir, ['a/config.pbtxt']);
    const [f] = findings(onlyA, 'instance-memory', dir);
    expect(f).toMatchObject({ file: 'a/config.pbtxt', severity: 'error' });
    expect(f!.message).toContain('big: 8 instances x 1.23 GiB');
    expect(onlyA.results.map((r) => r.filePath)).toEqual([join(dir, 'a/config.pbtxt')]);
  });

  it('gpu.count 0 (a CPU-only server): nothing on GPUs', async () => {
    const dir = await writeRepo({ 'a/config.pbtxt': model('a'), 'a/1/model.onnx': weights(1), 'tritonc.config.json': settings({ gpu: { count: 0 } }) });
    expect(findings(lintDir(dir), 'instance-memory')).toEqual([]);
  });

  it('gpuPlacements follows Triton\'s instance group normalization', () => {
    expect(gpuPlacements({}, 2)).toEqual([{ group: -1, instances: 1, gpus: [0, 1] }]);
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_GPU', count: 0 }] }, 1)).toEqual([{ group: 0, instances: 1, gpus: [0] }]);
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_AUTO', gpus: [5] }] }, 2)).toEqual([]); // becomes KIND_CPU
    expect(gpuPlacements({ instance_group: [{ kind: 'KIND_MODEL' }, { kind: 'KIND_CPU', count: 2 }] }, 2)).toEqual([]);
    expect(gpuPlacements({ instance_group: [{ count: 3, gpus: [1] }] }, 2)).toEqual([{ group: 0, instances: 3, gpus: [1] }]);
  });
});

describe('instance-memory: weights in Constant nodes (paddle2onnx, spox exports)', () => {
  it('count like initializers', async () => {
    const n = 4 * 2 ** 20; // 16 MiB of floats
    const dir = await writeRepo({ 'c/config.pbtxt': model('c'), 'tritonc.config.json': settings({ gpu: { memory: '280MiB' } }) });
    await writeModel(
      join(dir, 'c', '1', 'model.onnx'),
      onnxModel({
        name: 'constants',
        node: [node('Constant', [], ['k'], [attr.tensor('value', floatTensor('k', [n], new Float32Array(n)))]), node('Add', ['x', 'k'], ['y'])],
        input: [tensorInfo('x', 1, ['b', n])],
        output: [tensorInfo('y', 1, ['b', n])],
      }),
    );
    const [f] = findings(lintDir(dir), 'instance-memory');
    // 16 MiB of weights + 256 MiB per instance = 272 MiB of a 280 MiB budget.
    expect(f!.message).toContain('c: 1 instance x 272 MiB');
  });
});

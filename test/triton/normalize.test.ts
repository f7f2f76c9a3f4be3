// core's NormalizeModelConfig, NormalizeInstanceGroup and the host-dependent ValidateInstanceGroup rows
// (core src/model_config_utils.cc).
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/model-config.js';
import { instanceGroupProblem, normalizeInstanceGroup, normalizeModelConfig } from '../../src/triton/normalize.js';

const PINNED = { input_pinned_memory: { enable: true }, output_pinned_memory: { enable: true } };

describe('normalizeModelConfig', () => {
  it('defaults: latest one version, pinned memory on both sides', () => {
    const r = normalizeModelConfig({ name: 'm' });
    expect(r.config).toEqual({ name: 'm', version_policy: { latest: { num_versions: 1 } }, optimization: PINNED });
    expect(r.steps.map((s) => s.path.join('.'))).toEqual(['version_policy', 'optimization.input_pinned_memory', 'optimization.output_pinned_memory']);
  });

  it('keeps what is written: a version policy, a pinned-memory setting (even enable: false), other optimization fields', () => {
    const r = normalizeModelConfig({ version_policy: { all: {} }, optimization: { input_pinned_memory: { enable: false }, graph: { level: 1 } } });
    expect(r.config.version_policy).toEqual({ all: {} });
    expect(r.config.optimization).toEqual({ input_pinned_memory: { enable: false }, graph: { level: 1 }, output_pinned_memory: { enable: true } });
  });

  it('dynamic_batching without preferred sizes prefers max_batch_size; not when max_batch_size is 0; given sizes stay', () => {
    expect(normalizeModelConfig({ max_batch_size: 8, dynamic_batching: {} }).config.dynamic_batching).toEqual({ preferred_batch_size: [8] });
    expect(normalizeModelConfig({ dynamic_batching: {} }).config.dynamic_batching).toEqual({});
    expect(normalizeModelConfig({ max_batch_size: 8, dynamic_batching: { preferred_batch_size: [2, 4] } }).config.dynamic_batching).toEqual({
      preferred_batch_size: [2, 4],
    });
  });

  it('sequence batching: idle time defaults to 1 s, oldest prefers max_batch_size, direct gets nothing', () => {
    expect(normalizeModelConfig({ max_batch_size: 4, sequence_batching: { oldest: {} } }).config.sequence_batching).toEqual({
      oldest: { preferred_batch_size: [4] },
      max_sequence_idle_microseconds: 1_000_000,
    });
    expect(normalizeModelConfig({ max_batch_size: 4, sequence_batching: { direct: {}, max_sequence_idle_microseconds: 5 } }).config.sequence_batching).toEqual({
      direct: {},
      max_sequence_idle_microseconds: 5,
    });
  });

  it('ensembles (ensemble_scheduling present) get no optimization block', () => {
    const r = normalizeModelConfig({ platform: 'ensemble', ensemble_scheduling: { step: [] } });
    expect(r.config.optimization).toBeUndefined();
    expect(r.config.version_policy).toEqual({ latest: { num_versions: 1 } });
  });

  it('the second pass labels its steps as coming after auto-complete', () => {
    const r = normalizeModelConfig(
      { max_batch_size: 4, dynamic_batching: {}, version_policy: { latest: { num_versions: 1 } }, optimization: PINNED },
      'after auto-complete',
    );
    expect(r.steps).toHaveLength(1);
    expect(r.steps[0]!.reason).toContain('after the backend auto-completed');
  });
});

const ort = (groups?: ModelConfig['instance_group']): ModelConfig => ({ name: 'm', backend: 'onnxruntime', ...(groups ? { instance_group: groups } : {}) });

describe('normalizeInstanceGroup', () => {
  it('no groups: one named after the model; KIND_AUTO becomes KIND_CPU with 2 ONNX Runtime instances on a CPU host', () => {
    expect(normalizeInstanceGroup(ort(), 0).config.instance_group).toEqual([{ name: 'm', kind: 'KIND_CPU', count: 2 }]);
  });

  it('on a GPU host KIND_AUTO becomes KIND_GPU on every GPU with 1 instance', () => {
    expect(normalizeInstanceGroup(ort(), 2).config.instance_group).toEqual([{ name: 'm', kind: 'KIND_GPU', count: 1, gpus: [0, 1] }]);
  });

  it('names unnamed groups <model>_<index>, counting named groups too', () => {
    const r = normalizeInstanceGroup(ort([{ name: 'a', kind: 'KIND_CPU' }, { kind: 'KIND_CPU' }]), 0);
    expect(r.config.instance_group!.map((g) => g.name)).toEqual(['a', 'm_1']);
  });

  it('count < 1 (0 or negative) takes the default: 2 for KIND_CPU of onnxruntime/tensorflow, else 1', () => {
    expect(normalizeInstanceGroup(ort([{ kind: 'KIND_CPU', count: -3 }]), 0).config.instance_group![0]!.count).toBe(2);
    expect(normalizeInstanceGroup({ name: 'm', backend: 'tensorflow', instance_group: [{ kind: 'KIND_CPU' }] }, 0).config.instance_group![0]!.count).toBe(2);
    expect(normalizeInstanceGroup({ name: 'm', backend: 'python', instance_group: [{ kind: 'KIND_CPU' }] }, 0).config.instance_group![0]!.count).toBe(1);
    expect(normalizeInstanceGroup(ort([{ kind: 'KIND_GPU' }]), 1).config.instance_group![0]).toEqual({ name: 'm_0', kind: 'KIND_GPU', count: 1, gpus: [0] });
    expect(normalizeInstanceGroup(ort([{ kind: 'KIND_CPU', count: 3 }]), 0).config.instance_group![0]!.count).toBe(3);
  });

  it('KIND_AUTO listing a GPU the host lacks becomes KIND_CPU and keeps its gpus (which validation then refuses)', () => {
    const r = normalizeInstanceGroup(ort([{ gpus: [1] }]), 1);
    expect(r.config.instance_group).toEqual([{ name: 'm_0', gpus: [1], kind: 'KIND_CPU', count: 2 }]);
    expect(instanceGroupProblem(r.config, 1)?.message).toBe('instance group m_0 of model m has kind KIND_CPU but specifies one or more GPUs');
    expect(normalizeInstanceGroup(ort([{ gpus: [1] }]), 2).config.instance_group![0]!.kind).toBe('KIND_GPU');
  });

  it('leaves ensembles alone', () => {
    const ens: ModelConfig = { name: 'e', platform: 'ensemble', ensemble_scheduling: {} };
    expect(normalizeInstanceGroup(ens, 1)).toEqual({ config: ens, steps: [] });
    expect(instanceGroupProblem(ens, 0)).toBeUndefined();
  });
});

describe('instanceGroupProblem', () => {
  const normalized = (groups: ModelConfig['instance_group'], gpus: number) => normalizeInstanceGroup(ort(groups), gpus).config;

  it("KIND_GPU on a host without GPUs: Triton's message, and the fix names --gpus", () => {
    const p = instanceGroupProblem(normalized([{ kind: 'KIND_GPU' }], 0), 0);
    expect(p).toMatchObject({ stage: 'instance_group', message: 'instance group m_0 of model m has kind KIND_GPU but no GPUs are available' });
    expect(p!.fix).toContain('--gpus');
  });

  it('a GPU id the host lacks', () => {
    expect(instanceGroupProblem(normalized([{ kind: 'KIND_GPU', gpus: [0, 3] }], 2), 2)?.message).toBe(
      'instance group m_0 of model m specifies invalid or unsupported gpu id 3. GPUs with at least the minimum required CUDA compute compatibility of 6.000000 are: 0, 1',
    );
  });

  it('KIND_MODEL with gpus; and nothing for valid groups', () => {
    expect(instanceGroupProblem(normalized([{ kind: 'KIND_MODEL', gpus: [0] }], 1), 1)?.message).toBe(
      'instance group m_0 of model m has kind KIND_MODEL but specifies one or more GPUs',
    );
    expect(instanceGroupProblem(normalized([{ kind: 'KIND_GPU', gpus: [1] }, { kind: 'KIND_CPU' }], 2), 2)).toBeUndefined();
  });
});

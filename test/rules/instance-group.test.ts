import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';
import { findingsOf, testRule } from '../support/rule-tester.js';

const ORT = 'backend: "onnxruntime"\nmax_batch_size: 8\n';
/** A model directory with a version, so the platform is no guess. */
const versioned = (config: string) => ({ files: { 'm/config.pbtxt': config, 'm/1/model.onnx': new Uint8Array([8, 8]) } });
const NO_GPU = { gpu: { count: 0 } };

testRule('instance-group', {
  valid: [
    { name: 'GPU groups with ids', config: `${ORT}instance_group [ { kind: KIND_GPU count: 2 gpus: [ 0, 1 ] } ]\n` },
    { name: 'a CPU group', config: `${ORT}instance_group [ { kind: KIND_CPU count: 4 } ]\n` },
    { name: 'KIND_MODEL without gpus', config: `${ORT}instance_group [ { kind: KIND_MODEL } ]\n` },
    { name: 'an automatic group', config: `${ORT}instance_group [ { count: 1 } ]\n` },
    { name: 'profile on a TensorRT model', config: 'platform: "tensorrt_plan"\ninstance_group [ { kind: KIND_GPU profile: [ "0", "1" ] } ]\n' },
    {
      name: 'profile on a model that is TensorRT by its model.plan file',
      files: { 'm/config.pbtxt': 'instance_group [ { profile: [ "0" ] } ]\n', 'm/1/model.plan': '' },
    },
    { name: 'a GPU id within the --gpus count', ...versioned(`${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, 3 ] } ]\n`), options: { gpuCount: 4 } },
    // Without a count: 3 may well exist.
    { name: 'a GPU id any server may have, without a count', ...versioned(`${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, 3 ] } ]\n`) },
  ],
  invalid: [
    {
      name: 'KIND_CPU with gpus: points at the first id, names the group as Triton does',
      config: `${ORT}instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]\n`,
      errors: [
        {
          messageId: 'gpusOnCpuGroup',
          severity: 'error',
          line: 3,
          token: '0',
          path: ['instance_group', 0, 'gpus', 0],
          data: { group: 'm_0', model: 'm', kind: 'KIND_CPU', gpus: [0] },
        },
      ],
      output: null,
    },
    {
      name: 'KIND_MODEL with gpus, in a named group',
      config: `${ORT}instance_group [ { name: "g" kind: KIND_MODEL gpus: [ 1 ] } ]\n`,
      errors: [{ messageId: 'gpusOnModelGroup', token: '1', data: { group: 'g', model: 'm', kind: 'KIND_MODEL' } }],
    },
    {
      name: 'a negative GPU id in a KIND_GPU group',
      config: `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, -1 ] } ]\n`,
      errors: [{ messageId: 'unknownGpuId', severity: 'error', token: '-1', data: { group: 'm_0', model: 'm', id: -1, cc: '6.000000', ids: '0' } }],
    },
    {
      name: 'a negative GPU id in a KIND_AUTO group, which becomes KIND_CPU',
      config: `${ORT}instance_group [ { gpus: [ -1 ] } ]\n`,
      errors: [{ messageId: 'unknownGpuIdAuto', token: '-1', data: { group: 'm_0', model: 'm', id: -1, kind: 'KIND_AUTO' } }],
    },
    {
      name: 'profile outside TensorRT, with a known platform: error',
      config: `${ORT}instance_group [ { profile: [ "0" ] } ]\n`,
      errors: [{ messageId: 'profileNotTensorrt', severity: 'error', token: '"0"', data: { group: 'm_0', model: 'm', platform: 'onnxruntime_onnx' } }],
    },
    {
      name: 'profile on a model without a platform (python)',
      config: 'backend: "python"\ninstance_group [ { profile: [ "0" ] } ]\n',
      errors: [{ messageId: 'profileNotTensorrtNoPlatform', severity: 'error', token: '"0"', data: { platform: '' } }],
    },
    {
      name: 'profile when no version directory tells the platform: warning',
      config: 'instance_group [ { profile: [ "0" ] } ]\n',
      errors: [{ messageId: 'profileNotTensorrtGuessed', severity: 'warning', data: { platform: '' } }],
    },
    {
      name: 'TensorRT profiles that are not non-negative integers',
      config: 'platform: "tensorrt_plan"\ninstance_group [ { profile: [ "", "max", "-1", "2x" ] } ]\n',
      errors: [
        { messageId: 'profileEmpty', token: '""', data: { profile: '', profileText: '""' } },
        { messageId: 'profileNotIndex', token: '"max"', data: { profile: 'max', profileText: '"max"' } },
        { messageId: 'profileNegative', token: '"-1"', data: { group: 'm_0', model: 'm', platform: 'tensorrt_plan', profile: '-1' } },
      ],
    },
    {
      name: 'count below 1 on a CPU group silently becomes the default: warning with the default',
      config: `${ORT}instance_group [ { kind: KIND_CPU count: 0 } ]\n`,
      errors: [{ messageId: 'countNotPositive', severity: 'warning', token: '0', data: { count: 0, dflt: 2 } }],
    },
    {
      name: 'count below 1 on a GPU group',
      config: 'backend: "python"\ninstance_group [ { kind: KIND_GPU count: -1 } ]\n',
      errors: [{ messageId: 'countNotPositiveGpu', severity: 'warning', token: '-1', data: { count: -1 } }],
    },
    {
      name: 'count below 1 on an automatic group',
      config: `${ORT}instance_group [ { count: 0 } ]\n`,
      errors: [{ messageId: 'countNotPositiveAuto', severity: 'warning', token: '0', data: { count: 0, dflt: 2 } }],
    },
    {
      name: 'every group passive: warning',
      config: `${ORT}instance_group [ { passive: true } ]\n`,
      errors: [{ messageId: 'allGroupsPassive', severity: 'warning', token: 'true' }],
    },
    {
      name: 'a CPU-only server in the settings (gpu.count 0) refuses KIND_GPU',
      config: `${ORT}instance_group [ { kind: KIND_GPU } ]\n`,
      settings: NO_GPU,
      errors: [
        { messageId: 'gpuGroupWithoutGpus', severity: 'error', token: 'KIND_GPU', data: { group: 'm_0', model: 'm', kind: 'KIND_GPU', source: 'gpu.count' } },
      ],
    },
    {
      name: 'a CPU-only server refuses a KIND_GPU group listing GPUs',
      config: `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0 ] } ]\n`,
      settings: NO_GPU,
      errors: [{ messageId: 'gpuGroupWithoutGpusListed', token: '0', data: { id: 0, cc: '6.000000' } }],
    },
    {
      name: 'a CPU-only server refuses a KIND_AUTO group listing GPUs (it becomes KIND_CPU)',
      config: `${ORT}instance_group [ { gpus: [ 0 ] } ]\n`,
      settings: NO_GPU,
      errors: [{ messageId: 'gpuGroupWithoutGpusAuto', token: '0', data: { kind: 'KIND_AUTO' } }],
    },
    {
      name: "a GPU id past the servers' count given with --gpus: an error, as resolve refuses it",
      ...versioned(`${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, 3 ] } ]\n`),
      options: { gpuCount: 1 },
      errors: [{ messageId: 'gpuIdBeyondCount', severity: 'error', token: '3', data: { id: 3, count: 1, ids: '0', source: '--gpus', cc: '6.000000' } }],
    },
    {
      name: "a GPU id past the servers' count in gpu.count, in an automatic group",
      ...versioned(`${ORT}instance_group [ { gpus: [ 2 ] } ]\n`),
      settings: { gpu: { count: 2 } },
      errors: [{ messageId: 'gpuIdBeyondCountAuto', severity: 'error', token: '2', data: { id: 2, count: 2, ids: '0, 1', source: 'gpu.count' } }],
    },
    {
      // 42: Triton's own invalid_gpu fixture, a GPU no server has.
      name: "a GPU id past any server's, without a count: a warning",
      ...versioned(`${ORT}instance_group [ { kind: KIND_GPU gpus: [ 42 ] } ]\n`),
      errors: [{ messageId: 'gpuIdBeyondAnyServer', severity: 'warning', token: '42', data: { id: 42, count: 1, ids: '0', maxGpus: 16 } }],
    },
    {
      name: "a GPU id past any server's, without a count, in an automatic group",
      ...versioned(`${ORT}instance_group [ { gpus: [ 42 ] } ]\n`),
      errors: [{ messageId: 'gpuIdBeyondAnyServerAuto', severity: 'warning', token: '42', data: { id: 42, maxGpus: 16 } }],
    },
  ],
});

describe('instance-group and resolve', () => {
  it('resolve refuses a GPU id past the --gpus count, as the rule does', async () => {
    const dir = await writeRepo({ 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, 3 ] } ]\n`, 'm/1/model.onnx': new Uint8Array([8, 8]) });
    const resolved = await cli(['resolve', 'm', '--gpus', '1'], { cwd: dir });
    expect(resolved.code).toBe(1);
    expect(resolved.stderr + resolved.stdout).toContain('specifies invalid or unsupported gpu id 3');
  });

  it('without a GPU count, lint and resolve assume the same host: gpus [1] loads for both (triton/gpu-count.ts)', async () => {
    const dir = await writeRepo({ 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 1 ] } ]\n`, 'm/1/model.onnx': CLASSIFIER });
    const linted = await cli(['lint', 'm', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(linted.stdout)[0].messages.filter((m: { ruleId: string }) => m.ruleId === 'instance-group')).toEqual([]);
    const resolved = await cli(['resolve', 'm', '--format', 'json'], { cwd: dir });
    expect(resolved.stderr).toBe('');
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout).instance_group[0].gpus).toEqual([1]);
    // A count given is a fact for both: id 1 on a one-GPU host is refused by each.
    expect((await cli(['resolve', 'm', '--gpus', '1'], { cwd: dir })).code).toBe(1);
    expect((await cli(['lint', 'm', '--gpus', '1'], { cwd: dir })).code).toBe(1);
  });
});

describe("instance-group quotes Triton's message as Triton prints it", () => {
  it('the compute capability and the GPU ids are filled, never a literal <cc> or <ids> (core ValidateInstanceGroup: std::to_string(6.0))', () => {
    const found = findingsOf('instance-group', {
      name: 'a negative id and one past the count',
      files: { 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU gpus: [ -1 ] }, { kind: KIND_GPU gpus: [ 3 ] } ]\n`, 'm/1/model.onnx': '' },
      options: { gpuCount: 2 },
    });
    expect(found.map((d) => d.messageId)).toEqual(['unknownGpuId', 'gpuIdBeyondCount']);
    for (const d of found) {
      expect(d.message).not.toMatch(/<cc>|<ids>/);
      expect(d.message).toContain('minimum required CUDA compute compatibility of 6.000000 are: 0, 1');
    }
  });
});

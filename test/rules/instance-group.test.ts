import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import { lintSync } from '../../src/lint/engine.js';
import { writeRepo, findings } from '../lint/harness.js';
import { lintConfig, lintFiles, ruleOf } from './core-support.js';

const ID = 'instance-group';
const ORT = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['GPU groups with ids', 'instance_group [ { kind: KIND_GPU count: 2 gpus: [ 0, 1 ] } ]'],
      ['a CPU group', 'instance_group [ { kind: KIND_CPU count: 4 } ]'],
      ['KIND_MODEL without gpus', 'instance_group [ { kind: KIND_MODEL } ]'],
      ['an automatic group', 'instance_group [ { count: 1 } ]'],
    ])('%s', async (_, groups) => {
      expect(await lintConfig(ID, `${ORT}${groups}\n`)).toEqual([]);
    });
    it('profile on a TensorRT model', async () => {
      expect(await lintConfig(ID, 'platform: "tensorrt_plan"\ninstance_group [ { kind: KIND_GPU profile: [ "0", "1" ] } ]\n')).toEqual([]);
    });
    it('profile on a model that is TensorRT by its model.plan file', async () => {
      expect(await lintFiles(ID, { 'm/config.pbtxt': 'instance_group [ { profile: [ "0" ] } ]\n', 'm/1/model.plan': '' })).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('KIND_CPU with gpus: points at the first id, names the group as Triton does', async () => {
      const [f, ...rest] = await lintConfig(ID, `${ORT}instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]\n`);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 3, token: '0' });
      expect(f!.message).toBe(
        `a KIND_CPU group runs on the CPU and may not list GPUs, so Triton refuses the model ("instance group m_0 of model m has kind KIND_CPU but specifies one or more GPUs"); remove gpus, or use kind: KIND_GPU`,
      );
    });
    it('KIND_MODEL with gpus, in a named group', async () => {
      const [f] = await lintConfig(ID, `${ORT}instance_group [ { name: "g" kind: KIND_MODEL gpus: [ 1 ] } ]\n`);
      expect(f!.message).toContain('("instance group g of model m has kind KIND_MODEL but specifies one or more GPUs")');
    });
    it('a negative GPU id: KIND_GPU, and KIND_AUTO (which becomes KIND_CPU)', async () => {
      const [gpu] = await lintConfig(ID, `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, -1 ] } ]\n`);
      expect(gpu).toMatchObject({ token: '-1' });
      expect(gpu!.message).toContain('("instance group m_0 of model m specifies invalid or unsupported gpu id -1. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: <ids>")');
      const [auto] = await lintConfig(ID, `${ORT}instance_group [ { gpus: [ -1 ] } ]\n`);
      expect(auto!.message).toContain('turns this KIND_AUTO group into KIND_CPU');
      expect(auto!.message).toContain('has kind KIND_CPU but specifies one or more GPUs');
    });
    it('profile outside TensorRT: error with a known platform, warning when no version directory tells', async () => {
      const [f] = await lintConfig(ID, `${ORT}instance_group [ { profile: [ "0" ] } ]\n`);
      expect(f).toMatchObject({ severity: 'error', token: '"0"' });
      expect(f!.message).toContain('("instance group m_0 of model m and platform onnxruntime_onnxspecifies profile field which is only supported for TensorRT models"); remove profile');
      const [g] = await lintConfig(ID, 'instance_group [ { profile: [ "0" ] } ]\n');
      expect(g).toMatchObject({ severity: 'warning' });
    });
    it('TensorRT profiles that are not non-negative integers', async () => {
      const fs = await lintConfig(ID, 'platform: "tensorrt_plan"\ninstance_group [ { profile: [ "", "max", "-1", "2x" ] } ]\n');
      expect(fs.map((f) => f.message.match(/\("([^"]*)"\)/)?.[1])).toEqual([
        'profile name must not be empty',
        "unable to parse 'max': stoi",
        'instance group m_0 of model m and platform tensorrt_plan specifies invalid profile -1. The field should contain the string representation of a non-negative integer.',
      ]);
    });
    it('count below 1 silently becomes the default: warning with the default', async () => {
      const [cpu] = await lintConfig(ID, `${ORT}instance_group [ { kind: KIND_CPU count: 0 } ]\n`);
      expect(cpu).toMatchObject({ severity: 'warning', token: '0' });
      expect(cpu!.message).toContain('Triton silently uses the default (2)');
      const [gpu] = await lintConfig(ID, 'backend: "python"\ninstance_group [ { kind: KIND_GPU count: -1 } ]\n');
      expect(gpu!.message).toContain('(1 on each GPU)');
    });
    it('every group passive: warning', async () => {
      const [f] = await lintConfig(ID, `${ORT}instance_group [ { passive: true } ]\n`);
      expect(f).toMatchObject({ severity: 'warning', token: 'true' });
    });
    it('a CPU-only server in the settings (gpu.count 0) refuses KIND_GPU', async () => {
      const dir = await writeRepo({ 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU } ]\n` });
      const settings = { ...DEFAULT_SETTINGS, gpu: { ...DEFAULT_SETTINGS.gpu, count: 0 } };
      const [f] = findings(lintSync(['m'], { cwd: dir, rules: [ruleOf(ID)], settings }), ID, dir);
      expect(f!.message).toContain('("instance group m_0 of model m has kind KIND_GPU but no GPUs are available")');
    });
    it('a GPU id past the servers\' count: an error with --gpus or gpu.count, as resolve refuses it; past any server\'s without a count, a warning', async () => {
      const dir = await writeRepo({ 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 0, 3 ] } ]\n`, 'm/1/model.onnx': new Uint8Array([8, 8]) });
      const run = (options: object) => lintSync(['m'], { cwd: dir, rules: [ruleOf(ID)], ...options }).results.flatMap((r) => r.diagnostics);
      const [f, ...rest] = run({ gpuCount: 1 });
      expect(rest).toEqual([]);
      expect([f!.messageId, f!.severity, f!.data]).toMatchObject(['gpuIdBeyondCount', 'error', { id: 3, count: 1, source: ' (--gpus)' }]);
      expect(f!.message).toContain('("instance group m_0 of model m specifies invalid or unsupported gpu id 3. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: 0")');
      expect(run({ gpuCount: 4 })).toEqual([]);
      // Without a count: 3 may well exist; 42 (Triton's own invalid_gpu fixture) does not on any server.
      expect(run({})).toEqual([]);
      const big = await writeRepo({ 'm/config.pbtxt': `${ORT}instance_group [ { kind: KIND_GPU gpus: [ 42 ] } ]\n`, 'm/1/model.onnx': new Uint8Array([8, 8]) });
      const [w] = lintSync(['m'], { cwd: big, rules: [ruleOf(ID)] }).results.flatMap((r) => r.diagnostics);
      expect([w!.messageId, w!.severity]).toEqual(['gpuIdBeyondCount', 'warning']);
      // resolve refuses the first with the same count.
      const { cli } = await import('../support/cli.js');
      const resolved = await cli(['resolve', 'm', '--gpus', '1'], { cwd: dir });
      expect(resolved.code).toBe(1);
      expect(resolved.stderr + resolved.stdout).toContain('specifies invalid or unsupported gpu id 3');
    });
  });
});

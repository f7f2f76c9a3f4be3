// The resolve pipeline on real model directories with real ONNX files.
import { parseTarget } from '../../src/triton/releases/target.js';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printConfig } from '../../src/config/print.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { tempDir } from '../support/cli.js';
import { ROOT } from '../support/snapshot.js';
import { makeModelDir, qaSignature, type SignatureSpec } from './helpers.js';

const IMAGES: SignatureSpec = {
  inputs: [{ name: 'images', type: 'TYPE_FP32', shape: ['batch', 3, 224, 224] }],
  outputs: [{ name: 'logits', type: 'TYPE_FP32', shape: ['batch', 1000] }],
};
const FIXED: SignatureSpec = {
  inputs: [{ name: 'images', type: 'TYPE_FP32', shape: [1, 3, 224, 224] }],
  outputs: [{ name: 'logits', type: 'TYPE_FP32', shape: [1, 1000] }],
};

describe('resolveModelDir: the effective config', () => {
  it('no config.pbtxt on a CPU-only host (--gpus 0): ORT autofill, max batch 4, dynamic batching, 2 CPU instances', async () => {
    const dir = await makeModelDir({ name: 'classifier', models: { '1/model.onnx': IMAGES } });
    const r = resolveModelDir(dir, { gpus: 0 });
    expect(r.status).toBe('ok');
    expect(r).toMatchObject({ modelName: 'classifier', version: 1, modelFile: join(dir, '1', 'model.onnx') });
    expect(r.configFile).toBeUndefined();
    expect(r.config).toEqual({
      name: 'classifier',
      platform: 'onnxruntime_onnx',
      backend: 'onnxruntime',
      version_policy: { latest: { num_versions: 1 } },
      max_batch_size: 4,
      input: [{ name: 'images', data_type: 'TYPE_FP32', dims: [3, 224, 224] }],
      output: [{ name: 'logits', data_type: 'TYPE_FP32', dims: [1000] }],
      optimization: { input_pinned_memory: { enable: true }, output_pinned_memory: { enable: true } },
      dynamic_batching: { preferred_batch_size: [4] },
      instance_group: [{ name: 'classifier', kind: 'KIND_CPU', count: 2 }],
      default_model_filename: 'model.onnx',
    });
    // Fields come out in schema order, whatever order the pipeline added them in.
    expect(Object.keys(r.config!)).toEqual([
      'name',
      'platform',
      'backend',
      'version_policy',
      'max_batch_size',
      'input',
      'output',
      'optimization',
      'dynamic_batching',
      'instance_group',
      'default_model_filename',
    ]);
    // Steps say what changed and why, stage by stage, in Triton's order.
    const stages = [...new Set(r.steps.map((s) => s.stage))];
    expect(stages).toEqual(['repository', 'autofill', 'normalize', 'instance_group', 'autocomplete']);
    expect(r.steps.find((s) => s.path.join('.') === 'dynamic_batching.preferred_batch_size')?.reason).toContain('after the backend auto-completed');
  });

  it('is a fixed point: the resolved config, written back as config.pbtxt, resolves to itself', async () => {
    for (const gpus of [0, 2]) {
      const dir = await makeModelDir({ name: 'classifier', models: { '1/model.onnx': IMAGES } });
      const first = resolveModelDir(dir, { gpus });
      writeFileSync(join(dir, 'config.pbtxt'), printConfig(first.config!));
      const second = resolveModelDir(dir, { gpus });
      expect(second.status).toBe('ok');
      expect(second.config).toEqual(first.config);
      expect(second.steps.filter((s) => s.action !== 'note')).toEqual([]);
    }
  });

  it('the skip rule: inputs and outputs written, no max_batch_size: it stays 0 and the model is not even read', async () => {
    const config =
      'backend: "onnxruntime"\ninput [ { name: "images" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]\noutput [ { name: "logits" data_type: TYPE_FP32 dims: [ -1, 1000 ] } ]\n';
    const dir = await makeModelDir({ name: 'm', config, dirs: ['1'] });
    const r = resolveModelDir(dir, { gpus: 1 });
    expect(r.status).toBe('ok');
    expect(r.config!.max_batch_size).toBeUndefined();
    expect(r.config!.dynamic_batching).toBeUndefined();
    expect(r.modelFile).toBeUndefined();
    expect(r.config!.instance_group).toEqual([{ name: 'm', kind: 'KIND_GPU', count: 1, gpus: [0] }]);
    expect(r.steps.some((s) => s.reason.startsWith("skipping model configuration auto-complete for 'm'"))).toBe(true);
  });

  it('reads the model of the version Triton loads: the newest the policy selects', async () => {
    const narrow: SignatureSpec = {
      inputs: [{ name: 'v2_in', type: 'TYPE_FP32', shape: [-1, 2] }],
      outputs: [{ name: 'v2_out', type: 'TYPE_FP32', shape: [-1, 2] }],
    };
    const wide: SignatureSpec = {
      inputs: [{ name: 'v10_in', type: 'TYPE_FP32', shape: [-1, 10] }],
      outputs: [{ name: 'v10_out', type: 'TYPE_FP32', shape: [-1, 10] }],
    };
    const dir = await makeModelDir({ name: 'm', config: 'platform: "onnxruntime_onnx"\n', models: { '2/model.onnx': narrow, '10/model.onnx': wide } });
    expect(resolveModelDir(dir)).toMatchObject({ version: 10, config: { input: [{ name: 'v10_in' }] } });
    writeFileSync(join(dir, 'config.pbtxt'), 'platform: "onnxruntime_onnx"\nversion_policy { specific { versions: [ 2 ] } }\n');
    expect(resolveModelDir(dir)).toMatchObject({ version: 2, config: { input: [{ name: 'v2_in' }] } });
  });

  it('a model.onnx directory holds <dir>/model.onnx; default_model_filename names another file', async () => {
    const big = await makeModelDir({ name: 'big', models: { '1/model.onnx/model.onnx': IMAGES } });
    expect(resolveModelDir(big)).toMatchObject({ status: 'ok', modelFile: join(big, '1', 'model.onnx', 'model.onnx') });
    const custom = await makeModelDir({
      name: 'custom',
      config: 'backend: "onnxruntime"\ndefault_model_filename: "resnet.onnx"\n',
      models: { '1/resnet.onnx': IMAGES },
    });
    expect(resolveModelDir(custom)).toMatchObject({ status: 'ok', config: { default_model_filename: 'resnet.onnx', max_batch_size: 4 } });
  });

  it('--config-name reads configs/<name>.pbtxt, and falls back to config.pbtxt as Triton does', async () => {
    const dir = await makeModelDir({
      name: 'm',
      config: 'platform: "onnxruntime_onnx"\nmax_batch_size: 2\n',
      files: { 'configs/h100.pbtxt': 'platform: "onnxruntime_onnx"\nmax_batch_size: 64\n' },
      models: { '1/model.onnx': IMAGES },
    });
    expect(resolveModelDir(dir, { configName: 'h100' })).toMatchObject({ configFile: join(dir, 'configs', 'h100.pbtxt'), config: { max_batch_size: 64 } });
    expect(resolveModelDir(dir, { configName: 'a100' })).toMatchObject({ configFile: join(dir, 'config.pbtxt'), config: { max_batch_size: 2 } });
  });

  it('ensembles: only version policy; no instance groups, no pinned memory, no model read', async () => {
    const config =
      'platform: "ensemble"\nensemble_scheduling { step [ { model_name: "a" model_version: -1 input_map { key: "x" value: "in" } output_map { key: "y" value: "out" } } ] }\n';
    const dir = await makeModelDir({ name: 'pipeline', config, dirs: ['1'] });
    const r = resolveModelDir(dir, { gpus: 2 });
    expect(r.status).toBe('ok');
    expect(r.config!.instance_group).toBeUndefined();
    expect(r.config!.optimization).toBeUndefined();
    expect(r.config!.version_policy).toEqual({ latest: { num_versions: 1 } });
  });

  it("other backends: core's part only, with a note that the backend may add more", async () => {
    const dir = await makeModelDir({ name: 'pre', files: { '1/model.plan': '' } });
    const r = resolveModelDir(dir, { gpus: 0 });
    expect(r.config).toMatchObject({ backend: 'tensorrt', platform: 'tensorrt_plan', instance_group: [{ name: 'pre', kind: 'KIND_CPU', count: 1 }] });
    expect(r.steps.some((s) => s.reason.includes('the tensorrt backend may complete the config further'))).toBe(true);
  });

  it('a Python model: its auto_complete_config read, or none (the config as written)', async () => {
    const none = resolveModelDir(await makeModelDir({ name: 'pre', files: { '1/model.py': 'class TritonPythonModel: pass\n' } }), { gpus: 0 });
    expect(none.config).toMatchObject({ backend: 'python', default_model_filename: 'model.py', instance_group: [{ name: 'pre', kind: 'KIND_CPU', count: 1 }] });
    expect(none.pending).toEqual([]);
    expect(none.steps.some((s) => s.reason.includes('has no auto_complete_config'))).toBe(true);
    const py =
      'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        c.set_max_batch_size(8)\n        c.add_input(dict(name="X", data_type="TYPE_FP32", dims=[4]))\n        n = helper()\n        c.add_output(dict(name="Y", data_type="TYPE_FP32", dims=[n]))\n        return c\n';
    const part = resolveModelDir(await makeModelDir({ name: 'part', files: { '1/model.py': py } }), { gpus: 0 });
    expect(part.status).toBe('ok');
    expect(part.config).toMatchObject({ max_batch_size: 8, input: [{ name: 'X', data_type: 'TYPE_FP32', dims: [4] }] });
    expect(part.config!.output).toBeUndefined();
    expect(part.pending).toEqual([
      'what auto_complete_config does from model.py line 7 on (the argument of add_output: the result of helper() on line 6), which tritonc does not follow',
    ]);
  });
});

describe('resolveModelDir: when Triton would refuse the model', () => {
  it('max_batch_size on a model that cannot batch: the autofill failure', async () => {
    const dir = await makeModelDir({ name: 'fixed', config: 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n', models: { '1/model.onnx': FIXED } });
    const r = resolveModelDir(dir);
    expect(r.status).toBe('refused');
    expect(r.problems.map((p) => p.message)).toEqual([
      "autofill failed for model 'fixed': model does not support batching while non-zero max_batch_size is specified",
    ]);
  });

  it('nothing tells Triton the backend (a hidden directory sorts first and hides 1/model.onnx)', async () => {
    const dir = await makeModelDir({ name: 'nb', models: { '1/model.onnx': IMAGES }, dirs: ['.ipynb_checkpoints'] });
    const r = resolveModelDir(dir);
    expect(r.status).toBe('refused');
    expect(r.problems[0]!.message).toMatch(/^Invalid model name: Could not determine backend for model 'nb'/);
    expect(r.problems[0]!.fix).toContain("version directory '.ipynb_checkpoints'");
  });

  it('a custom file name without backend or platform', async () => {
    const dir = await makeModelDir({ name: 'm', config: 'default_model_filename: "resnet.onnx"\n', models: { '1/resnet.onnx': IMAGES } });
    expect(resolveModelDir(dir).problems[0]).toMatchObject({
      message: "unexpected platform type '' for m",
      fix: expect.stringContaining('backend: "onnxruntime"'),
    });
  });

  it('a name that is not the directory name', async () => {
    const dir = await makeModelDir({ name: 'resnet', config: 'name: "resnet50"\nplatform: "onnxruntime_onnx"\n', models: { '1/model.onnx': IMAGES } });
    expect(resolveModelDir(dir).problems[0]!.message).toBe("unexpected directory name 'resnet' for model 'resnet50', directory name must equal model name");
  });

  it('no version directory, or none the policy selects', async () => {
    const none = await makeModelDir({ name: 'm', config: 'platform: "onnxruntime_onnx"\n', files: { 'model.onnx': '' } });
    expect(resolveModelDir(none).problems[0]!.message).toBe("at least one version must be available under the version policy of model 'm'");
    const unselected = await makeModelDir({
      name: 'm',
      config: 'platform: "onnxruntime_onnx"\nversion_policy { specific { versions: [ 3 ] } }\n',
      models: { '1/model.onnx': IMAGES },
    });
    expect(resolveModelDir(unselected).problems[0]!.fix).toContain('selects none');
  });

  // The example file is the backend's own, not ONNX Runtime's model.onnx: a TensorFlow model written by
  // backend alone is served as a SavedModel (core AutoCompleteBackendFields; tensorflow_backend opens
  // <version>/model.savedmodel), and core's auto-fill sets no default_model_filename without its files.
  it("no version directory: the fix names the model file of the model's own backend", async () => {
    const tf = await makeModelDir({ name: 'm', config: 'backend: "tensorflow"\n', files: { 'notes.txt': '' } });
    expect(resolveModelDir(tf).problems[0]!.fix).toContain(join(tf, '1', 'model.savedmodel'));
  });

  it('no model file where ORT looks; a directory named 1_old is version 1 but Triton opens 1/', async () => {
    const dir = await makeModelDir({ name: 'm', config: 'platform: "onnxruntime_onnx"\n', models: { '1_old/model.onnx': IMAGES } });
    const r = resolveModelDir(dir);
    expect(r.problems[0]!.message).toBe(`failed to stat file ${join(dir, '1', 'model.onnx')}`);
    expect(r.problems[0]!.fix).toContain("'1_old' is read as version 1");
  });

  it('KIND_GPU on a CPU-only host (--gpus 0)', async () => {
    const dir = await makeModelDir({
      name: 'm',
      config: 'platform: "onnxruntime_onnx"\ninstance_group [ { kind: KIND_GPU } ]\n',
      models: { '1/model.onnx': IMAGES },
    });
    expect(resolveModelDir(dir, { gpus: 0 }).problems[0]!.message).toBe('instance group m_0 of model m has kind KIND_GPU but no GPUs are available');
    expect(resolveModelDir(dir, { gpus: 1 }).status).toBe('ok');
  });
});

describe('resolveModelDir: input tritonc cannot read (returned, never thrown)', () => {
  it('a missing directory, or a file instead of one', () => {
    const repo = tempDir();
    expect(resolveModelDir(join(repo, 'nope'))).toMatchObject({ status: 'unreadable', failure: { kind: 'io', message: 'no such directory' } });
    writeFileSync(join(repo, 'file'), '');
    expect(resolveModelDir(join(repo, 'file')).failure).toMatchObject({ kind: 'io', message: expect.stringContaining('not a directory') });
  });

  it('config syntax errors come back as diagnostics with positions', async () => {
    const dir = await makeModelDir({ name: 'm', config: 'platform: "onnxruntime_onnx"\nmax_batch_size: eight\n', dirs: ['1'] });
    const r = resolveModelDir(dir);
    expect(r.status).toBe('unreadable');
    expect(r.failure).toMatchObject({ kind: 'syntax', file: join(dir, 'config.pbtxt') });
    const d = r.failure!.kind === 'syntax' ? r.failure!.diagnostics[0]! : undefined;
    expect(d?.range.start).toMatchObject({ line: 2, column: 17 });
  });

  it("a corrupt ONNX model: the reader's message with file and byte offset", async () => {
    const dir = await makeModelDir({ name: 'm', dirs: ['1'] });
    mkdirSync(join(dir, '1'), { recursive: true });
    writeFileSync(join(dir, '1', 'model.onnx'), Buffer.from([0x08, 0x07, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    const r = resolveModelDir(dir);
    expect(r.status).toBe('unreadable');
    expect(r.failure).toMatchObject({ kind: 'onnx', file: join(dir, '1', 'model.onnx') });
    expect(r.failure!.kind === 'onnx' && r.failure!.offset).toEqual(expect.any(Number));
  });

  it('the QA signature without batching resolves with max_batch_size absent', async () => {
    const dir = await makeModelDir({ name: 'nb', models: { '1/model.onnx': qaSignature(false) } });
    const r = resolveModelDir(dir);
    expect(r.config!.max_batch_size).toBeUndefined();
    expect(r.config!.input!.map((i) => i.dims)).toEqual([[16], [16]]);
  });
});

// The PyTorch backend fills nothing in (r24.10 logs that it skips auto-complete), and refuses at load a
// config without inputs or outputs; the real server's words, as test/server/resolve-real-backends.test.ts
// holds them for every LibTorch fixture.
describe('resolveModelDir: a TorchScript model whose config lists no inputs or outputs', () => {
  const MODEL = join(ROOT, 'fixtures', 'models', 'pytorch', 'libtorch_float32_float32_float32', '1');
  const deploy = (config?: string): string => {
    const dir = join(tempDir('tritonc-pt-'), 'm');
    cpSync(MODEL, join(dir, '1'), { recursive: true });
    if (config !== undefined) writeFileSync(join(dir, 'config.pbtxt'), config);
    return dir;
  };

  it("without config.pbtxt: refused with the backend's count, and the step says what the server logs", () => {
    const r = resolveModelDir(deploy(), { gpus: 0 });
    expect(r.status).toBe('refused');
    expect(r.problems.map((p) => p.message)).toEqual(["unable to load model 'm', configuration expects 0 inputs, model provides 2"]);
    expect(r.steps.map((s) => s.reason)).toContain(
      `the pytorch backend does not complete the config: it runs as written (the server logs "skipping model configuration auto-complete for 'm': not supported for pytorch backend")`,
    );
    // From 26.04 core names no file for a model.pt guessed from the files (it sets the platform, and
    // names a file only where the platform was empty); r24.10's names model.pt, as the real 2.51 does
    // (the r24.10 and r26.06 cores: test/conformance/core-releases.test.ts).
    expect(r.config?.default_model_filename).toBeUndefined();
    expect(resolveModelDir(deploy(), { gpus: 0, target: parseTarget('24.10') }).config?.default_model_filename).toBe('model.pt');
  });

  it('inputs listed but no output: "must contain at least one output"; both listed: ok', () => {
    const inputs =
      'backend: "pytorch"\nmax_batch_size: 8\ninput [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 16 ] }, { name: "INPUT__1" data_type: TYPE_FP32 dims: [ 16 ] } ]\n';
    expect(resolveModelDir(deploy(inputs), { gpus: 0 }).problems.map((p) => p.message)).toEqual([
      'model configuration must contain at least one output, none were specified.',
    ]);
    const both = `${inputs}output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n`;
    expect(resolveModelDir(deploy(both), { gpus: 0 }).status).toBe('ok');
  });
});

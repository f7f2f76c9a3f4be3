// `tritonc resolve` end to end, in-process: both output formats, every exit code, messages users see.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { cli, tempDir } from '../support/cli.js';
import { makeModelDir, type SignatureSpec } from '../triton/helpers.js';

const IMAGES: SignatureSpec = {
  inputs: [{ name: 'images', type: 'TYPE_FP32', shape: ['batch', 3, 224, 224] }],
  outputs: [{ name: 'logits', type: 'TYPE_FP32', shape: ['batch', 1000] }],
};

const CLASSIFIER_PBTXT = `name: "classifier"
platform: "onnxruntime_onnx"
backend: "onnxruntime"
version_policy { latest { num_versions: 1 } }
max_batch_size: 4
input [
  {
    name: "images"
    data_type: TYPE_FP32
    dims: [ 3, 224, 224 ]
  }
]
output [
  {
    name: "logits"
    data_type: TYPE_FP32
    dims: [ 1000 ]
  }
]
optimization {
  input_pinned_memory { enable: true }
  output_pinned_memory { enable: true }
}
dynamic_batching { preferred_batch_size: [ 4 ] }
instance_group [
  {
    name: "classifier"
    kind: KIND_CPU
    count: 2
  }
]
default_model_filename: "model.onnx"
`;

async function classifier(config?: string): Promise<{ repo: string; dir: string }> {
  const dir = await makeModelDir({ name: 'classifier', models: { '1/model.onnx': IMAGES }, ...(config === undefined ? {} : { config }) });
  return { repo: dirname(dir), dir };
}

describe('tritonc resolve', () => {
  it('prints the effective config as canonical pbtxt (here for a CPU-only host), exit 0', async () => {
    const { repo } = await classifier();
    const r = await cli(['resolve', 'classifier', '--gpus', '0'], { cwd: repo });
    expect(r).toEqual({ code: 0, stdout: CLASSIFIER_PBTXT, stderr: '' });
  });

  it('--gpus N resolves for a GPU host', async () => {
    const { repo } = await classifier();
    const r = await cli(['resolve', 'classifier', '--gpus', '2'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(parseConfig(r.stdout).value.instance_group).toEqual([{ name: 'classifier', kind: 'KIND_GPU', count: 1, gpus: [0, 1] }]);
  });

  it('--format json prints what GET /v2/models/<name>/config answers: defaults printed, dims as numbers', async () => {
    const { repo } = await classifier();
    const r = await cli(['resolve', 'classifier', '--format', 'json', '--gpus', '0'], { cwd: repo });
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json).slice(0, 6)).toEqual(['name', 'platform', 'backend', 'runtime', 'version_policy', 'max_batch_size']);
    expect(json).toMatchObject({
      runtime: '',
      max_batch_size: 4,
      input: [{ name: 'images', data_type: 'TYPE_FP32', format: 'FORMAT_NONE', dims: [3, 224, 224], optional: false }],
      batch_input: [],
      dynamic_batching: { preferred_batch_size: [4], max_queue_delay_microseconds: 0, priority_queue_policy: {} },
      instance_group: [{ name: 'classifier', kind: 'KIND_CPU', count: 2, gpus: [], host_policy: '' }],
      parameters: {},
      model_warmup: [],
    });
  });

  it('--default-max-batch-size and --config-name, as the tritonserver options of the same meaning', async () => {
    const { repo, dir } = await classifier();
    expect(parseConfig((await cli(['resolve', 'classifier', '--default-max-batch-size', '16'], { cwd: repo })).stdout).value.max_batch_size).toBe(16);
    await makeModelDir({ name: 'classifier', files: { 'configs/big.pbtxt': 'platform: "onnxruntime_onnx"\nmax_batch_size: 64\n' } }, repo);
    const r = await cli(['resolve', dir, '--config-name', 'big'], { cwd: repo });
    expect(parseConfig(r.stdout).value).toMatchObject({ max_batch_size: 64, dynamic_batching: { preferred_batch_size: [64] } });
  });

  it('--explain lists each change and why on stderr, keeping stdout the config', async () => {
    const { repo } = await classifier();
    const r = await cli(['resolve', 'classifier', '--explain', '--gpus', '0'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(CLASSIFIER_PBTXT);
    expect(r.stderr).toContain(`autofill: set backend = "onnxruntime" (version directory '1' holds model.onnx)`);
    expect(r.stderr).toContain('autocomplete: set max_batch_size = 4 (autofilled max_batch_size to 4');
    expect(r.stderr).toContain('instance_group: set instance_group[0].count = 2 (a KIND_CPU group of the onnxruntime backend defaults to 2 instances)');
  });

  it("exit 1 when Triton would refuse the model: Triton's message and the fix on stderr, nothing on stdout", async () => {
    const dir = await makeModelDir({
      name: 'fixed',
      config: 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n',
      models: { '1/model.onnx': { inputs: [{ name: 'x', type: 'TYPE_FP32', shape: [1, 4] }], outputs: [{ name: 'y', type: 'TYPE_FP32', shape: [1, 4] }] } },
    });
    const r = await cli(['resolve', 'fixed'], { cwd: dirname(dir) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "tritonc resolve: Triton would not load model 'fixed':\n" +
        "  autofill failed for model 'fixed': model does not support batching while non-zero max_batch_size is specified\n" +
        "  fix: input 'x' has the fixed first dimension 1 (shape [1,4]), so the model cannot batch: set max_batch_size: 0 (or remove it), or re-export the model with a dynamic batch dimension\n",
    );
  });

  it('exit 1 for KIND_GPU on a CPU-only host, naming --gpus', async () => {
    const { repo } = await classifier('instance_group [ { kind: KIND_GPU } ]\n');
    const r = await cli(['resolve', 'classifier', '--gpus', '0'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('instance group classifier_0 of model classifier has kind KIND_GPU but no GPUs are available');
    expect(r.stderr).toContain('--gpus N');
  });

  it('exit 2 for a missing directory, with the path as given', async () => {
    const r = await cli(['resolve', 'nope'], { cwd: tempDir() });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'tritonc resolve: nope: no such directory\n' });
  });

  it('exit 2 for config syntax errors, with file:line:column', async () => {
    const { repo } = await classifier('max_batch_size: eight\n');
    const r = await cli(['resolve', 'classifier'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${join('classifier', 'config.pbtxt')}:1:17: error: Expected integer for field "max_batch_size" (int32), got: "eight" [syntax]`);
  });

  it('exit 2 for a corrupt ONNX model, with the file and byte offset, and no stack trace', async () => {
    const { repo, dir } = await classifier();
    writeFileSync(join(dir, '1', 'model.onnx'), Buffer.from([0x08, 0x07, 0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    const r = await cli(['resolve', 'classifier'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^tritonc resolve: cannot read the ONNX model: ${join('classifier', '1', 'model.onnx').replace(/[.]/g, '\\.')}: byte \\d+: .+\\n$`),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exit 2 for bad flags', async () => {
    const { repo } = await classifier();
    for (const args of [
      ['--gpus', '-1'],
      ['--gpus', 'two'],
      ['--gpus', '1.5'],
      ['--format', 'yaml'],
      ['--config-name', 'a b'],
    ]) {
      const r = await cli(['resolve', 'classifier', ...args], { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    expect((await cli(['resolve'], { cwd: repo })).code).toBe(2);
  });
});

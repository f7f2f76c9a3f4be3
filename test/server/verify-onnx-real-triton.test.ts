// verify on an ONNX model, for real: the real tritonserver 2.51.0 with Triton's own ONNX Runtime backend
// (r24.10, CPU) loads the example classifier under the tutorial's CPU config and answers at batch 1 and
// max_batch_size (--runtime local, and --runtime server against a running one); a server without the
// onnxruntime backend is exit 2, "could not run", naming the backend and where Triton looked for it,
// not exit 1 blaming the config. The suite skips with one line where the venv or the backend is missing
// (a fresh clone); under CI=true it runs.
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { realBackendsRun, startRealTriton, TUTORIAL_CPU_CONFIG, VENV, type RealTriton } from '../support/real-triton.js';

const runs = realBackendsRun('verify on the real ONNX Runtime backend', ['onnxruntime']);
const TRITONSERVER = join(ROOT, 'scripts', 'real-triton', 'tritonserver');

/** A repository holding the example classifier under the tutorial's CPU config. */
function repository(): { repo: string; model: string } {
  const repo = join(tempDir('tritonc-verify-onnx-'), 'models');
  const model = join(repo, 'classifier');
  mkdirSync(join(model, '1'), { recursive: true });
  copyFileSync(join(ROOT, 'model_repository', 'classifier', '1', 'model.onnx'), join(model, '1', 'model.onnx'));
  writeFileSync(join(model, 'config.pbtxt'), TUTORIAL_CPU_CONFIG);
  return { repo, model };
}

/** A backend directory with only the Python backend: a tritonserver installed without onnxruntime. */
function pythonOnlyBackends(): string {
  const dir = tempDir('tritonc-backends-');
  symlinkSync(join(VENV, 'triton-backends', 'python'), join(dir, 'python'));
  return dir;
}

describe.runIf(runs)('verify --runtime local on the real ONNX Runtime backend', () => {
  it('loads the classifier and checks it at batch 1 and 32', async () => {
    const { model } = repository();
    const r = await cli(['verify', model, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--format', 'json', '--timeout', '90s']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      engine: string;
      load: { ok: boolean; detail: string };
      runs: { batchSize: number; ok: boolean }[];
      problems: unknown[];
    };
    expect(report.engine).toContain('(Triton 2.51.0)');
    expect(report.load.ok).toBe(true);
    expect(report.load.detail).toContain('platform onnxruntime_onnx');
    expect(report.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [32, true],
    ]);
    expect(report.problems).toEqual([]);
  }, 120_000);

  it('a server without the onnxruntime backend is exit 2, naming the backend and where Triton looked', async () => {
    const { model } = repository();
    const backends = pythonOnlyBackends();
    const r = await cli(['verify', model, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--backend-directory', backends, '--timeout', '90s']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    // The server's own words (core backend_model.cc), then where it looked and what to do.
    expect(r.stderr).toContain("unable to find backend library for backend 'onnxruntime', try specifying runtime on the model configuration.");
    expect(r.stderr).toContain(
      `The server has no onnxruntime backend: Triton looked for libtriton_onnxruntime.so in the model's version directory, the model directory and ${backends}/onnxruntime.`,
    );
    expect(r.stderr).not.toContain('error: creating server');
  }, 120_000);
});

describe.runIf(runs)('verify --runtime server on the real ONNX Runtime backend', () => {
  let withOrt: RealTriton | undefined;
  let withoutOrt: RealTriton | undefined;
  let model = '';
  beforeAll(async () => {
    const made = repository();
    model = made.model;
    [withOrt, withoutOrt] = await Promise.all([startRealTriton(made.repo), startRealTriton(made.repo, [`--backend-directory=${pythonOnlyBackends()}`])]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([withOrt?.stop(), withoutOrt?.stop()]);
  });

  it('loads the local config into a running server, checks it and unloads it again', async () => {
    const r = await cli(['verify', model, '--runtime', 'server', '--server', withOrt!.url, '--format', 'json', '--timeout', '90s']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { load: { ok: boolean }; runs: { batchSize: number; ok: boolean }[] };
    expect(report.load.ok).toBe(true);
    expect(report.runs.every((x) => x.ok)).toBe(true);
    // It was not loaded before verify: it is not left loaded.
    expect((await fetch(`${withOrt!.url}/v2/models/classifier/ready`)).status).toBe(400);
  }, 120_000);

  it('a running server without the backend is exit 2, naming the backend', async () => {
    const r = await cli(['verify', model, '--runtime', 'server', '--server', withoutOrt!.url, '--timeout', '90s']);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain("unable to find backend library for backend 'onnxruntime'");
    expect(r.stderr).toContain(
      "The server has no onnxruntime backend: Triton looked for libtriton_onnxruntime.so in the model's version directory, the model directory and <the server's --backend-directory>/onnxruntime.",
    );
  }, 120_000);
});

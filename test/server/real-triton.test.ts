// The real tritonserver (2.51.0, from PyPI's nvidia-pytriton; scripts/real-triton/setup.sh makes its
// venv, .ci/run installs it) on loopback, CPU only, with a Python-backend model: what
// fixtures/verify/protocol-fixture.ts claims of Triton's HTTP answers is checked against it, and
// verify --runtime server runs end to end. Without the venv (a fresh clone) the suite is skipped with
// one line; with CI=true it must run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../src/verify/ports.js';
import { verifyModel } from '../../src/verify/verify.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { realTritonRuns, VENV } from '../support/real-triton.js';

const runs = realTritonRuns('real-Triton tests');

const CONFIG = `name: "add_one"
backend: "python"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]
instance_group [ { kind: KIND_CPU count: 1 } ]
`;
const MODEL_PY = `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", (x + 1).astype(np.float32))]))
        return responses
`;

/** A model.py whose auto_complete_config completes the config, as the Python backend runs it at load. */
const AUTO_PY = `${MODEL_PY.split('\n\n\nclass')[0]}


class TritonPythonModel:
    @staticmethod
    def auto_complete_config(auto_complete_model_config):
        auto_complete_model_config.set_max_batch_size(8)
        auto_complete_model_config.add_input({"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4]})
        auto_complete_model_config.add_output({"name": "OUTPUT0", "data_type": "TYPE_FP32", "dims": [4]})
        auto_complete_model_config.set_dynamic_batching()
        return auto_complete_model_config
${MODEL_PY.split('class TritonPythonModel:')[1]}`;

let server: ChildProcess | undefined;
/** The Python backend's shared-memory regions (/dev/shm) there before the server started. */
const shmRegions = (): string[] => (existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((f) => f.startsWith('triton_test_')) : []);
let shmBefore = new Set<string>();
let url = '';
let repo = '';
let log = '';

/**
 * Stops a server started with start.sh: a clean stop unloads the models (their stubs then remove
 * their shared memory); one that hangs, as a load can, is killed with its whole process group, and
 * what the stubs left in /dev/shm (of this run only) removed.
 */
async function stop(child: ChildProcess | undefined, before: Set<string>): Promise<void> {
  if (!child?.pid) return;
  const group = -child.pid;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(group, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    process.kill(group, 'SIGKILL');
  } catch {
    // already gone
  }
  for (const f of shmRegions()) if (!before.has(f)) rmSync(join('/dev/shm', f), { force: true });
}

async function ready(until: number): Promise<void> {
  while (Date.now() < until) {
    try {
      if ((await fetch(`${url}/v2/health/ready`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tritonserver did not get ready:\n${log.slice(-2000)}`);
}

const post = async (path: string, body: unknown = {}) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, text: await r.text() };
};

describe.skipIf(!runs)('the real tritonserver 2.51 (Python backend, CPU)', () => {
  beforeAll(async () => {
    repo = join(tempDir('tritonc-real-triton-'), 'models');
    mkdirSync(join(repo, 'add_one', '1'), { recursive: true });
    writeFileSync(join(repo, 'add_one', 'config.pbtxt'), CONFIG);
    writeFileSync(join(repo, 'add_one', '1', 'model.py'), MODEL_PY);
    // A config core refuses before any backend runs, and one the backend refuses (no GPU here).
    mkdirSync(join(repo, 'bad_batch', '1'), { recursive: true });
    writeFileSync(join(repo, 'bad_batch', 'config.pbtxt'), CONFIG.replace('"add_one"', '"bad_batch"').replace('max_batch_size: 8', 'max_batch_size: -1'));
    writeFileSync(join(repo, 'bad_batch', '1', 'model.py'), MODEL_PY);
    mkdirSync(join(repo, 'on_gpu', '1'), { recursive: true });
    writeFileSync(join(repo, 'on_gpu', 'config.pbtxt'), CONFIG.replace('"add_one"', '"on_gpu"').replace('KIND_CPU', 'KIND_GPU'));
    writeFileSync(join(repo, 'on_gpu', '1', 'model.py'), MODEL_PY);
    shmBefore = new Set(shmRegions());
    // For resolve against the server: a minimal config core normalizes, and one a model.py's
    // auto_complete_config completes.
    mkdirSync(join(repo, 'defaults', '1'), { recursive: true });
    writeFileSync(join(repo, 'defaults', 'config.pbtxt'), 'backend: "python"\nmax_batch_size: 4\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\ndynamic_batching { }\n');
    writeFileSync(join(repo, 'defaults', '1', 'model.py'), MODEL_PY);
    mkdirSync(join(repo, 'auto', '1'), { recursive: true });
    writeFileSync(join(repo, 'auto', 'config.pbtxt'), 'backend: "python"\n');
    writeFileSync(join(repo, 'auto', '1', 'model.py'), AUTO_PY);
    // An ensemble of two add_one steps, as written by hand (core fills the rest).
    mkdirSync(join(repo, 'pipeline', '1'), { recursive: true });
    writeFileSync(join(repo, 'pipeline', 'config.pbtxt'), `platform: "ensemble"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
ensemble_scheduling {
  step [
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "mid" } },
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "mid" } output_map { key: "OUTPUT0" value: "OUT" } }
  ]
}
`);
    // Two versions, both served.
    for (const v of ['1', '2']) {
      mkdirSync(join(repo, 'two_versions', v), { recursive: true });
      writeFileSync(join(repo, 'two_versions', v, 'model.py'), MODEL_PY);
    }
    writeFileSync(join(repo, 'two_versions', 'config.pbtxt'), `${CONFIG.replace('"add_one"', '"two_versions"')}version_policy { all { } }\n`);
    const [http, grpc] = await freePorts(2);
    url = `http://127.0.0.1:${http}`;
    // Its own process group: afterAll kills the server and its Python stubs together.
    server = spawn('bash', [join(ROOT, 'scripts', 'real-triton', 'start.sh'), repo, String(http), String(grpc), 'off'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TRITON_VENV: VENV } });
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    await ready(Date.now() + 60_000);
  }, 90_000);

  afterAll(() => stop(server, shmBefore), 30_000);

  it('answers as the protocol fixture says: a config core refuses is 500 "failed to poll", a backend refusal 400 naming the reason', async () => {
    expect(await post('/v2/repository/models/bad_batch/load')).toEqual({ status: 500, text: `{"error":"failed to load 'bad_batch', failed to poll from model repository"}` });
    const gpu = await post('/v2/repository/models/on_gpu/load');
    expect(gpu.status).toBe(400);
    expect(gpu.text).toContain("load failed for model 'on_gpu': version 1 is at UNAVAILABLE state:");
    expect(gpu.text).toContain('instance group on_gpu_0 of model on_gpu has kind KIND_GPU but no GPUs are available');
    // The fixture's own answers for the same two cases (fixtures/verify/protocol-fixture.ts).
    const fixture = readFileSync(join(ROOT, 'fixtures', 'verify', 'protocol-fixture.ts'), 'utf8');
    expect(fixture).toContain("return [500, { error: `failed to load '${name}', failed to poll from model repository` }];");
    expect(fixture).toContain("return [400, { error: `load failed for model '${name}': version 1 is at UNAVAILABLE state: ${f.message};\\n` }];");
  });

  it('verify --runtime server: loads the local config, checks it, and puts the server back on its own config', async () => {
    expect((await post('/v2/repository/models/add_one/load')).status).toBe(200);
    const served = await (await fetch(`${url}/v2/models/add_one/config`)).json();
    // The candidate: a smaller max_batch_size than the server's config.
    const local = join(tempDir('tritonc-real-local-'), 'add_one');
    mkdirSync(join(local, '1'), { recursive: true });
    writeFileSync(join(local, 'config.pbtxt'), CONFIG.replace('max_batch_size: 8', 'max_batch_size: 4'));
    writeFileSync(join(local, '1', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: url, timeoutMs: 60_000 });
    expect(r.error, JSON.stringify(r.problems)).toBeUndefined();
    expect(r.outcome).toBe('ok');
    expect(r.engine).toBe(`triton 2.51.0 at ${url}`);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([[1, true], [4, true]]);
    expect(r.notes.join('\n')).toContain("'add_one' was put back with the config it served before");
    expect(await (await fetch(`${url}/v2/models/add_one/config`)).json()).toEqual(served);
  }, 120_000);

  it('verify --runtime server: a config Triton refuses before any backend runs is exit 1, with the lint finding that explains it; the served model keeps serving', async () => {
    const local = join(tempDir('tritonc-real-local-'), 'add_one');
    mkdirSync(join(local, '1'), { recursive: true });
    writeFileSync(join(local, 'config.pbtxt'), `${CONFIG}dynamic_batching { preferred_batch_size: [ 16 ] }\n`);
    writeFileSync(join(local, '1', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: url, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(1);
    expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'preferred-batch-size' });
    expect(r.problems[0]!.message).toContain('failed to poll from model repository');
    expect((await fetch(`${url}/v2/models/add_one/ready`)).status).toBe(200);
  }, 120_000);

  it('resolve equals the server (GET /v2/models/<m>/config) field for field, for complete Python configs, an ensemble, and core\'s normalization', async () => {
    const { cli } = await import('../support/cli.js');
    for (const model of ['add_one', 'defaults', 'pipeline']) {
      expect((await post(`/v2/repository/models/${model}/load`)).status, model).toBe(200);
      const served = await (await fetch(`${url}/v2/models/${model}/config`)).json();
      // This server has no GPU: resolve for a host with none.
      const r = await cli(['resolve', join(repo, model), '--format', 'json', '--gpus', '0']);
      expect(r.code, r.stderr).toBe(0);
      const resolved = JSON.parse(r.stdout);
      // ensemble_scheduling.max_inflight_requests came into core's model_config.proto after 2.51.0,
      // which tritonc's schema follows; the server here has no such field to print.
      if (resolved.ensemble_scheduling) expect(resolved.ensemble_scheduling).toMatchObject({ max_inflight_requests: 0 });
      delete resolved.ensemble_scheduling?.max_inflight_requests;
      expect(resolved, model).toEqual(served);
    }
  }, 120_000);

  it("resolve of a model.py whose auto_complete_config completes the config: read without running it, equal to what the server fills", async () => {
    const { cli } = await import('../support/cli.js');
    expect((await post('/v2/repository/models/auto/load')).status).toBe(200);
    const served = (await (await fetch(`${url}/v2/models/auto/config`)).json()) as { max_batch_size: number; input: { name: string }[]; output: { name: string }[] };
    expect([served.max_batch_size, served.input.map((t: { name: string }) => t.name), served.output.map((t: { name: string }) => t.name)]).toEqual([8, ['INPUT0'], ['OUTPUT0']]);
    const r = await cli(['resolve', join(repo, 'auto'), '--format', 'json', '--gpus', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not known here');
    expect(JSON.parse(r.stdout)).toEqual(served);
  }, 120_000);

  it('verify --runtime server on a model with two versions served: both keep serving', async () => {
    expect((await post('/v2/repository/models/two_versions/load')).status).toBe(200);
    const local = join(tempDir('tritonc-real-local-'), 'two_versions');
    mkdirSync(join(local, '2'), { recursive: true });
    writeFileSync(join(local, 'config.pbtxt'), `${CONFIG.replace('"add_one"', '"two_versions"').replace('max_batch_size: 8', 'max_batch_size: 2')}version_policy { all { } }\n`);
    writeFileSync(join(local, '2', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: url, timeoutMs: 60_000 });
    expect(r.outcome, r.error ?? JSON.stringify(r.problems)).toBe('ok');
    for (const v of ['1', '2']) expect((await fetch(`${url}/v2/models/two_versions/versions/${v}/ready`)).status, `version ${v}`).toBe(200);
    expect(((await (await fetch(`${url}/v2/models/two_versions/config`)).json()) as { max_batch_size: number }).max_batch_size).toBe(8);
  }, 120_000);
});

describe.skipIf(!runs)('the real tritonserver with --http-restricted-api', () => {
  let restricted: ChildProcess | undefined;
  let base = '';
  const before = new Set(shmRegions());
  afterAll(() => stop(restricted, before), 30_000);

  it('verify without the key is exit 2 naming the header to pass; with --header it runs', async () => {
    const models = join(tempDir('tritonc-real-restricted-'), 'models');
    mkdirSync(join(models, 'add_one', '1'), { recursive: true });
    writeFileSync(join(models, 'add_one', 'config.pbtxt'), CONFIG);
    writeFileSync(join(models, 'add_one', '1', 'model.py'), MODEL_PY);
    const [http, grpc] = await freePorts(2);
    base = `http://127.0.0.1:${http}`;
    let out = '';
    restricted = spawn('bash', [join(ROOT, 'scripts', 'real-triton', 'start.sh'), models, String(http), String(grpc), 'off', '--http-restricted-api=model-repository:admin-key=s3cret', '--load-model=add_one'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TRITON_VENV: VENV } });
    restricted.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    restricted.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const until = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${base}/v2/models/add_one/ready`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (Date.now() > until) throw new Error(`the restricted server did not get ready:\n${out.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = await verifyModel({ modelDir: join(models, 'add_one'), runtime: 'server', server: base, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain("This API is restricted, expecting header 'admin-key'");
    expect(r.error).toContain('--header admin-key:<value>');
    const ok = await verifyModel({ modelDir: join(models, 'add_one'), runtime: 'server', server: base, timeoutMs: 60_000, headers: { 'admin-key': 's3cret' } });
    expect(ok.outcome, ok.error ?? JSON.stringify(ok.problems)).toBe('ok');
  }, 120_000);
});

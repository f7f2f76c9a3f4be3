// The real tritonserver (2.51.0, from PyPI's nvidia-pytriton; scripts/real-triton/setup.sh makes its
// venv, .ci/run installs it) on loopback, CPU only, with a Python-backend model: what
// fixtures/verify/protocol-fixture.ts claims of Triton's HTTP answers is checked against it, and
// verify --runtime server runs end to end. Without the venv (a fresh clone) the suite is skipped with
// one line; with CI=true it must run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeInferRequest } from '../../src/verify/infer-body.js';
import { verifyModel } from '../../src/verify/verify.js';
import { startProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { floatTensor, model as onnxModel, node, T, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';

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

let server: RealTriton | undefined;
let url = '';
let repo = '';

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
    // For resolve against the server: a minimal config core normalizes, and one a model.py's
    // auto_complete_config completes.
    mkdirSync(join(repo, 'defaults', '1'), { recursive: true });
    writeFileSync(
      join(repo, 'defaults', 'config.pbtxt'),
      'backend: "python"\nmax_batch_size: 4\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\ndynamic_batching { }\n',
    );
    writeFileSync(join(repo, 'defaults', '1', 'model.py'), MODEL_PY);
    mkdirSync(join(repo, 'auto', '1'), { recursive: true });
    writeFileSync(join(repo, 'auto', 'config.pbtxt'), 'backend: "python"\n');
    writeFileSync(join(repo, 'auto', '1', 'model.py'), AUTO_PY);
    // An ensemble of two add_one steps, as written by hand (core fills the rest).
    mkdirSync(join(repo, 'pipeline', '1'), { recursive: true });
    writeFileSync(
      join(repo, 'pipeline', 'config.pbtxt'),
      `platform: "ensemble"
max_batch_size: 8
input [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]
ensemble_scheduling {
  step [
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "IN" } output_map { key: "OUTPUT0" value: "mid" } },
    { model_name: "add_one" model_version: -1 input_map { key: "INPUT0" value: "mid" } output_map { key: "OUTPUT0" value: "OUT" } }
  ]
}
`,
    );
    // For the model endpoints against the fixture's: one never loaded, one loaded and unloaded, one decoupled.
    for (const [m, extra] of [
      ['never_loaded', ''],
      ['unloaded', ''],
      ['decoupled', 'model_transaction_policy { decoupled: true }\n'],
    ] as const) {
      mkdirSync(join(repo, m, '1'), { recursive: true });
      writeFileSync(join(repo, m, 'config.pbtxt'), `${CONFIG.replace('"add_one"', `"${m}"`)}${extra}`);
      writeFileSync(join(repo, m, '1', 'model.py'), MODEL_PY);
    }
    // For --reference ort: a model that is add_one but off by 0.01.
    mkdirSync(join(repo, 'add_off', '1'), { recursive: true });
    writeFileSync(join(repo, 'add_off', 'config.pbtxt'), CONFIG.replace('"add_one"', '"add_off"'));
    writeFileSync(join(repo, 'add_off', '1', 'model.py'), MODEL_PY.replace('(x + 1)', '(x + 1.01)'));
    // Two versions, both served.
    for (const v of ['1', '2']) {
      mkdirSync(join(repo, 'two_versions', v), { recursive: true });
      writeFileSync(join(repo, 'two_versions', v, 'model.py'), MODEL_PY);
    }
    writeFileSync(join(repo, 'two_versions', 'config.pbtxt'), `${CONFIG.replace('"add_one"', '"two_versions"')}version_policy { all { } }\n`);
    // Its own process group: afterAll kills the server and its Python stubs together.
    server = await startRealTriton(repo);
    url = server.url;
  }, 90_000);

  afterAll(() => server?.stop(), 30_000);

  it('answers as the protocol fixture says: a config core refuses is 500 "failed to poll", a backend refusal 400 naming the reason', async () => {
    expect(await post('/v2/repository/models/bad_batch/load')).toEqual({
      status: 500,
      text: `{"error":"failed to load 'bad_batch', failed to poll from model repository"}`,
    });
    const gpu = await post('/v2/repository/models/on_gpu/load');
    expect(gpu.status).toBe(400);
    expect(gpu.text).toContain("load failed for model 'on_gpu': version 1 is at UNAVAILABLE state:");
    expect(gpu.text).toContain('instance group on_gpu_0 of model on_gpu has kind KIND_GPU but no GPUs are available');
    // The fixture's own answers for the same two cases (fixtures/verify/protocol-fixture.ts).
    const fixture = readFileSync(join(ROOT, 'fixtures', 'verify', 'protocol-fixture.ts'), 'utf8');
    expect(fixture).toContain("return [500, { error: `failed to load '${name}', failed to poll from model repository` }];");
    expect(fixture).toContain("return [400, { error: `load failed for model '${name}': version 1 is at UNAVAILABLE state: ${f.message};\\n` }];");
  });

  it("answers the model endpoints as the protocol fixture does: an unknown, a never loaded and an unloaded model, a decoupled model's /infer, a gzip answer", async () => {
    for (const m of ['unloaded', 'decoupled', 'add_one']) expect((await post(`/v2/repository/models/${m}/load`)).status, m).toBe(200);
    expect((await post('/v2/repository/models/unloaded/unload')).status).toBe(200);
    const own = async (m: string) => (await fetch(`${url}/v2/models/${m}/config`)).json() as Promise<Record<string, unknown>>;
    const fixture = await startProtocolFixture({
      explicit: true,
      models: {
        add_one: { config: await own('add_one'), ready: true },
        decoupled: { config: await own('decoupled'), ready: true },
        never_loaded: { config: {}, ready: false },
        unloaded: { config: {}, ready: true },
      },
    });
    try {
      await fetch(`${fixture.url}/v2/repository/models/unloaded/unload`, { method: 'POST', body: '{}' });
      // The unload answers before the Python stub has stopped (UNLOADING for a moment).
      const until = Date.now() + 30_000;
      while (
        !(await post('/v2/repository/index')).text.includes('{"name":"unloaded","version":"1","state":"UNAVAILABLE","reason":"unloaded"}') &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 100));
      const encoded = encodeInferRequest({ inputs: [{ name: 'INPUT0', datatype: 'FP32', shape: [1, 4] }], outputs: ['OUTPUT0'] });
      const infer = {
        method: 'POST',
        body: encoded.body,
        headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(encoded.headerLength), 'accept-encoding': 'gzip' },
      };
      const requests: [string, RequestInit?][] = [
        ['/v2/models/nosuch/config'],
        ['/v2/models/never_loaded/config'],
        ['/v2/models/unloaded/config'],
        ['/v2/models/nosuch/ready'],
        ['/v2/models/never_loaded/ready'],
        ['/v2/models/unloaded/ready'],
        ['/v2/models/decoupled/infer', infer],
      ];
      const answer = async (base: string, path: string, init?: RequestInit) => {
        const r = await fetch(base + path, init);
        const body = await r.text();
        return { status: r.status, body: path.endsWith('/infer') && r.ok ? '(tensors)' : body, gzip: r.headers.get('content-encoding') };
      };
      for (const [path, init] of requests) expect(await answer(fixture.url, path, init), path).toEqual(await answer(url, path, init));
      // A served model's inference answer is gzipped when the client accepts it.
      expect((await answer(fixture.url, '/v2/models/add_one/infer', infer)).gzip).toBe((await answer(url, '/v2/models/add_one/infer', infer)).gzip);
      const index = async (base: string) =>
        ((await (await fetch(`${base}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as { name: string }[]).filter((e) =>
          ['never_loaded', 'unloaded'].includes(e.name),
        );
      expect(await index(fixture.url)).toEqual(await index(url));
    } finally {
      await fixture.stop();
    }
  }, 120_000);

  it("answers the rest of what the protocol fixture claims as the real server does: a refusal's whole answer, strict readiness, the index's order, a Python model's and a two-version model's metadata, verify's inference answers, a request without inputs, an unknown path, an unload of an unknown model", async () => {
    for (const m of ['add_one', 'two_versions', 'pipeline']) expect((await post(`/v2/repository/models/${m}/load`)).status, m).toBe(200);
    // The backend's reason for on_gpu, as the real server's index states it.
    const gpu = await post('/v2/repository/models/on_gpu/load');
    const reason = ((await (await fetch(`${url}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as { name: string; reason?: string }[]).find(
      (e) => e.name === 'on_gpu',
    )?.reason;
    expect(reason).toContain('has kind KIND_GPU but no GPUs are available');
    const own = async (m: string) => (await fetch(`${url}/v2/models/${m}/config`)).json() as Promise<Record<string, unknown>>;
    const fixture = await startProtocolFixture({
      explicit: true,
      // Listed out of order, and two_versions' versions too: the fixture answers in Triton's order.
      models: {
        two_versions: { config: await own('two_versions'), ready: true, versions: ['2', '1'] },
        pipeline: { config: await own('pipeline'), ready: true },
        add_one: { config: await own('add_one'), ready: true },
        on_gpu: { config: {}, ready: false },
        bad_batch: { config: {}, ready: false },
      },
      loadError: (name, override) =>
        name === 'on_gpu' && !override
          ? { level: 'backend', message: reason! }
          : name === 'bad_batch'
            ? { level: 'config', log: "'max_batch_size' must be non-negative value for bad_batch" }
            : undefined,
    });
    try {
      const answer = async (base: string, path: string, init?: RequestInit) => {
        const r = await fetch(base + path, init);
        const body = Buffer.from(await r.arrayBuffer());
        const headerLength = r.headers.get('inference-header-content-length');
        // An inference's tensors are the model's (the fixture's are zeros): the JSON header and the binary length.
        if (headerLength !== null)
          return {
            status: r.status,
            header: JSON.parse(body.subarray(0, Number(headerLength)).toString('utf8')),
            binaryBytes: body.length - Number(headerLength),
          };
        return { status: r.status, body: body.toString('utf8') };
      };
      const same = async (path: string, init?: RequestInit) => expect(await answer(fixture.url, path, init), path).toEqual(await answer(url, path, init));
      // A backend's refusal and a config core refuses, the whole answer.
      expect(await answer(fixture.url, '/v2/repository/models/on_gpu/load', { method: 'POST', body: '{}' })).toEqual({ status: gpu.status, body: gpu.text });
      await same('/v2/repository/models/bad_batch/load', { method: 'POST', body: '{}' });
      // Its reason is only in the log: the same line, but for the time and the process id.
      const line = (text: string) =>
        text
          .split('\n')
          .findLast((l) => l.includes("Poll failed for model directory 'bad_batch'"))
          ?.replace(/^E\d{4} [\d:.]+ +\d+ /, '');
      expect(line(fixture.log.join('\n'))).toBe(line(server!.log()));
      // Strict readiness: on_gpu's failed version makes the server not ready; models never loaded do not.
      await same('/v2/health/ready');
      await same('/v2/health/live');
      // GET /v2: the same fields; the fixture names itself, and its extensions are among the server's.
      const [mine, real] = await Promise.all(
        [fixture.url, url].map(async (b) => (await fetch(`${b}/v2`)).json() as Promise<{ name: string; version: string; extensions: string[] }>),
      );
      expect(Object.keys(mine!)).toEqual(Object.keys(real!));
      expect([real!.name, real!.version]).toEqual(['triton', '2.51.0']);
      expect(real!.extensions).toEqual(expect.arrayContaining(mine!.extensions));
      const index = async (base: string) =>
        ((await (await fetch(`${base}/v2/repository/index`, { method: 'POST', body: '{}' })).json()) as { name: string }[]).filter((e) =>
          ['add_one', 'on_gpu', 'pipeline', 'two_versions'].includes(e.name),
        );
      expect(await index(fixture.url)).toEqual(await index(url));
      // Metadata: a Python model's platform is its backend, an ensemble's its platform; versions ascending.
      for (const m of ['add_one', 'two_versions', 'pipeline', 'on_gpu', 'nosuch']) await same(`/v2/models/${m}`);
      // The inference requests verify sends (binary tensors, every output asked for as binary), at batch 1 and the max batch size:
      // the answering version (the latest READY one), the output shapes of a model that returns its input's shape.
      for (const [m, batch] of [
        ['add_one', 1],
        ['add_one', 8],
        ['two_versions', 1],
        ['two_versions', 8],
      ] as const) {
        const encoded = encodeInferRequest({ inputs: [{ name: 'INPUT0', datatype: 'FP32', shape: [batch, 4] }], outputs: ['OUTPUT0'] });
        await same(`/v2/models/${m}/infer`, {
          method: 'POST',
          body: encoded.body,
          headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(encoded.headerLength) },
        });
      }
      // A request without inputs (core's refusal), one without an "inputs" member, an unknown path, an unload of an unknown model.
      await same('/v2/models/add_one/infer', { method: 'POST', body: '{"inputs":[]}' });
      await same('/v2/models/add_one/infer', { method: 'POST', body: '{}' });
      await same('/v2/models/add_one/stats/nowhere');
      await same('/v2/repository/models/nosuch/unload', { method: 'POST', body: '{}' });
      await same('/v2/repository/models/nosuch/load', { method: 'POST', body: '{}' });
      // An unload of a model whose only version failed to load releases nothing: the failure stays, and
      // the server not ready.
      await same('/v2/repository/models/on_gpu/unload', { method: 'POST', body: '{}' });
      expect(await index(fixture.url)).toEqual(await index(url));
      await same('/v2/health/ready');
      // Once on_gpu loads (here: its config put on the CPU), the server is ready, bad_batch (never loaded) not counted.
      const cpu = { ...(await own('add_one')), name: 'on_gpu', instance_group: [{ kind: 'KIND_CPU', count: 1 }] };
      for (const base of [url, fixture.url])
        expect(
          (await fetch(`${base}/v2/repository/models/on_gpu/load`, { method: 'POST', body: JSON.stringify({ parameters: { config: JSON.stringify(cpu) } }) }))
            .status,
        ).toBe(200);
      expect(await index(fixture.url)).toEqual(await index(url));
      await same('/v2/health/ready');
    } finally {
      await fixture.stop();
    }
  }, 120_000);

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
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [4, true],
    ]);
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

  it('verify --runtime server: a refusal at load names the tensor (exit 1, mapped to the rule that catches it); the served model keeps its config', async () => {
    expect((await post('/v2/repository/models/add_one/load')).status).toBe(200);
    const served = await (await fetch(`${url}/v2/models/add_one/config`)).json();
    const local = join(tempDir('tritonc-real-local-'), 'add_one');
    mkdirSync(join(local, '1'), { recursive: true });
    writeFileSync(
      join(local, 'config.pbtxt'),
      CONFIG.replace('input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]', 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 0 ] } ]'),
    );
    writeFileSync(join(local, '1', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: url, timeoutMs: 60_000 });
    expect(r.exitCode, r.error).toBe(1);
    // Core's check at load (Model::Init, ValidateModelIOConfig): a 400 with the version UNAVAILABLE, as a backend's refusal is.
    const message =
      "load failed for model 'add_one': version 1 is at UNAVAILABLE state: Invalid argument: model input 'INPUT0' dimension must be integer >= 1, or -1 to indicate a variable-size dimension for add_one;";
    expect(r.tritonMessages).toEqual([{ text: message, ruleId: 'io-dims' }]);
    expect(r.problems).toEqual([{ kind: 'load', ruleId: 'io-dims', message: `Triton refused config.pbtxt: ${message}` }]);
    expect(r.notes).toEqual([
      "the server kept serving 'add_one' (version 1) with the config it had: a failed re-load does not take a serving model down",
      "'add_one' serves the config it served before (read back from /v2/models/add_one/config)",
    ]);
    expect(await (await fetch(`${url}/v2/models/add_one/config`)).json()).toEqual(served);
  }, 120_000);

  it('verify --runtime server --reference ort: the served outputs against ONNX Runtime on the same seeded inputs (tritonc runs the ONNX model itself: this server has no ONNX Runtime backend)', async () => {
    const { cli } = await import('../support/cli.js');
    // The ONNX model the Python models stand for: OUTPUT0 = INPUT0 + 1.
    const onnx = join(tempDir('tritonc-real-reference-'), 'add_one.onnx');
    await writeModel(
      onnx,
      onnxModel({
        name: 'add',
        node: [node('Add', ['INPUT0', 'one'], ['OUTPUT0'])],
        initializer: [floatTensor('one', [1], [1])],
        input: [tensorInfo('INPUT0', T.FLOAT, ['batch', 4])],
        output: [tensorInfo('OUTPUT0', T.FLOAT, ['batch', 4])],
      }),
    );
    const candidate = (m: string) => {
      const dir = join(tempDir('tritonc-real-local-'), m);
      mkdirSync(join(dir, '1'), { recursive: true });
      writeFileSync(join(dir, 'config.pbtxt'), CONFIG.replace('"add_one"', `"${m}"`));
      writeFileSync(join(dir, '1', 'model.py'), MODEL_PY);
      return dir;
    };
    const same = await cli([
      'verify',
      candidate('add_one'),
      '--server',
      url,
      '--reference',
      'ort',
      '--reference-model',
      onnx,
      '--format',
      'json',
      '--timeout',
      '60s',
    ]);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).reference).toMatchObject({
      against: 'ONNX Runtime (CPU)',
      batchSize: 1,
      outputs: [{ name: 'OUTPUT0', ok: true, maxAbsError: 0, mismatched: 0, elements: 4 }],
    });
    // The server's add_off adds 1.01 (the load API takes the model files from the server's repository).
    const off = await cli([
      'verify',
      candidate('add_off'),
      '--server',
      url,
      '--reference',
      'ort',
      '--reference-model',
      onnx,
      '--format',
      'json',
      '--timeout',
      '60s',
    ]);
    expect(off.code, off.stderr).toBe(1);
    const report = JSON.parse(off.stdout);
    expect(report.reference.outputs[0]).toMatchObject({ name: 'OUTPUT0', ok: false, mismatched: 4, elements: 4 });
    expect(report.reference.outputs[0].maxAbsError).toBeCloseTo(0.01, 5);
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'accuracy', tensor: 'OUTPUT0' })]);
    // A Python model has no ONNX file for the reference, and a --reference-model that is not there is
    // said before anything is loaded: exit 2, the server not asked to load.
    const before = (await post('/v2/repository/index')).text;
    const none = await cli(['verify', candidate('add_one'), '--server', url, '--reference', 'ort', '--timeout', '60s']);
    expect([none.code, none.stderr.trim()]).toEqual([
      2,
      expect.stringContaining('has none for Triton to load: give the ONNX it was made from with --reference-model FILE'),
    ]);
    const missing = await cli([
      'verify',
      candidate('add_one'),
      '--server',
      url,
      '--reference',
      'ort',
      '--reference-model',
      join(onnx, '..', 'nowhere.onnx'),
      '--timeout',
      '60s',
    ]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('nowhere.onnx: not a file')]);
    expect((await post('/v2/repository/index')).text).toBe(before);
  }, 120_000);

  it("resolve equals the server (GET /v2/models/<m>/config) field for field, for complete Python configs, an ensemble, and core's normalization", async () => {
    const { cli } = await import('../support/cli.js');
    for (const model of ['add_one', 'defaults', 'pipeline']) {
      expect((await post(`/v2/repository/models/${model}/load`)).status, model).toBe(200);
      const served = await (await fetch(`${url}/v2/models/${model}/config`)).json();
      // This server has no GPU: resolve for a host with none.
      // Told the server's release (24.10), resolve prints only the fields its schema has: no
      // ensemble_scheduling.max_inflight_requests (25.11), as the server prints none.
      const r = await cli(['resolve', join(repo, model), '--format', 'json', '--gpus', '0', '--triton-version', '24.10']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout), model).toEqual(served);
    }
  }, 120_000);

  it('resolve of a model.py whose auto_complete_config completes the config: read without running it, equal to what the server fills', async () => {
    const { cli } = await import('../support/cli.js');
    expect((await post('/v2/repository/models/auto/load')).status).toBe(200);
    const served = (await (await fetch(`${url}/v2/models/auto/config`)).json()) as {
      max_batch_size: number;
      input: { name: string }[];
      output: { name: string }[];
    };
    expect([served.max_batch_size, served.input.map((t: { name: string }) => t.name), served.output.map((t: { name: string }) => t.name)]).toEqual([
      8,
      ['INPUT0'],
      ['OUTPUT0'],
    ]);
    const r = await cli(['resolve', join(repo, 'auto'), '--format', 'json', '--gpus', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not known here');
    expect(JSON.parse(r.stdout)).toEqual(served);
  }, 120_000);

  it('verify --runtime server on a model with two versions served: both keep serving', async () => {
    expect((await post('/v2/repository/models/two_versions/load')).status).toBe(200);
    const local = join(tempDir('tritonc-real-local-'), 'two_versions');
    mkdirSync(join(local, '2'), { recursive: true });
    writeFileSync(
      join(local, 'config.pbtxt'),
      `${CONFIG.replace('"add_one"', '"two_versions"').replace('max_batch_size: 8', 'max_batch_size: 2')}version_policy { all { } }\n`,
    );
    writeFileSync(join(local, '2', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: url, timeoutMs: 60_000 });
    expect(r.outcome, r.error ?? JSON.stringify(r.problems)).toBe('ok');
    for (const v of ['1', '2']) expect((await fetch(`${url}/v2/models/two_versions/versions/${v}/ready`)).status, `version ${v}`).toBe(200);
    expect(((await (await fetch(`${url}/v2/models/two_versions/config`)).json()) as { max_batch_size: number }).max_batch_size).toBe(8);
  }, 120_000);
});

describe.skipIf(!runs)('the real tritonserver with --http-restricted-api', () => {
  let restricted: RealTriton | undefined;
  afterAll(() => restricted?.stop(), 30_000);

  it('verify without the key is exit 2 naming the header to pass; with --header it runs', async () => {
    const models = join(tempDir('tritonc-real-restricted-'), 'models');
    mkdirSync(join(models, 'add_one', '1'), { recursive: true });
    writeFileSync(join(models, 'add_one', 'config.pbtxt'), CONFIG);
    writeFileSync(join(models, 'add_one', '1', 'model.py'), MODEL_PY);
    restricted = await startRealTriton(models, ['--http-restricted-api=model-repository:admin-key=s3cret', '--load-model=add_one'], '/v2/models/add_one/ready');
    const base = restricted.url;
    // The refusal without the key, as the fixture answers it (http_server.cc RespondIfRestricted).
    const fixture = await startProtocolFixture({
      explicit: true,
      restricted: { header: 'admin-key', value: 's3cret' },
      models: { add_one: { config: {}, ready: true } },
    });
    try {
      const unload = async (b: string, headers: Record<string, string> = {}) => {
        const a = await fetch(`${b}/v2/repository/models/add_one/unload`, { method: 'POST', body: '{}', headers });
        return { status: a.status, body: await a.text() };
      };
      expect(await unload(fixture.url)).toEqual(await unload(base));
      expect(await unload(fixture.url, { 'admin-key': 'wrong' })).toEqual(await unload(base, { 'admin-key': 'wrong' }));
    } finally {
      await fixture.stop();
    }
    const r = await verifyModel({ modelDir: join(models, 'add_one'), runtime: 'server', server: base, timeoutMs: 60_000 });
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain("This API is restricted, expecting header 'admin-key'");
    expect(r.error).toContain('--header admin-key:<value>');
    const ok = await verifyModel({ modelDir: join(models, 'add_one'), runtime: 'server', server: base, timeoutMs: 60_000, headers: { 'admin-key': 's3cret' } });
    expect(ok.outcome, ok.error ?? JSON.stringify(ok.problems)).toBe('ok');
  }, 120_000);
});

describe.skipIf(!runs)('the real tritonserver without explicit model control (--model-control-mode=none)', () => {
  let none: RealTriton | undefined;
  afterAll(() => none?.stop(), 30_000);

  it('refuses a load as the fixture does (503), and verify checks the model as the server has it, saying the local config was not loaded', async () => {
    const models = join(tempDir('tritonc-real-none-'), 'models');
    mkdirSync(join(models, 'add_one', '1'), { recursive: true });
    writeFileSync(join(models, 'add_one', 'config.pbtxt'), CONFIG);
    writeFileSync(join(models, 'add_one', '1', 'model.py'), MODEL_PY);
    // start.sh's --model-control-mode=explicit, overridden by the later flag: every model is loaded at start.
    none = await startRealTriton(models, ['--model-control-mode=none'], '/v2/models/add_one/ready');
    const fixture = await startProtocolFixture({ explicit: false, models: { add_one: { config: {}, ready: true } } });
    try {
      const load = async (base: string) => {
        const r = await fetch(`${base}/v2/repository/models/add_one/load`, { method: 'POST', body: '{}' });
        return { status: r.status, body: await r.text() };
      };
      expect(await load(fixture.url)).toEqual(await load(none.url));
    } finally {
      await fixture.stop();
    }
    const local = join(tempDir('tritonc-real-local-'), 'add_one');
    mkdirSync(join(local, '1'), { recursive: true });
    writeFileSync(join(local, 'config.pbtxt'), CONFIG.replace('max_batch_size: 8', 'max_batch_size: 4'));
    writeFileSync(join(local, '1', 'model.py'), MODEL_PY);
    const r = await verifyModel({ modelDir: local, runtime: 'server', server: none.url, timeoutMs: 60_000 });
    expect(r.outcome, r.error ?? JSON.stringify(r.problems)).toBe('ok');
    expect(r.notes[0]).toContain('the server refuses explicit model loads ("explicit model load / unload is not allowed if polling is enabled")');
    expect(r.notes[0]).toContain('so the local config.pbtxt was NOT loaded');
    expect(r.runs.map((x) => x.batchSize)).toEqual([1, 8]);
    expect(r.configDiff).toContainEqual({ path: 'max_batch_size', change: 'changed', local: '4', effective: '8' });
  }, 120_000);
});

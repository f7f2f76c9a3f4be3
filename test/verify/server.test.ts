// verify --runtime server against the protocol fixture (fixtures/verify/protocol-fixture.ts: a local
// HTTP server that answers as Triton's HTTP endpoint does, each behaviour citing Triton's source; not
// Triton). Each test sets what the fixture answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startProtocolFixture, type ProtocolFixture, type ProtocolFixtureOptions } from '../../fixtures/verify/protocol-fixture.js';
import { verifyModel } from '../../src/verify/verify.js';
import { reportText } from '../../src/verify/report.js';
import type { VerifyReport } from '../../src/verify/types.js';
import { cli, tempDir } from '../support/cli.js';

const LOCAL = `name: "tiny"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 10 ] } ]
`;

/** The server's own config for the model (its repository's config.pbtxt, as Triton prints it). */
const SERVED = {
  name: 'tiny',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  max_batch_size: 4,
  input: [{ name: 'input', data_type: 'TYPE_FP32', format: 'FORMAT_NONE', dims: [3, 4, 4], optional: false }],
  output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [10], label_filename: '' }],
  version_policy: { latest: { num_versions: 1 } },
  instance_group: [{ name: 'tiny_0', kind: 'KIND_CPU', count: 1, gpus: [], profile: [], passive: false, host_policy: '' }],
};

/** What the fixture adds to a loaded config override (as a server's auto-complete would). */
const COMPLETES = {
  platform: 'onnxruntime_onnx',
  version_policy: { latest: { num_versions: 1 } },
  instance_group: [{ name: 'tiny_0', kind: 'KIND_CPU', count: 2 }],
};

function localModel(config = LOCAL): string {
  const dir = join(tempDir('tritonc-verify-server-'), 'tiny');
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), config);
  return dir;
}

let fixture: ProtocolFixture | undefined;
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
});

async function serve(options: Partial<ProtocolFixtureOptions> = {}): Promise<ProtocolFixture> {
  fixture = await startProtocolFixture({
    models: { tiny: { config: structuredClone(SERVED), ready: true } },
    explicit: true,
    completes: COMPLETES,
    ...options,
  });
  return fixture;
}

const verifyOn = (f: ProtocolFixture, dir = localModel()) => verifyModel({ modelDir: dir, runtime: 'server', server: f.url, timeoutMs: 5000 });

describe('verify --runtime server (explicit model control)', () => {
  it('a --reference-model that is not a file is exit 2 before the server is asked anything', async () => {
    const f = await serve();
    const r = await verifyModel({
      modelDir: localModel(),
      runtime: 'server',
      server: f.url,
      timeoutMs: 5000,
      reference: { modelFile: '/nonexistent/model.onnx' },
    });
    expect([r.exitCode, r.error]).toEqual([2, '--reference-model /nonexistent/model.onnx: not a file']);
    expect(f.paths()).toEqual([]);
  });

  it("loads the candidate config through the load API, checks it, and puts the server's model back", async () => {
    const f = await serve();
    const r = await verifyOn(f);
    expect(r.problems).toEqual([]);
    expect(r.outcome).toBe('ok');
    expect(r.engine).toBe(`protocol-fixture 2.0.0 at ${f.url}`);
    expect(f.paths()).toEqual([
      'GET /v2',
      'POST /v2/repository/index',
      'GET /v2/models/tiny/config',
      'POST /v2/repository/models/tiny/load',
      'GET /v2/models/tiny/ready',
      'GET /v2/models/tiny/config',
      'GET /v2/models/tiny',
      'POST /v2/models/tiny/infer',
      'POST /v2/models/tiny/infer',
      'GET /v2/models/tiny/config',
      'POST /v2/repository/models/tiny/load',
      'GET /v2/models/tiny/config',
    ]);
    // The candidate goes as the `config` parameter (protobuf JSON of config.pbtxt); the repository is untouched.
    const load = f.requests[3]!.json as { parameters: { config: string } };
    expect(JSON.parse(load.parameters.config)).toEqual({
      name: 'tiny',
      backend: 'onnxruntime',
      max_batch_size: 8,
      input: [{ name: 'input', data_type: 'TYPE_FP32', dims: ['3', '4', '4'] }],
      output: [{ name: 'output', data_type: 'TYPE_FP32', dims: ['10'] }],
    });
    // Put back with the config the server served before, read back and equal to it.
    expect(JSON.parse((f.requests.at(-2)!.json as { parameters: { config: string } }).parameters.config)).toEqual(SERVED);
    expect(f.options.models.tiny!.config).toEqual(SERVED);
    expect(r.notes).toContain(
      "'tiny' was put back with the config it served before (loaded as the override, read back from /v2/models/tiny/config and equal to it)",
    );
    expect(r.runs.map((x) => [x.batchSize, x.ok, x.inputs[0]!.shape, x.outputs[0]!.shape])).toEqual([
      [1, true, [1, 3, 4, 4], [1, 10]],
      [8, true, [8, 3, 4, 4], [8, 10]],
    ]);
    expect(r.configDiff).toEqual([
      { path: 'platform', change: 'added', effective: '"onnxruntime_onnx"' },
      { path: 'version_policy.latest.num_versions', change: 'added', effective: '1' },
      { path: 'instance_group[0].name', change: 'added', effective: '"tiny_0"' },
      { path: 'instance_group[0].kind', change: 'added', effective: '"KIND_CPU"' },
      { path: 'instance_group[0].count', change: 'added', effective: '2' },
    ]);
    const text = reportText(r);
    expect(text).toContain('    + instance_group[0].kind: "KIND_CPU"');
    expect(text).toContain('ok: tiny loaded and answered at batch 1 and 8 as configured');
  });

  it("reports a refused load with Triton's message mapped to the rule id, and restores the model", async () => {
    const message =
      "load failed for model 'tiny': version 1 is at UNAVAILABLE state: Invalid argument: model 'tiny', tensor 'input': the model expects 4 dimensions (shape [-1,3,4,4]) but the model configuration specifies 5 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,1,3,4,4]);\n";
    const f = await serve({
      loadError: (_n, config) =>
        config && config.max_batch_size === 8
          ? message.replace(/^load failed for model 'tiny': version 1 is at UNAVAILABLE state: /, '').replace(/;\n$/, '')
          : undefined,
    });
    const r = await verifyOn(f, localModel(LOCAL.replace('dims: [ 3, 4, 4 ]', 'dims: [ 1, 3, 4, 4 ]')));
    expect(r.exitCode).toBe(1);
    expect(r.load).toEqual({ ok: false, detail: message.trim() });
    expect(r.tritonMessages).toEqual([{ text: message.trim(), ruleId: 'batch-dim-in-dims' }]);
    expect(r.problems).toEqual([{ kind: 'load', ruleId: 'batch-dim-in-dims', message: `Triton refused config.pbtxt: ${message.trim()}` }]);
    expect(r.runs).toEqual([]);
    // A failed re-load leaves the served version serving (model_lifecycle.cc): verify says so, and only reads the config back.
    expect(r.notes).toContain("the server kept serving 'tiny' (version 1) with the config it had: a failed re-load does not take a serving model down");
    expect(r.notes).toContain("'tiny' serves the config it served before (read back from /v2/models/tiny/config)");
    expect(f.paths().at(-1)).toBe('GET /v2/models/tiny/config');
    const text = reportText(r);
    expect(text).toContain(`  Triton said:\n    ${message.trim()} [batch-dim-in-dims]\n`);
    expect(text).toContain('error: Triton refused to load tiny; tritonc lint catches the lines marked with a rule id before a load\ntiny: 1 problem (exit 1)');
  });

  it('unloads the model afterwards when it was not loaded before', async () => {
    const f = await serve({ models: { tiny: { config: structuredClone(SERVED), ready: false, state: 'UNAVAILABLE', reason: 'unloaded' } } });
    const r = await verifyOn(f);
    expect(r.outcome).toBe('ok');
    expect(f.paths().slice(-3)).toEqual(['POST /v2/repository/models/tiny/unload', 'GET /v2/models/tiny/ready', 'POST /v2/repository/index']);
    expect(r.notes).toContain("'tiny' was unloaded afterwards (it was not loaded before)");
  });

  it('finds a model that fails at batch > 1, and outputs of the wrong shape or type', async () => {
    const batchOne = await serve({
      inferError: (_n, b) =>
        b > 1
          ? "onnx runtime error 2: Non-zero status code returned while running Reshape node. Name:'r' Status Message: The input tensor cannot be reshaped to the requested shape. Input shape:{8,48}, requested shape:{1,48}"
          : undefined,
    });
    const r = await verifyOn(batchOne);
    expect(r.exitCode).toBe(1);
    expect(r.runs.map((x) => x.ok)).toEqual([true, false]);
    expect(r.problems.map((p) => p.message)).toEqual([
      "the inference at batch 8 failed (inputs 'input' [8,3,4,4]): Triton: onnx runtime error 2: Non-zero status code returned while running Reshape node. Name:'r' Status Message: The input tensor cannot be reshaped to the requested shape. Input shape:{8,48}, requested shape:{1,48}",
      'the model answers at batch 1 but fails at batch 8: its graph likely hard-codes batch 1 behind the dynamic batch axis. Re-export it with the batch dim kept dynamic, or set max_batch_size: 1',
    ]);
    await batchOne.stop();

    const wrong = await serve({ outputShape: (_o, b) => [b, 12], outputDatatype: () => 'FP16' });
    const w = await verifyOn(wrong);
    expect(w.exitCode).toBe(1);
    expect(w.problems.map((p) => p.message)).toContain(
      "output 'output' at batch 8: the model returned shape [8,12], config.pbtxt declares [-1,10] ([-1] + dims [10])",
    );
    expect(w.problems.map((p) => p.message)).toContain(
      "output 'output' at batch 1: the model returned TYPE_FP16, config.pbtxt declares TYPE_FP32; set data_type: TYPE_FP16",
    );
  });

  it('rejects a malformed effective config with a clear message (exit 2, not blamed on the config)', async () => {
    const f = await serve({ override: (r) => (r.path === '/v2/models/tiny/config' ? [200, { name: 'tiny', max_batch_size: '8' }] : undefined) });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toBe(
      "reading the config 'tiny' is served with (to put it back afterwards): GET /v2/models/tiny/config: the answer is not what the KServe v2 protocol documents: max_batch_size: Invalid input: expected number, received string",
    );
    // Nothing was loaded: the server is as it was.
    expect(f.paths().some((p) => p.endsWith('/load'))).toBe(false);
  });

  it('says so when a load needs a GPU the server does not have (exit 2)', async () => {
    const f = await serve({
      loadError: () =>
        "load failed for model 'tiny': version 1 is at UNAVAILABLE state: Invalid argument: instance group tiny_0 of model tiny has kind KIND_GPU but no GPUs are available;",
    });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain("the server cannot load 'tiny' on this machine:");
  });
});

describe('verify --runtime server: a decoupled model', () => {
  it('loads and checks it, sends no /infer (Triton refuses decoupled models there), and says why', async () => {
    const decoupled = { ...structuredClone(SERVED), model_transaction_policy: { decoupled: true } };
    const f = await serve({ models: { tiny: { config: decoupled, ready: true } } });
    const r = await verifyOn(f, localModel(`${LOCAL}model_transaction_policy { decoupled: true }\n`));
    expect(r.problems).toEqual([]);
    expect(r.runs).toEqual([]);
    expect(f.paths().filter((p) => p.endsWith('/infer'))).toEqual([]);
    expect(r.notes.join('\n')).toContain("tiny is decoupled: Triton's HTTP /infer and gRPC ModelInfer do not serve decoupled models");
    expect(reportText(r)).toContain('gRPC streaming (ModelStreamInfer)');
  });
});

describe('verify --runtime server (no explicit model control)', () => {
  it('says plainly that the local config was not loaded, and checks the model as the server has it', async () => {
    const f = await serve({ explicit: false });
    const r = await verifyOn(f);
    // Said when it fails (once under the full suite's load, not reproduced alone): what stopped the run.
    expect(r.outcome, JSON.stringify({ error: r.error, problems: r.problems, notes: r.notes })).toBe('ok');
    expect(r.notes[0]).toContain('the server refuses explicit model loads ("explicit model load / unload is not allowed if polling is enabled")');
    expect(r.notes[0]).toContain('so the local config.pbtxt was NOT loaded');
    // Requests follow what the server runs (max_batch_size 4), and the diff shows how it differs.
    expect(r.runs.map((x) => x.batchSize)).toEqual([1, 4]);
    expect(r.configDiff).toContainEqual({ path: 'max_batch_size', change: 'changed', local: '8', effective: '4' });
    expect(r.notes).toContain("Triton runs tiny with max_batch_size 4 (config.pbtxt: 8); the inferences use Triton's value");
    expect(f.paths().filter((p) => p.includes('/repository/models/'))).toEqual(['POST /v2/repository/models/tiny/load']);
  });

  it('cannot check a model the server has not loaded and will not load (exit 2)', async () => {
    const f = await serve({ explicit: false, models: { tiny: { config: structuredClone(SERVED), ready: false, state: 'UNAVAILABLE', reason: 'unloaded' } } });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toBe(`'tiny' is not loaded on ${f.url} and the server refuses explicit loads, so there is nothing to check`);
  });
});

describe('verify --runtime server: could not run (exit 2)', () => {
  it('an unreachable server', async () => {
    const f = await serve();
    const url = f.url;
    await f.stop();
    fixture = undefined;
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: url });
    expect(r).toMatchObject({ outcome: 'cannot-run', exitCode: 2 });
    expect(r.error).toBe(`cannot reach ${url} (ECONNREFUSED). Start Triton, or check --server (Triton serves HTTP on port 8000 by default)`);
  });

  it('something that is not a KServe v2 server', async () => {
    const f = await serve({ override: (r) => (r.path === '/v2' ? [404, 'Not Found'] : undefined) });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain(`${f.url} does not answer as a KServe v2 HTTP server: GET /v2: HTTP 404: (not a KServe error body) "Not Found"`);
  });

  it("a model the server's repository does not hold", async () => {
    const f = await serve({ models: { other: { config: {}, ready: true } } });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain("the server's model repository has no model 'tiny' (it has: other)");
    expect(f.paths().some((p) => p.includes('/load'))).toBe(false);
  });
});

describe('verify --runtime server leaves the server as it found it', () => {
  it('a plain reload would keep the candidate (override stamping): the restore loads the served config back and reads it back', async () => {
    const f = await serve();
    // What Triton does, and why a plain reload is not a restore (qa/L0_lifecycle): load an override, then a plain load.
    const { KServeClient } = await import('../../src/verify/kserve-client.js');
    const c = new KServeClient(f.url);
    await c.loadModel('tiny', { name: 'tiny', max_batch_size: 2 });
    await c.loadModel('tiny');
    expect((await c.modelConfig('tiny')).raw).toMatchObject({ max_batch_size: 2 });
    // After an unload the repository's config comes back.
    await c.unloadModel('tiny');
    await c.loadModel('tiny');
    expect((await c.modelConfig('tiny')).raw).toEqual(SERVED);

    const r = await verifyOn(f);
    expect(r.outcome).toBe('ok');
    expect(f.options.models.tiny!.config).toEqual(SERVED);
  });

  it('a load that takes longer than the default request timeout is waited for (the load has its own)', async () => {
    const f = await serve({ loadDelayMs: 1200 });
    const { KServeClient } = await import('../../src/verify/kserve-client.js');
    const c = new KServeClient(f.url, { timeoutMs: 300 });
    await expect(c.loadModel('tiny', undefined, 5000)).resolves.toBeUndefined();
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 5000 });
    expect(r.outcome).toBe('ok');
  });

  it('a load past --timeout is exit 2; the restore, which Triton runs once that load is done, puts the model back, read back equal', async () => {
    const f = await serve({ loadDelayMs: 800 });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 300 });
    expect(r.exitCode).toBe(2);
    // The restore is sent even though the config still read as before: the candidate's load was still running.
    const loads = f.requests.filter((q) => q.path.endsWith('/load')).map((q) => JSON.parse((q.json as { parameters: { config: string } }).parameters.config));
    expect(loads.map((l) => l.max_batch_size)).toEqual([8, 4]);
    // It waited for the candidate's load (the restore has --timeout, and at least 30 s), and read the config back.
    expect(f.options.models.tiny!.config).toEqual(SERVED);
    const putBack =
      "'tiny' was put back with the config it served before (loaded as the override after the candidate's load had finished, read back from /v2/models/tiny/config and equal to it)";
    expect(r.notes).toContain(putBack);
    expect(r.error).toBe(
      `the load did not finish within the timeout (POST /v2/repository/models/tiny/load: no answer from ${f.url} within 0.3 s); Triton cannot cancel a load, so it goes on in the server; raise --timeout; ${putBack}`,
    );
    expect(r.problems).toEqual([]);
  });

  it("a restore still queued behind the candidate's load when its time is up: a restore problem says so, how to check, and what to run", async () => {
    const f = await serve({ loadDelayMs: 600 });
    const { runServer } = await import('../../src/verify/server-runner.js');
    const { prepareVerify } = await import('../../src/verify/plan.js');
    const { EventEmitter } = await import('node:events');
    const dir = localModel();
    const r: VerifyReport = {
      runtime: 'server',
      model: 'tiny',
      modelDir: dir,
      configPath: '',
      outcome: 'ok',
      exitCode: 0,
      runs: [],
      problems: [],
      notes: [],
      triton: { release: '26.08', server: '2.72.0' },
    };
    const run = runServer(prepareVerify(dir, process.cwd()), r, { url: f.url, timeoutMs: 200, restoreTimeoutMs: 300, signals: new EventEmitter() });
    await expect(run).rejects.toThrow(
      "raise --timeout; 'tiny' is not back yet: Triton runs the restore verify sent once the candidate's load is done (the restore error says how to check)",
    );
    expect(r.problems).toEqual([
      {
        kind: 'restore',
        message: expect.stringContaining(
          "'tiny' is not back yet: the load of the config it served before (as the override) was sent, and Triton runs it once the candidate's load is done, which it had not been within 0.3 s",
        ),
      },
    ]);
    expect(r.problems[0]!.message).toContain(
      `See what it serves with: curl ${f.url}/v2/models/tiny/config; if it still serves config.pbtxt's config once the load is done, put it back from its repository with: curl -X POST ${f.url}/v2/repository/models/tiny/unload, then curl -X POST ${f.url}/v2/repository/models/tiny/load`,
    );
    // As it says: the server runs the queued restore once the candidate's load is done (600 ms each);
    // waited for, not timed (the bound is on a hang).
    await vi.waitFor(() => expect(f.options.models.tiny!.config).toEqual(SERVED), { timeout: 60_000, interval: 50 });
  });

  it('an inference past --timeout: exit 2, and the reload answers without waiting for the inference in flight', async () => {
    // The inference never answers: verify ends only if the reload does not wait for it (the test's timeout bounds a hang).
    const f = await serve({ raw: (req) => req.path === '/v2/models/tiny/infer' });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 300 });
    expect(r.exitCode).toBe(2);
    const putBack = "'tiny' was put back with the config it served before (loaded as the override, read back from /v2/models/tiny/config and equal to it)";
    expect(r.error).toBe(`inference at batch 1: POST /v2/models/tiny/infer: no answer from ${f.url} within 0.3 s; ${putBack}`);
    expect(r.notes).toContain(putBack);
    expect(f.options.models.tiny!.config).toEqual(SERVED);
  });

  it('an inference past --timeout on a model that was not loaded: the unload answers at once, and the model is UNLOADING until the inference is done', async () => {
    // An inference that outlasts the test (10 minutes): the model is UNLOADING whatever the machine's load.
    const f = await serve({ inferDelayMs: 600_000, models: { tiny: { config: structuredClone(SERVED), ready: false } } });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 300 });
    expect(r.exitCode).toBe(2);
    const unloading =
      "'tiny' is being unloaded (it was not loaded before): Triton finishes an unload once the model has answered the requests it is still running";
    expect(r.notes).toContain(unloading);
    expect(r.error).toContain(`; ${unloading}`);
    const { KServeClient } = await import('../../src/verify/kserve-client.js');
    expect(await new KServeClient(f.url).repositoryIndex()).toEqual([{ name: 'tiny', version: '1', state: 'UNLOADING' }]);
  });

  it('Ctrl-C during the checks: exit 130, and the model is put back', async () => {
    const { EventEmitter } = await import('node:events');
    const signals = new EventEmitter();
    const f = await serve({
      inferError: () => {
        signals.emit('SIGINT');
        return undefined;
      },
    });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 5000, deps: { signals: signals } });
    expect(r.outcome).toBe('interrupted');
    expect(r.exitCode).toBe(130);
    expect(r.error).toBe(
      "interrupted by SIGINT; 'tiny' was put back with the config it served before (loaded as the override, read back from /v2/models/tiny/config and equal to it)",
    );
    expect(f.options.models.tiny!.config).toEqual(SERVED);
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });

  it('Ctrl-C during the load: exit 130; the restore waits for that load, then puts the model back', async () => {
    const { EventEmitter } = await import('node:events');
    const signals = new EventEmitter();
    const f = await serve({ loadDelayMs: 500 });
    setTimeout(() => signals.emit('SIGINT'), 200);
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 5000, deps: { signals: signals } });
    expect([r.outcome, r.exitCode]).toEqual(['interrupted', 130]);
    expect(r.error).toBe(
      "interrupted by SIGINT; 'tiny' was put back with the config it served before (loaded as the override after the candidate's load had finished, read back from /v2/models/tiny/config and equal to it)",
    );
    expect(f.options.models.tiny!.config).toEqual(SERVED);
  });

  it('Ctrl-C before anything was loaded: exit 130, and nothing to put back', async () => {
    const { EventEmitter } = await import('node:events');
    const signals = new EventEmitter();
    const f = await serve({ override: (q) => (q.path === '/v2/repository/index' ? (signals.emit('SIGINT'), undefined) : undefined) });
    const r = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 5000, deps: { signals: signals } });
    expect([r.outcome, r.exitCode]).toEqual(['interrupted', 130]);
    expect(r.error).toBe('interrupted by SIGINT; nothing was loaded on the server');
    expect(f.paths().some((p) => /\/(load|unload)$/.test(p))).toBe(false);
  });

  it('a version that is not available listed before one that serves: the model is serving, and is reloaded, not unloaded', async () => {
    const f = await serve({
      models: {
        tiny: {
          config: structuredClone(SERVED),
          ready: true,
          versionStates: [
            { version: '1', state: 'UNAVAILABLE', reason: 'unloaded' },
            { version: '2', state: 'READY' },
          ],
        },
      },
    });
    const r = await verifyOn(f);
    expect(r.outcome).toBe('ok');
    expect(f.paths()).not.toContain('POST /v2/repository/models/tiny/unload');
    expect(f.options.models.tiny!.ready).toBe(true);
  });

  it('a refusal the server does not explain ("failed to poll") gets tritonc lint\'s finding as the likely reason', async () => {
    const f = await serve({
      loadError: (_n, config) => (config ? { level: 'config', log: "'max_batch_size' must be non-negative value for tiny" } : undefined),
    });
    const r = await verifyOn(f, localModel(LOCAL.replace('max_batch_size: 8', 'max_batch_size: -2')));
    expect(r.exitCode).toBe(1);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'max-batch-size' });
    expect(r.problems[0]!.message).toMatch(
      /^Triton refused config\.pbtxt \("failed to load 'tiny', failed to poll from model repository"\); the server's answer gives no reason \(it logs it\)\. The likely reason, from linting config\.pbtxt with the server's flags: .*config\.pbtxt:3:17 max-batch-size: /,
    );
    // The server's log has the reason the answer did not.
    expect(f.log[0]).toContain("'max_batch_size' must be non-negative value for tiny");
  });

  it('the text report shows the lint finding that explains a refusal the server did not explain, and marks it', async () => {
    const f = await serve({
      loadError: (_n, config) => (config ? { level: 'config', log: 'dynamic batching preferred size must be <= max batch size for tiny' } : undefined),
    });
    const r = await verifyOn(f, localModel(`${LOCAL}dynamic_batching { preferred_batch_size: [ 16 ] }\n`));
    expect(r.exitCode).toBe(1);
    const text = reportText(r);
    expect(text).toMatch(
      /error: Triton refused config\.pbtxt .*The likely reason, from linting config\.pbtxt with the server's flags: .*config\.pbtxt:6:\d+ preferred-batch-size: .* \[preferred-batch-size\]/,
    );
    expect(text).toContain('error: Triton refused to load tiny; tritonc lint catches the lines marked with a rule id before a load');
  });

  it('a restricted API is exit 2 with how to pass the header, and works with --header', async () => {
    const f = await serve({ restricted: { header: 'admin-key', value: 's3cret' } });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain("This API is restricted, expecting header 'admin-key'");
    expect(r.error).toContain('--header admin-key:<value>');
    const ok = await verifyModel({ modelDir: localModel(), runtime: 'server', server: f.url, timeoutMs: 5000, headers: { 'admin-key': 's3cret' } });
    expect(ok.outcome).toBe('ok');
  });
});

describe('verify --runtime server: input sizes', () => {
  it('a failure at batch 1 is "could not check at these sizes" (exit 2), and the model is put back', async () => {
    const f = await serve({
      inferError: (_n, b) =>
        b === 1
          ? "onnx runtime error 2: Non-zero status code returned while running Conv node. Name:'conv' Status Message: Invalid input shape: {1}"
          : undefined,
    });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain('could not check the model at these input sizes: it fails at batch 1');
    expect(r.problems).toEqual([]);
    expect(f.options.models.tiny!.config).toEqual(SERVED);
  });
});

describe('verify --runtime server: a restore that fails', () => {
  const failsAtBatch1 = (_n: string, b: number) => (b === 1 ? 'onnx runtime error 2: Invalid input shape: {1}' : undefined);
  // The served config loaded back as the override is refused (the fixture answers a failed load as Triton does).
  const refusesServedOverride = (_n: string, config: Record<string, unknown> | undefined) =>
    config && config.max_batch_size === SERVED.max_batch_size ? 'load failed: out of memory' : undefined;

  it('the override restore is refused: the unload-and-load fallback is tried, and puts the model back', async () => {
    const f = await serve({ inferError: failsAtBatch1, loadError: refusesServedOverride });
    const r = await verifyOn(f);
    expect(r.exitCode).toBe(2);
    expect(f.paths().filter((p) => /\/(load|unload)$/.test(p))).toEqual([
      'POST /v2/repository/models/tiny/load',
      'POST /v2/repository/models/tiny/load',
      'POST /v2/repository/models/tiny/unload',
      'POST /v2/repository/models/tiny/load',
    ]);
    expect(f.options.models.tiny!.config).toEqual(SERVED);
    expect(r.notes.join('\n')).toContain(
      "'tiny' was unloaded and loaded again from the server's repository (loading the served config back as an override did not: POST /v2/repository/models/tiny/load: HTTP 400: load failed for model 'tiny'",
    );
    expect(r.problems.filter((p) => p.kind === 'restore')).toEqual([]);
  });

  it('when nothing puts it back, every format says so with the command that does, the text output of a run that could not check included', async () => {
    const dir = localModel();
    const broken = {
      inferError: failsAtBatch1,
      loadError: (n: string, config: Record<string, unknown> | undefined) =>
        refusesServedOverride(n, config) ?? (config === undefined ? 'load failed: the repository is gone' : undefined),
    };
    let f = await serve(broken);
    const text = await cli(['verify', dir, '--runtime', 'server', '--server', f.url, '--timeout', '5s']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('could not check the model at these input sizes');
    expect(text.stderr).toMatch(
      /tritonc verify: error: could not put 'tiny' back as it was \(.*\); put it back from its repository with: curl -X POST http:\/\/127\.0\.0\.1:\d+\/v2\/repository\/models\/tiny\/unload, then curl -X POST http:\/\/127\.0\.0\.1:\d+\/v2\/repository\/models\/tiny\/load/,
    );
    expect(text.stderr).toContain("; 'tiny' could not be put back as it was (the restore error says what to run)");
    // The same server afresh (the first run left it without the model).
    await f.stop();
    f = await serve(broken);
    const json = await cli(['verify', dir, '--runtime', 'server', '--server', f.url, '--timeout', '5s', '--format', 'json']);
    expect(JSON.parse(json.stdout).problems).toEqual([
      expect.objectContaining({ kind: 'restore', message: expect.stringContaining('put it back from its repository with: curl -X POST') }),
    ]);
  });
});

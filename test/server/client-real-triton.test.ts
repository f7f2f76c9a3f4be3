// The generated TypeScript clients (tritonc client --lang typescript) against the real tritonserver
// 2.51 (Python backend, CPU; scripts/real-triton/setup.sh makes its venv): infer, a split batch, BYTES
// in and out, a sequence, a shape refused before sending and a 400 not retried, a timeout, a transient
// failure retried, not-ready while the model reloads, and a decoupled model (which Triton's HTTP
// endpoint refuses with 501, as the client says). Without the venv the suite is skipped with one line.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { freePorts } from '../../src/verify/ports.js';
import { compileClients } from '../support/client-compile.js';
import { CLIENT_MODELS, writeModels, rejection, DRIFTED_MODELS, PROTO_MODEL, PROTO_NAMES } from '../support/client-models.js';

/** The models this suite serves: the clients' own, and one whose tensors are named like Object.prototype's keys. */
const SERVED = { ...CLIENT_MODELS, [PROTO_MODEL]: PROTO_NAMES };
import { realTritonRuns, VENV } from '../support/real-triton.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs = realTritonRuns('generated clients against the real Triton');

type Tensor = { data: unknown; shape?: readonly number[] };
interface Client {
  infer(inputs: Record<string, Tensor>, options?: Record<string, unknown>): Promise<Record<string, { data: unknown; shape: number[] }>>;
}
type Module = { connect(url: string, options?: Record<string, unknown>): Promise<Client>; decodeStrings(d: Uint8Array[]): string[] };

let server: ChildProcess | undefined;
let url = '';
let log = '';
const modules: Record<string, Module> = {};
const shmPrefix = `tritonc_client_${process.pid}_`;

const post = (path: string) => fetch(`${url}${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });

describe.skipIf(!runs)('generated TypeScript clients against the real tritonserver 2.51', () => {
  beforeAll(async () => {
    const dir = tempDir('tritonc-client-real-');
    const repo = join(dir, 'models');
    writeModels(repo, SERVED);
    const drifted = join(dir, 'drifted');
    writeModels(drifted, DRIFTED_MODELS);
    const gen = join(dir, 'gen');
    mkdirSync(gen);
    const files: string[] = [];
    for (const [from, prefix] of [
      [repo, ''],
      [drifted, 'drifted_'],
    ] as const) {
      const run = clientRun(from);
      if ('error' in run) throw new Error(run.error);
      for (const f of run.files.filter((x) => x.name !== 'index.ts')) {
        writeFileSync(join(gen, prefix + f.name), f.text);
        files.push(prefix + f.name);
      }
    }
    writeFileSync(join(gen, 'package.json'), '{ "type": "module" }\n');
    const compiled = compileClients(gen, files);
    expect(compiled.errors).toEqual({});
    for (const f of files) modules[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(compiled.outDir, f.replace(/\.ts$/, '.js'))).href)) as Module;

    const [http, grpc] = await freePorts(2);
    url = `http://127.0.0.1:${http}`;
    const load = Object.keys(SERVED).map((m) => `--load-model=${m}`);
    server = spawn('bash', [join(ROOT, 'scripts', 'real-triton', 'start.sh'), repo, String(http), String(grpc), 'off', ...load], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRITON_VENV: VENV, TRITON_SHM_PREFIX: shmPrefix },
    });
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const until = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`${url}/v2/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error(`tritonserver did not get ready:\n${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 240_000);

  afterAll(async () => {
    if (server?.pid) {
      const exited = new Promise<void>((r) => server!.once('exit', () => r()));
      try {
        process.kill(-server.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (existsSync('/dev/shm')) for (const f of readdirSync('/dev/shm')) if (f.startsWith(shmPrefix)) rmSync(join('/dev/shm', f), { force: true });
  }, 30_000);

  it('infers, and splits a batch of 20 into requests of at most max_batch_size 8, joining the outputs in order', async () => {
    const c = await modules.add_one!.connect(url);
    const one = await c.infer({ INPUT0: { data: new Float32Array([1, 2, 3, 4]), shape: [1, 4] } });
    expect(one.OUTPUT0).toEqual({ data: new Float32Array([2, 3, 4, 5]), shape: [1, 4] });
    const data = Float32Array.from({ length: 80 }, (_, i) => i);
    let requests = 0;
    const counted = await modules.add_one!.connect(url, { fetch: (u: string, init: RequestInit) => (u.endsWith('/infer') && requests++, fetch(u, init)) });
    const big = await counted.infer({ INPUT0: { data, shape: [20, 4] } });
    expect(requests).toBe(3);
    expect(big.OUTPUT0!.shape).toEqual([20, 4]);
    expect(big.OUTPUT0!.data).toEqual(data.map((x) => x + 1));
  });

  it('an ensemble is one model: its client sends IN and gets OUT (add_one twice)', async () => {
    const c = await modules.pipeline!.connect(url);
    const out = await c.infer({ IN: { data: new Float32Array([1, 2, 3, 4, 5, 6, 7, 8]), shape: [2, 4] } });
    expect(out.OUT).toEqual({ data: new Float32Array([3, 4, 5, 6, 7, 8, 9, 10]), shape: [2, 4] });
  });

  it('BYTES in and out: strings sent length-prefixed, byte strings back, INT64 as BigInt64Array', async () => {
    const c = await modules.upper!.connect(url);
    const out = await c.infer({ TEXT: { data: ['hello', 'wörld'], shape: [1, 2] } });
    // Python's bytes.upper() changes ASCII letters only.
    expect(modules.upper!.decodeStrings(out.UPPER!.data as Uint8Array[])).toEqual(['HELLO', 'WöRLD']);
    expect(out.UPPER!.shape).toEqual([1, 2]);
    expect(out.LENGTHS).toEqual({ data: new BigInt64Array([5n, 6n]), shape: [1, 2] });
  });

  it("inputs named like Object.prototype's keys: those left out are not sent, the model sums those given", async () => {
    const c = await modules[PROTO_MODEL]!.connect(url);
    const one = (v: number) => ({ data: new Int32Array([v, v + 1]), shape: [2, 1] });
    const two = await c.infer({ ['__proto__']: one(1), hasOwnProperty: one(10) });
    expect(Object.getOwnPropertyDescriptor(two, 'constructor')!.value).toEqual({ data: new Int32Array([11, 13]), shape: [2, 1] });
    const four = await c.infer({ ['__proto__']: one(1), hasOwnProperty: one(10), constructor: one(100), toString: one(1000) });
    expect(Object.getOwnPropertyDescriptor(four, 'constructor')!.value.data).toEqual(new Int32Array([1111, 1115]));
  });

  it('a sequence model: the correlation id and start/end flags reach the model (START control, correlation_id())', async () => {
    const c = await modules.counter!.connect(url);
    const step = async (id: number, value: number, flags: { start?: boolean; end?: boolean } = {}) =>
      Array.from((await c.infer({ VALUE: { data: new Int32Array([value]), shape: [1, 1] } }, { sequence: { id, ...flags } })).TOTAL!.data as Int32Array);
    expect(await step(42, 1, { start: true })).toEqual([1]);
    expect(await step(42, 2)).toEqual([3]);
    expect(await step(43, 10, { start: true })).toEqual([10]);
    expect(await step(42, 3, { end: true })).toEqual([6]);
    expect(await step(43, 5, { end: true })).toEqual([15]);
  });

  it('a wrong shape is refused before sending, naming the input; what the server refuses (400) is not retried', async () => {
    const c = await modules.add_one!.connect(url);
    const before = await rejection(c.infer({ INPUT0: { data: new Float32Array(5), shape: [1, 5] } }));
    expect([before.name, before.input]).toEqual(['InvalidInput', 'INPUT0']);
    expect(before.message).toBe('input "INPUT0": shape [1, 5] does not match the model\'s [batch, 4] (the batch axis first: max_batch_size is 8)');
    // The drifted client (dims [-1]) would send it: connect tells the drift, and without that check the server refuses it once.
    const mismatch = await rejection(modules.drifted_add_one!.connect(url));
    expect(mismatch.name).toBe('ModelMismatch');
    expect(mismatch.message).toContain('input "INPUT0" has shape [-1, 4] there, [batch, any] here');
    let requests = 0;
    const drifted = await modules.drifted_add_one!.connect(url, {
      checkMetadata: false,
      fetch: (u: string, init: RequestInit) => (u.endsWith('/infer') && requests++, fetch(u, init)),
    });
    const refused = await rejection(drifted.infer({ INPUT0: { data: new Float32Array(5), shape: [1, 5] } }, { retries: 3 }));
    expect([refused.name, refused.status, refused.input, refused.attempts, requests]).toEqual(['InvalidInput', 400, 'INPUT0', 1, 1]);
    expect(refused.message).toContain("unexpected shape for input 'INPUT0' for model 'add_one'. Expected [-1,4], got [1,5]");
  });

  it('a call past its timeout is a Timeout', async () => {
    const c = await modules.slow!.connect(url);
    // The model answers after 3 s: a Timeout, not its answer, says the call ended at its own 500 ms.
    const e = await rejection(c.infer({ SECONDS: { data: new Float32Array([3]) } }, { timeoutMs: 500 }));
    expect(e.name).toBe('Timeout');
    expect(e.message).toContain('no answer within 500 ms');
    // The model itself answers in time when given it.
    const ok = await c.infer({ SECONDS: { data: new Float32Array([0]) } }, { timeoutMs: 20_000 });
    expect(ok.DONE!.shape).toEqual([1]);
  }, 30_000);

  it('a transient failure (a connection reset) is retried with backoff, and the retry answers', async () => {
    let calls = 0;
    const flaky = (u: string, init: RequestInit): Promise<Response> => {
      if (u.endsWith('/infer') && calls++ === 0)
        return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
      return fetch(u, init);
    };
    const c = await modules.add_one!.connect(url, { fetch: flaky, backoffMs: 20 });
    const out = await c.infer({ INPUT0: { data: new Float32Array([0, 0, 0, 0]), shape: [1, 4] } });
    expect([calls, Array.from(out.OUTPUT0!.data as Float32Array)]).toEqual([2, [1, 1, 1, 1]]);
  });

  it('not ready while the model reloads: ModelNotReady, retried until the load is done; connect tells the state', async () => {
    const c = await modules.add_one!.connect(url);
    expect((await post('/v2/repository/models/add_one/unload')).status).toBe(200);
    for (let i = 0; i < 50 && (await fetch(`${url}/v2/models/add_one/ready`)).status === 200; i++) await new Promise((r) => setTimeout(r, 100));
    const input = { INPUT0: { data: new Float32Array([1, 1, 1, 1]), shape: [1, 4] } };
    const once = await rejection(c.infer(input, { retries: 0 }));
    expect([once.name, once.status, once.retryable]).toEqual(['ModelNotReady', 404, true]);
    expect(once.message).toBe('model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions');
    const connectError = await rejection(modules.add_one!.connect(url));
    // The index says where the unload is: still UNLOADING, or UNAVAILABLE once done.
    expect(connectError.message).toMatch(/^model "add_one" is not ready: (UNLOADING|UNAVAILABLE: unloaded)$/);
    // The retries outlast the reload started meanwhile.
    const pending = c.infer(input, { retries: 40, backoffMs: 100, maxBackoffMs: 500, timeoutMs: 60_000 });
    setTimeout(() => void post('/v2/repository/models/add_one/load'), 300);
    const out = await pending;
    expect(Array.from(out.OUTPUT0!.data as Float32Array)).toEqual([2, 2, 2, 2]);
  }, 60_000);

  it("a decoupled model: Triton's HTTP infer answers 501, and the client refuses it at connect", async () => {
    const raw = await fetch(`${url}/v2/models/streamer/infer`, {
      method: 'POST',
      body: JSON.stringify({ inputs: [{ name: 'IN', shape: [1], datatype: 'INT32', data: [1] }] }),
    });
    expect(raw.status).toBe(501);
    expect(await raw.text()).toContain("HTTP end point doesn't support models with decoupled transaction policy");
    const e = await rejection(modules.streamer!.connect(url));
    expect(e.name).toBe('Unsupported');
  });
});

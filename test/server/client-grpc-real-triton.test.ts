// The generated TypeScript gRPC clients (tritonc client --lang typescript --protocol grpc) against the
// real tritonserver 2.51's gRPC endpoint (Python backend, CPU; scripts/real-triton/setup.sh makes its
// venv): infer, a split batch, BYTES, a sequence (a correlation id above int64's range too), a shape
// refused before sending and an INVALID_ARGUMENT not retried, a timeout as a gRPC deadline, not-ready
// while the model reloads, a decoupled model's responses streamed in order to the final one, and a
// restricted protocol (--grpc-restricted-protocol) named, not retried.
// Without the venv the suite is skipped with one line.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { freePorts } from '../../src/verify/ports.js';
import { compileClients } from '../support/client-compile.js';
import { CLIENT_MODELS, writeModels, rejection, DRIFTED_MODELS } from '../support/client-models.js';
import { realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs = realTritonRuns('generated gRPC clients against the real Triton');

type Tensor = { data: unknown; shape?: readonly number[] };
type Outputs = Record<string, { data: unknown; shape: number[] }>;
interface Client {
  url: string;
  infer(inputs: Record<string, Tensor>, options?: Record<string, unknown>): Promise<Outputs>;
  stream(inputs: Record<string, Tensor>, options?: Record<string, unknown>): AsyncIterable<Outputs>;
  ready(): Promise<boolean>;
  close(): void;
}
type Module = { connect(url: string, options?: Record<string, unknown>): Promise<Client>; decodeStrings(d: Uint8Array[]): string[] };

let server: RealTriton | undefined;
const modules: Record<string, Module> = {};
const clients: Client[] = [];

async function connect(model: string, options: Record<string, unknown> = {}): Promise<Client> {
  const c = await modules[model]!.connect(server!.grpc, options);
  clients.push(c);
  return c;
}

/** An interceptor that counts the calls of one method (the requests a call really made). */
function counter(method: string): { count: () => number; interceptor: grpc.Interceptor } {
  let n = 0;
  return {
    count: () => n,
    interceptor: (options, next) => {
      if (options.method_definition.path.endsWith('/' + method)) n++;
      return new grpc.InterceptingCall(next(options));
    },
  };
}

const post = (path: string) => fetch(`${server!.url}${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });

async function collect(it: AsyncIterable<Outputs>): Promise<number[]> {
  const got: number[] = [];
  for await (const r of it) got.push(...Array.from(r.OUT!.data as Int32Array));
  return got;
}

describe.skipIf(!runs)('generated TypeScript gRPC clients against the real tritonserver 2.51', () => {
  beforeAll(async () => {
    const dir = tempDir('tritonc-client-grpc-real-');
    const repo = join(dir, 'models');
    writeModels(repo, CLIENT_MODELS);
    const drifted = join(dir, 'drifted');
    writeModels(drifted, DRIFTED_MODELS);
    const gen = join(dir, 'gen');
    mkdirSync(gen);
    // The modules import @grpc/grpc-js, which the user installs beside them: here tritonc's own.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const files: string[] = [];
    for (const [from, prefix] of [
      [repo, ''],
      [drifted, 'drifted_'],
    ] as const) {
      const run = clientRun(from, { protocol: 'grpc' });
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
    server = await startRealTriton(
      repo,
      Object.keys(CLIENT_MODELS).map((m) => `--load-model=${m}`),
    );
  }, 240_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.stop();
  }, 30_000);

  it('infers, and splits a batch of 20 into requests of at most max_batch_size 8, joining the outputs in order', async () => {
    const c = await connect('add_one');
    expect(c.url).toBe(`grpc://${server!.grpc}`);
    const one = await c.infer({ INPUT0: { data: new Float32Array([1, 2, 3, 4]), shape: [1, 4] } });
    expect(one.OUTPUT0).toEqual({ data: new Float32Array([2, 3, 4, 5]), shape: [1, 4] });
    const infers = counter('ModelInfer');
    const counted = await connect('add_one', { channelOptions: { interceptors: [infers.interceptor] } });
    const data = Float32Array.from({ length: 80 }, (_, i) => i);
    const big = await counted.infer({ INPUT0: { data, shape: [20, 4] } });
    expect(infers.count()).toBe(3);
    expect(big.OUTPUT0!.shape).toEqual([20, 4]);
    expect(big.OUTPUT0!.data).toEqual(data.map((x) => x + 1));
  });

  it('an ensemble is one model; BYTES in and out: strings length-prefixed, byte strings back, INT64 as BigInt64Array', async () => {
    const p = await connect('pipeline');
    expect((await p.infer({ IN: { data: new Float32Array([1, 2, 3, 4]), shape: [1, 4] } })).OUT).toEqual({
      data: new Float32Array([3, 4, 5, 6]),
      shape: [1, 4],
    });
    const c = await connect('upper');
    const out = await c.infer({ TEXT: { data: ['hello', 'wörld'], shape: [1, 2] } });
    expect(modules.upper!.decodeStrings(out.UPPER!.data as Uint8Array[])).toEqual(['HELLO', 'WöRLD']);
    expect(out.LENGTHS).toEqual({ data: new BigInt64Array([5n, 6n]), shape: [1, 2] });
  });

  it('a sequence model: the correlation id (a bigint above int64 too) and start/end reach the model', async () => {
    const c = await connect('counter');
    const step = async (id: number | bigint, value: number, flags: { start?: boolean; end?: boolean } = {}) =>
      Array.from((await c.infer({ VALUE: { data: new Int32Array([value]), shape: [1, 1] } }, { sequence: { id, ...flags } })).TOTAL!.data as Int32Array);
    const big = 2n ** 63n + 5n;
    expect(await step(42, 1, { start: true })).toEqual([1]);
    expect(await step(big, 10, { start: true })).toEqual([10]);
    expect(await step(42, 2)).toEqual([3]);
    expect(await step(big, 5, { end: true })).toEqual([15]);
    expect(await step(42, 3, { end: true })).toEqual([6]);
  });

  it('a wrong shape is refused before sending, naming the input; what the server refuses (INVALID_ARGUMENT) is not retried', async () => {
    const c = await connect('add_one');
    const before = await rejection(c.infer({ INPUT0: { data: new Float32Array(5), shape: [1, 5] } }));
    expect([before.name, before.input, before.message]).toEqual([
      'InvalidInput',
      'INPUT0',
      'input "INPUT0": shape [1, 5] does not match the model\'s [batch, 4] (the batch axis first: max_batch_size is 8)',
    ]);
    const mismatch = await rejection(modules.drifted_add_one!.connect(server!.grpc));
    expect([mismatch.name, mismatch.message]).toEqual(['ModelMismatch', expect.stringContaining('input "INPUT0" has shape [-1, 4] there, [batch, any] here')]);
    const infers = counter('ModelInfer');
    const drifted = await modules.drifted_add_one!.connect(server!.grpc, { checkMetadata: false, channelOptions: { interceptors: [infers.interceptor] } });
    clients.push(drifted);
    const refused = await rejection(drifted.infer({ INPUT0: { data: new Float32Array(5), shape: [1, 5] } }, { retries: 3 }));
    expect([refused.name, refused.status, refused.input, refused.attempts, infers.count()]).toEqual([
      'InvalidInput',
      grpc.status.INVALID_ARGUMENT,
      'INPUT0',
      1,
      1,
    ]);
    expect(refused.message).toContain("unexpected shape for input 'INPUT0' for model 'add_one'. Expected [-1,4], got [1,5]");
  });

  it('a call past its timeout is a Timeout (the gRPC deadline)', async () => {
    const c = await connect('slow');
    // The model answers after 3 s: a Timeout, not its answer, says the call ended at its own deadline.
    const e = await rejection(c.infer({ SECONDS: { data: new Float32Array([3]) } }, { timeoutMs: 500 }));
    expect([e.name, e.status]).toEqual(['Timeout', grpc.status.DEADLINE_EXCEEDED]);
    expect(e.message).toContain('no answer within 500 ms');
    const ok = await c.infer({ SECONDS: { data: new Float32Array([0]) } }, { timeoutMs: 20_000 });
    expect(ok.DONE!.shape).toEqual([1]);
  }, 30_000);

  it('a server that is not there is ServerNotLive', async () => {
    const [port] = await freePorts(1);
    const e = await rejection(modules.add_one!.connect(`127.0.0.1:${port}`));
    expect([e.name, e.message]).toEqual(['ServerNotLive', `server at grpc://127.0.0.1:${port} is not live: connection refused`]);
    const bad = await rejection(modules.add_one!.connect('http://127.0.0.1:8001/x'));
    expect(bad.message).toBe('not a gRPC address: "http://127.0.0.1:8001/x" (give host:port, grpc://host:port or grpcs://host:port, e.g. localhost:8001)');
  });

  it('not ready while the model reloads: ModelNotReady (NOT_FOUND), retried until the load is done; connect tells the state', async () => {
    const c = await connect('add_one');
    expect((await post('/v2/repository/models/add_one/unload')).status).toBe(200);
    for (let i = 0; i < 50 && (await c.ready()); i++) await new Promise((r) => setTimeout(r, 100));
    const input = { INPUT0: { data: new Float32Array([1, 1, 1, 1]), shape: [1, 4] } };
    const once = await rejection(c.infer(input, { retries: 0 }));
    expect([once.name, once.status, once.retryable]).toEqual(['ModelNotReady', grpc.status.NOT_FOUND, true]);
    expect(once.message).toBe('model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions');
    const connectError = await rejection(modules.add_one!.connect(server!.grpc));
    expect(connectError.message).toMatch(/^model "add_one" is not ready: (UNLOADING|UNAVAILABLE: unloaded)$/);
    const pending = c.infer(input, { retries: 40, backoffMs: 100, maxBackoffMs: 500, timeoutMs: 60_000 });
    setTimeout(() => void post('/v2/repository/models/add_one/load'), 300);
    expect(Array.from((await pending).OUTPUT0!.data as Float32Array)).toEqual([2, 2, 2, 2]);
  }, 60_000);

  it('a restricted protocol (--grpc-restricted-protocol): UNAVAILABLE "This protocol is restricted", not retried; the header as metadata passes', async () => {
    const dir = tempDir('tritonc-client-grpc-restricted-');
    writeModels(join(dir, 'models'), { add_one: CLIENT_MODELS.add_one! });
    const restricted = await startRealTriton(join(dir, 'models'), [
      '--grpc-restricted-protocol=health,metadata,inference:admin-key=s3cret',
      '--load-model=add_one',
    ]);
    try {
      const lives = counter('ServerLive');
      const e = await rejection(modules.add_one!.connect(restricted.grpc, { retries: 3, channelOptions: { interceptors: [lives.interceptor] } }));
      expect([e.name, e.status, e.retryable, lives.count()]).toEqual(['TritonClientError', grpc.status.UNAVAILABLE, false, 1]);
      // The header is the key after "triton-grpc-protocol-" (server src/grpc/grpc_server.h kRestrictedProtocolHeaderTemplate).
      expect(e.message).toBe(
        "ServerLive: UNAVAILABLE: This protocol is restricted, expecting header 'triton-grpc-protocol-admin-key' (the server restricts this protocol: pass the header it expects in connect()'s options.headers)",
      );
      const c = await modules.add_one!.connect(restricted.grpc, { headers: { 'triton-grpc-protocol-admin-key': 's3cret' } });
      clients.push(c);
      expect((await c.infer({ INPUT0: { data: new Float32Array([0, 1, 2, 3]), shape: [1, 4] } })).OUTPUT0!.data).toEqual(new Float32Array([1, 2, 3, 4]));
    } finally {
      await restricted.stop();
    }
  }, 120_000);

  it('a decoupled model: stream() yields its responses in order and ends after the final one; its error is typed', async () => {
    const c = await connect('streamer');
    expect(await collect(c.stream({ IN: { data: new Int32Array([5]) } }))).toEqual([1, 2, 3, 4, 5]);
    // No response at all: the empty final response (triton_enable_empty_final_response) ends the stream.
    expect(await collect(c.stream({ IN: { data: new Int32Array([0]) } }))).toEqual([]);
    // Each response is the model's OUT, typed, with its shape.
    for await (const r of c.stream({ IN: { data: new Int32Array([1]) } })) expect(r.OUT).toEqual({ data: new Int32Array([1]), shape: [1] });
    const failed = await rejection(collect(c.stream({ IN: { data: new Int32Array([-1]) } })));
    expect([failed.name, failed.serverMessage]).toEqual(['InferenceFailed', 'IN must be 0 or more, got -1']);
    // A consumer that stops early cancels the stream; the next one streams from the start.
    const first: number[] = [];
    for await (const r of c.stream({ IN: { data: new Int32Array([50]) } })) {
      first.push((r.OUT!.data as Int32Array)[0]!);
      if (first.length === 2) break;
    }
    expect(first).toEqual([1, 2]);
    expect(await collect(c.stream({ IN: { data: new Int32Array([3]) } }))).toEqual([1, 2, 3]);
    // ModelInfer cannot carry a decoupled model's responses: the client says so before sending.
    const unary = await rejection(c.infer({ IN: { data: new Int32Array([1]) } }));
    expect(unary.name).toBe('Unsupported');
  }, 60_000);
});

// `tritonc client --lang typescript --protocol grpc`: the generated modules compile under tsc --strict
// (a decoupled model's client streams and has no infer; wrong uses do not compile), and run against a
// stand-in gRPC server (test/support/kserve-grpc-stub.ts) for what the real server cannot be made to do
// on cue: a transient UNAVAILABLE retried, an INVALID_ARGUMENT not, a sequence step retried only where
// Triton took nothing, a restricted protocol, a stream that fails or hangs; and the request's protobuf
// read back by protobufjs (the encoder checked by another implementation). The real server:
// test/server/client-grpc-real-triton.test.ts.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { compileClients } from '../support/client-compile.js';
import { CLIENT_MODELS, HOSTILE, HOSTILE_INPUT, HOSTILE_MODEL, HOSTILE_OUTPUT, writeModels, rejection } from '../support/client-models.js';
import { startGrpcStub, zeros, type GrpcStub, type StubModel } from '../support/kserve-grpc-stub.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

/** Uses of the generated gRPC clients that must compile, each wrong use marked with @ts-expect-error (an unused one fails). */
const USE = `import * as classifier from './classifier.js';
import * as streamer from './streamer.js';
import * as counter from './counter.js';
import { MODELS } from './index.js';

export async function use(address: string): Promise<void> {
  const k = await classifier.connect(address, { timeoutMs: 1000, channelOptions: { 'grpc.keepalive_time_ms': 10000 } });
  const out = await k.infer({ input: { data: new Float32Array(3 * 224 * 224), shape: [1, 3, 224, 224] } }, { retries: 1 });
  const scores: Float32Array = out.output.data;
  // @ts-expect-error: TYPE_FP32 is a Float32Array, not a Float64Array
  await k.infer({ input: { data: new Float64Array(1), shape: [1] } });
  // @ts-expect-error: a model that is not decoupled has no stream()
  k.stream({ input: { data: new Float32Array(1), shape: [1] } });
  const s = await streamer.connect(address);
  for await (const r of s.stream({ IN: { data: new Int32Array([3]) } }, { timeoutMs: 5000 })) {
    const value: Int32Array = r.OUT.data;
    void value;
  }
  // @ts-expect-error: a decoupled model's responses stream: it has no infer()
  await s.infer({ IN: { data: new Int32Array([3]) } });
  // @ts-expect-error: a stream's request is never split
  s.stream({ IN: { data: new Int32Array([3]) } }, { split: false });
  const c = await counter.connect(address);
  await c.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } }, { sequence: { id: 7n, start: true } });
  // @ts-expect-error: a sequence model's call names its sequence
  await c.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } });
  const viaIndex = await MODELS.add_one.connect(address);
  viaIndex.close();
  void scores;
}
`;

let modules: Record<string, Record<string, unknown>> = {};
let compileErrors: Record<string, string[]> = {};
let gen = '';

beforeAll(async () => {
  const dir = tempDir('tritonc-client-grpc-');
  writeModels(join(dir, 'models'), { ...CLIENT_MODELS, [HOSTILE_MODEL]: HOSTILE });
  // The modules import @grpc/grpc-js, which the user installs beside them: here tritonc's own.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  gen = join(dir, 'gen');
  mkdirSync(gen);
  const run = clientRun(join(dir, 'models'), { protocol: 'grpc' });
  const single = clientRun(join(ROOT, 'model_repository', 'classifier'), { protocol: 'grpc' });
  if ('error' in run || 'error' in single) throw new Error('no clients');
  expect([run.problems, run.warnings]).toEqual([[], []]);
  for (const f of [...run.files, ...single.files]) writeFileSync(join(gen, f.name), f.text);
  writeFileSync(join(gen, 'use.ts'), USE);
  writeFileSync(join(gen, 'package.json'), '{ "type": "module" }\n');
  const files = [...run.files, ...single.files].map((f) => f.name);
  const compiled = compileClients(gen, [...files, 'use.ts']);
  compileErrors = compiled.errors;
  modules = {};
  for (const f of files)
    modules[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(compiled.outDir, f.replace(/\.ts$/, '.js'))).href)) as Record<string, unknown>;
}, 240_000);

describe('the generated TypeScript gRPC client compiles', () => {
  it('every module, index.ts and their uses compile under tsc --strict (and the stricter flags); wrong uses are errors', () => {
    expect(compileErrors).toEqual({});
  });

  it('each module says its protocol in its header and imports only @grpc/grpc-js', async () => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(join(gen, 'streamer.ts'), 'utf8');
    expect(text.split('\n')[0]).toBe('// Generated by tritonc from streamer/config.pbtxt with: tritonc client --lang typescript --protocol grpc');
    expect(text.match(/^import .*$/gm)).toEqual(["import * as grpc from '@grpc/grpc-js';"]);
  });
});

type Tensor = { data: unknown; shape?: readonly number[] };
type Outputs = Record<string, { data: unknown; shape: number[] }>;
interface Client {
  infer(inputs: Record<string, Tensor>, options?: Record<string, unknown>): Promise<Outputs>;
  stream(inputs: Record<string, Tensor>, options?: Record<string, unknown>): AsyncIterable<Outputs>;
  close(): void;
}
const connect = async (model: string, address: string, options: Record<string, unknown> = {}): Promise<Client> => {
  const c = await (modules[model]!.connect as (a: string, o: Record<string, unknown>) => Promise<Client>)(address, options);
  opened.push(c);
  return c;
};

const stubModel = (m: { json: Record<string, unknown> }, ready = true): StubModel => {
  const j = m.json as {
    max_batch_size: number;
    input: { name: string; data_type: string; dims: string[] }[];
    output: { name: string; data_type: string; dims: string[] }[];
  };
  const t = (x: { name: string; data_type: string; dims: string[] }) => ({
    name: x.name,
    datatype: x.data_type.replace('TYPE_', '').replace('STRING', 'BYTES'),
    dims: x.dims.map(Number),
  });
  return { maxBatchSize: j.max_batch_size, inputs: j.input.map(t), outputs: j.output.map(t), ready };
};

let stub: GrpcStub | undefined;
const opened: Client[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) c.close();
  await stub?.stop();
  stub = undefined;
});

async function collect(it: AsyncIterable<Outputs>): Promise<number[]> {
  const got: number[] = [];
  for await (const r of it) got.push(...Array.from(r.OUT!.data as Int32Array));
  return got;
}

const infers = (s: GrpcStub): number => s.calls.filter((c) => c === 'ModelInfer').length;
const step = { INPUT0: { data: new Float32Array([1, 2, 3, 4]), shape: [1, 4] } };

describe('the generated TypeScript gRPC client against a stand-in gRPC server', () => {
  it('sends the KServe ModelInferRequest protobufjs reads back: names, datatypes, shapes, raw contents, outputs, id', async () => {
    stub = await startGrpcStub({ upper: stubModel(CLIENT_MODELS.upper!) });
    const c = await connect('upper', stub.address);
    const out = await c.infer({ TEXT: { data: ['hé', 'xyz'], shape: [1, 2] } }, { requestId: 'r-1' });
    const r = stub.requests.at(-1)!;
    expect([r.model, r.id, r.outputs, r.parameters]).toEqual(['upper', 'r-1', ['UPPER', 'LENGTHS'], {}]);
    expect(r.inputs.map((t) => [t.name, t.datatype, t.shape])).toEqual([['TEXT', 'BYTES', [1, 2]]]);
    // Each BYTES element a 4-byte little-endian length and its UTF-8 bytes.
    expect(Array.from(r.inputs[0]!.bytes)).toEqual([3, 0, 0, 0, 0x68, 0xc3, 0xa9, 3, 0, 0, 0, 0x78, 0x79, 0x7a]);
    expect(out.LENGTHS).toEqual({ data: new BigInt64Array([0n]), shape: [1, 1] });
    expect(out.UPPER).toEqual({ data: [new Uint8Array(0)], shape: [1, 1] });
  });

  it('a sequence sends sequence_id (int64_param: a bigint above int64 as its 64 bits; string_param), sequence_start and sequence_end (bool_param)', async () => {
    stub = await startGrpcStub({ counter: stubModel(CLIENT_MODELS.counter!) });
    const c = await connect('counter', stub.address);
    const value = { VALUE: { data: new Int32Array([1]), shape: [1, 1] } };
    await c.infer(value, { sequence: { id: 2n ** 63n + 5n, start: true } });
    await c.infer(value, { sequence: { id: 'abc', end: true } });
    await c.infer(value, { sequence: { id: 12 } });
    expect(stub.requests.map((r) => r.parameters)).toEqual([
      { sequence_id: { case: 'int64_param', value: String(-(2n ** 63n) + 5n) }, sequence_start: { case: 'bool_param', value: 'true' } },
      { sequence_id: { case: 'string_param', value: 'abc' }, sequence_end: { case: 'bool_param', value: 'true' } },
      { sequence_id: { case: 'int64_param', value: '12' } },
    ]);
    const tooBig = await rejection(c.infer(value, { sequence: { id: 2n ** 64n } }));
    expect(tooBig.message).toBe('sequence.id must be a whole number above 0 and below 2^64, or a non-empty string; got 18446744073709551616');
  });

  it("a transient UNAVAILABLE (Triton's queue full) is retried with backoff; after the retries it is Unavailable", async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    let failures = 2;
    // core src/scheduler_utils.cc PriorityQueue::PolicyQueue::Enqueue: a full queue is UNAVAILABLE "Exceeds maximum queue size".
    stub.infer = () => (failures-- > 0 ? { code: grpc.status.UNAVAILABLE, details: 'Exceeds maximum queue size' } : undefined);
    const c = await connect('add_one', stub.address, { backoffMs: 10 });
    const out = await c.infer(step);
    expect([out.OUTPUT0!.shape, infers(stub)]).toEqual([[1, 4], 3]);
    failures = 10;
    const gaveUp = await rejection(c.infer(step, { retries: 2 }));
    expect([gaveUp.name, gaveUp.status, gaveUp.attempts, gaveUp.retryable, infers(stub)]).toEqual(['Unavailable', grpc.status.UNAVAILABLE, 3, true, 6]);
    expect(gaveUp.message).toBe('ModelInfer "add_one": UNAVAILABLE: Exceeds maximum queue size (after 3 attempts)');
  });

  it('a refused input (INVALID_ARGUMENT) and a server error (INTERNAL) are never retried', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    stub.infer = () => ({ code: grpc.status.INVALID_ARGUMENT, details: "unexpected shape for input 'INPUT0' for model 'add_one'" });
    const c = await connect('add_one', stub.address, { backoffMs: 10 });
    const refused = await rejection(c.infer(step, { retries: 3 }));
    expect([refused.name, refused.input, refused.attempts, infers(stub)]).toEqual(['InvalidInput', 'INPUT0', 1, 1]);
    stub.infer = () => ({ code: grpc.status.INTERNAL, details: 'boom' });
    const internal = await rejection(c.infer(step, { retries: 3 }));
    expect([internal.name, internal.retryable, infers(stub)]).toEqual(['InferenceFailed', false, 2]);
  });

  it('a sequence step is retried only where Triton took nothing (queue full), not after an UNAVAILABLE that may have run it', async () => {
    stub = await startGrpcStub({ counter: stubModel(CLIENT_MODELS.counter!) });
    const value = { VALUE: { data: new Int32Array([1]), shape: [1, 1] } };
    const c = await connect('counter', stub.address, { backoffMs: 5 });
    let answer: { code: grpc.status; details: string } | undefined = { code: grpc.status.UNAVAILABLE, details: 'Exceeds maximum queue size' };
    stub.infer = () => {
      const a = answer;
      answer = undefined;
      return a;
    };
    await c.infer(value, { sequence: { id: 5, start: true } });
    expect(infers(stub)).toBe(2);
    answer = { code: grpc.status.UNAVAILABLE, details: 'Connection dropped' };
    const dropped = await rejection(c.infer(value, { sequence: { id: 5 } }));
    expect([dropped.name, dropped.attempts, infers(stub)]).toEqual(['Unavailable', 1, 3]);
  });

  it('a model not ready (NOT_FOUND) is ModelNotReady, retried until it is back; connect says its state', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    const c = await connect('add_one', stub.address, { backoffMs: 50 });
    stub.models.add_one!.ready = false;
    const once = await rejection(c.infer(step, { retries: 0 }));
    expect([once.name, once.status, once.message]).toEqual([
      'ModelNotReady',
      grpc.status.NOT_FOUND,
      'model "add_one" is not ready: Request for unknown model: \'add_one\' has no available versions',
    ]);
    setTimeout(() => void (stub!.models.add_one!.ready = true), 300);
    expect((await c.infer(step, { retries: 10 })).OUTPUT0!.shape).toEqual([1, 4]);
    Object.assign(stub.models.add_one!, { ready: false, state: 'UNAVAILABLE', reason: 'unloaded' });
    const e = await rejection(connect('add_one', stub.address));
    expect([e.name, e.message]).toEqual(['ModelNotReady', 'model "add_one" is not ready: UNAVAILABLE: unloaded']);
  });

  it('a restricted protocol (UNAVAILABLE "This protocol is restricted") is not retried; the header goes in as metadata', async () => {
    stub = await startGrpcStub({ add_one: stubModel(CLIENT_MODELS.add_one!) });
    stub.restricted = { header: 'admin-key', value: 's3cret' };
    const e = await rejection(connect('add_one', stub.address, { retries: 3 }));
    expect([e.name, e.message]).toEqual([
      'TritonClientError',
      "ServerLive: UNAVAILABLE: This protocol is restricted, expecting header 'triton-grpc-protocol-admin-key' (the server restricts this protocol: pass the header it expects in connect()'s options.headers)",
    ]);
    expect(stub.calls).toEqual(['ServerLive']);
    const c = await connect('add_one', stub.address, { headers: { 'Triton-GRPC-Protocol-Admin-Key': 's3cret' } });
    expect((await c.infer(step)).OUTPUT0!.shape).toEqual([1, 4]);
    // A header that cannot be metadata is named, not sent.
    const bad = await rejection(c.infer(step, { headers: { 'x-note': 'two\nlines' } }));
    expect([bad.name, bad.message]).toEqual([
      'TritonClientError',
      'header "x-note" cannot be gRPC metadata (a key is letters, digits, "-", "_" and "."; a value printable ASCII)',
    ]);
  });

  it('a stream asks for the empty final response, yields each response, ends at the final flag; an error_message after one response is typed', async () => {
    stub = await startGrpcStub({ streamer: stubModel(CLIENT_MODELS.streamer!) });
    const model = stub.models.streamer!;
    const out = (v: number) => ({ ...zeros(model, 'OUT', 1), bytes: new Uint8Array(new Int32Array([v]).buffer) });
    stub.stream = () => [{ outputs: [out(1)] }, { outputs: [out(2)], final: true }, { outputs: [out(99)] }];
    const c = await connect('streamer', stub.address);
    expect(await collect(c.stream({ IN: { data: new Int32Array([2]) } }))).toEqual([1, 2]);
    expect(stub.requests.at(-1)!.parameters).toEqual({ triton_enable_empty_final_response: { case: 'bool_param', value: 'true' } });
    stub.stream = () => [{ outputs: [out(1)] }, { error: 'model failed' }];
    const got: number[] = [];
    const e = await rejection(
      (async () => {
        for await (const r of c.stream({ IN: { data: new Int32Array([2]) } })) got.push((r.OUT!.data as Int32Array)[0]!);
      })(),
    );
    expect([got, e.name, e.message, e.serverMessage]).toEqual([[1], 'InferenceFailed', 'ModelStreamInfer "streamer": model failed', 'model failed']);
  });

  it('a stream whose model is not ready before any response is retried; one that hangs ends at its deadline', async () => {
    stub = await startGrpcStub({ streamer: stubModel(CLIENT_MODELS.streamer!) });
    const c = await connect('streamer', stub.address, { backoffMs: 10 });
    let notReady = 1;
    // server src/grpc/stream_infer_handler.cc: a request that fails to start is one error_message, no final flag.
    stub.stream = () => (notReady-- > 0 ? [{ error: "Request for unknown model: 'streamer' has no available versions" }] : undefined);
    expect(await collect(c.stream({ IN: { data: new Int32Array([1]) } }))).toEqual([0]);
    expect(stub.calls.filter((x) => x === 'ModelStreamInfer').length).toBe(2);
    stub.stream = () => [{ hang: true }];
    // The stream never ends: only its deadline does (the test's timeout bounds a hang).
    const e = await rejection(collect(c.stream({ IN: { data: new Int32Array([1]) } }, { timeoutMs: 300 })));
    expect([e.name, e.status, e.message]).toEqual(['Timeout', grpc.status.DEADLINE_EXCEEDED, 'ModelStreamInfer "streamer": the stream ran past its 300 ms']);
  });

  it('hostile tensor and model names stay strings over gRPC; a __proto__ output is a key', async () => {
    stub = await startGrpcStub({ [HOSTILE_MODEL]: stubModel(HOSTILE) });
    const c = await connect('evil__name', stub.address);
    const out = await c.infer({ [HOSTILE_INPUT]: { data: new Float32Array(2), shape: [1, 2] } });
    expect(Object.keys(out)).toEqual([HOSTILE_OUTPUT, '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(stub.requests.at(-1)!.model).toBe(HOSTILE_MODEL);
    expect(stub.requests.at(-1)!.inputs[0]!.name).toBe(HOSTILE_INPUT);
  });
});

// `tritonc client --lang typescript`: the generated modules compile under tsc --strict (and a wrong
// array type does not), and run against the protocol fixture (fixtures/verify/protocol-fixture.ts, a
// local server answering as Triton's HTTP endpoint does): infer, a split batch, a shape refused before
// sending, a timeout, retries of transient failures only, a model reloading, sequences, BYTES, a
// decoupled model refused, and hostile tensor names that stay strings.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientRun } from '../../src/client/run.js';
import { CLASSIFIER, protocolFixtures } from '../support/client-fixture.js';
import type { ProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';
import { compileClients, STRICT_FLAGS } from '../support/client-compile.js';
import {
  CLIENT_MODELS,
  HOSTILE,
  HOSTILE_INPUT,
  HOSTILE_MODEL,
  HOSTILE_OUTPUT,
  PLACEHOLDER,
  PLACEHOLDER_INPUT,
  PLACEHOLDER_MODEL,
  PROTO_MODEL,
  PROTO_NAMES,
  writeModels,
  rejection,
} from '../support/client-models.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

/** Uses of the generated clients that must compile, each wrong use marked with @ts-expect-error (an unused one fails). */
const USE = `import { connect as classifier, type Inputs } from './classifier.js';
import * as upper from './upper.js';
import * as counter from './counter.js';
import { MODELS } from './index.js';

export async function use(url: string): Promise<void> {
  const c = await classifier(url, { timeoutMs: 1000 });
  const input: Inputs = { input: { data: new Float32Array(3 * 224 * 224), shape: [1, 3, 224, 224] } };
  const out = await c.infer(input, { timeoutMs: 500, retries: 1 });
  const scores: Float32Array = out.output.data;
  const shape: number[] = out.output.shape;
  // @ts-expect-error: TYPE_FP32 is a Float32Array, not a Float64Array
  await c.infer({ input: { data: new Float64Array(1), shape: [1] } });
  // @ts-expect-error: an input the model does not have
  await c.infer({ input: input.input, other: input.input });
  // @ts-expect-error: the model is not a sequence model
  await c.infer(input, { sequence: { id: 1 } });
  const u = await upper.connect(url);
  const text = await u.infer({ TEXT: { data: ['a', 'b'], shape: [1, 2] } });
  const lengths: BigInt64Array = text.LENGTHS.data;
  const strings: string[] = upper.decodeStrings(text.UPPER.data);
  // @ts-expect-error: TYPE_STRING takes strings or Uint8Arrays, not numbers
  await u.infer({ TEXT: { data: [1, 2], shape: [1, 2] } });
  const s = await counter.connect(url);
  await s.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } }, { sequence: { id: 7n, start: true } });
  // @ts-expect-error: a sequence model's call names its sequence
  await s.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } });
  const viaIndex = await MODELS.add_one.connect(url);
  void [scores, shape, lengths, strings, viaIndex];
}
`;

/** A file that must not compile: the wrong array type for a TYPE_FP32 input. */
const BAD = `import { connect } from './classifier.js';
const c = await connect('http://127.0.0.1:1');
await c.infer({ input: { data: new Float64Array(3 * 224 * 224), shape: [1, 3, 224, 224] } });
`;

const TYPES = ['BOOL', 'UINT8', 'UINT16', 'UINT32', 'UINT64', 'INT8', 'INT16', 'INT32', 'INT64', 'FP16', 'FP32', 'FP64', 'STRING', 'BF16'];
/** One input and one output of every data type, dims [2], no batching. */
const EVERY_TYPE = {
  pbtxt: `backend: "python"\ninput [ ${TYPES.map((t) => `{ name: "in_${t}" data_type: TYPE_${t} dims: [ 2 ] }`).join(', ')} ]\noutput [ ${TYPES.map((t) => `{ name: "out_${t}" data_type: TYPE_${t} dims: [ 2 ] }`).join(', ')} ]\n`,
  json: {
    name: 'every_type',
    max_batch_size: 0,
    input: TYPES.map((t) => ({ name: `in_${t}`, data_type: `TYPE_${t}`, dims: ['2'] })),
    output: TYPES.map((t) => ({ name: `out_${t}`, data_type: `TYPE_${t}`, dims: ['2'] })),
  },
};
const ARRAYS: Record<string, (n: number) => unknown> = {
  BOOL: (n) => new Uint8Array(n),
  UINT8: (n) => new Uint8Array(n),
  UINT16: (n) => new Uint16Array(n),
  UINT32: (n) => new Uint32Array(n),
  UINT64: (n) => new BigUint64Array(n),
  INT8: (n) => new Int8Array(n),
  INT16: (n) => new Int16Array(n),
  INT32: (n) => new Int32Array(n),
  INT64: (n) => new BigInt64Array(n),
  FP16: (n) => new Uint16Array(n),
  FP32: (n) => new Float32Array(n),
  FP64: (n) => new Float64Array(n),
  STRING: (n) => Array.from({ length: n }, () => 'x'),
  BF16: (n) => new Uint16Array(n),
};

/** A model directory whose name would end a line comment (a line break, a line separator). */
const NEWLINE_MODEL = 'two\nlines \u2028 x';

let gen = '';
let compileErrors: Record<string, string[]> = {};
let outDir = '';
const modules: Record<string, Record<string, unknown>> = {};

beforeAll(async () => {
  const dir = tempDir('tritonc-client-');
  const repo = join(dir, 'models');
  writeModels(repo, {
    ...CLIENT_MODELS,
    [HOSTILE_MODEL]: HOSTILE,
    [PROTO_MODEL]: PROTO_NAMES,
    [PLACEHOLDER_MODEL]: PLACEHOLDER,
    every_type: EVERY_TYPE,
    [NEWLINE_MODEL]: { ...CLIENT_MODELS.add_one!, pbtxt: CLIENT_MODELS.add_one!.pbtxt.replace('name: "add_one"\n', '') },
  });
  gen = join(dir, 'gen');
  mkdirSync(gen);
  const run = clientRun(repo);
  if ('error' in run) throw new Error(run.error);
  expect(run.problems).toEqual([]);
  const single = clientRun(join(ROOT, 'model_repository', 'classifier'));
  if ('error' in single) throw new Error(single.error);
  for (const f of [...run.files, ...single.files]) writeFileSync(join(gen, f.name), f.text);
  writeFileSync(join(gen, 'use.ts'), USE);
  writeFileSync(join(gen, 'bad.ts'), BAD);
  writeFileSync(join(gen, 'package.json'), '{ "type": "module" }\n');
  const files = [...run.files, ...single.files].map((f) => f.name);
  const compiled = compileClients(gen, [...files, 'use.ts', 'bad.ts']);
  compileErrors = compiled.errors;
  outDir = compiled.outDir;
  for (const f of files)
    modules[f.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(outDir, f.replace(/\.ts$/, '.js'))).href)) as Record<string, unknown>;
}, 240_000);

describe('the generated TypeScript client compiles', () => {
  it('every module, index.ts and their uses compile under tsc --strict (and the stricter flags); wrong uses are errors', () => {
    const { 'bad.ts': bad, ...rest } = compileErrors;
    expect(rest).toEqual({});
    expect(bad?.join('\n')).toMatch(/bad\.ts:3: TS2322: .*'Float64Array.*' is not assignable to type 'Float32Array/s);
  });

  it("tsc --strict itself (the command line): the classifier's module compiles, and bad.ts fails with the wrong array named", () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(
      process.execPath,
      [tsc, ...STRICT_FLAGS, '--types', 'node', '--typeRoots', join(ROOT, 'node_modules', '@types'), '--noEmit', 'classifier.ts', 'bad.ts'],
      { cwd: gen, encoding: 'utf8' },
    );
    expect(r.status, r.stdout + r.stderr).toBe(2);
    const errors = r.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^bad\.ts\(3,\d+\): error TS2322: Type 'Float64Array.*' is not assignable to type 'Float32Array/);
  }, 120_000);

  it('a repository gives one module per model and an index; the hostile names become a plain file name and stay strings', () => {
    expect(Object.keys(modules).sort()).toEqual([
      'add_one',
      'classifier',
      'counter',
      'every_type',
      'evil__name',
      'index',
      'pipeline',
      'proto_names',
      'seq_placeholder',
      'slow',
      'streamer',
      'two_lines___x',
      'upper',
    ]);
    const index = modules.index!.MODELS as Record<string, Record<string, unknown>>;
    expect(Object.keys(index).sort()).toEqual([
      'add_one',
      'counter',
      'every_type',
      HOSTILE_MODEL,
      'pipeline',
      PROTO_MODEL,
      PLACEHOLDER_MODEL,
      'slow',
      'streamer',
      NEWLINE_MODEL,
      'upper',
    ]);
    expect(modules.two_lines___x!.MODEL_NAME).toBe(NEWLINE_MODEL);
    expect(index[HOSTILE_MODEL]!.MODEL_NAME).toBe(HOSTILE_MODEL);
  });
});

type Tensor = { data: unknown; shape?: readonly number[] };
interface Client {
  url: string;
  infer(inputs: Record<string, Tensor>, options?: Record<string, unknown>): Promise<Record<string, { data: unknown; shape: number[] }>>;
  ready(): Promise<boolean>;
}
type Module = {
  connect(url: string, options?: Record<string, unknown>): Promise<Client>;
  TritonClientError: new (...a: never[]) => Error;
} & Record<string, unknown>;
const mod = (name: string): Module => modules[name] as Module;

const serve = protocolFixtures();

const image = (batch: number): Tensor => ({ data: new Float32Array(batch * 3 * 224 * 224), shape: [batch, 3, 224, 224] });
const infers = (f: ProtocolFixture): number => f.paths().filter((p) => p.endsWith('/infer')).length;

describe('the generated TypeScript client against the protocol fixture', () => {
  it('connect checks live, ready and the metadata; infer sends binary tensors and decodes binary outputs', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const c = await mod('classifier').connect(f.url);
    const out = await c.infer({ input: image(2) });
    expect(out.output!.shape).toEqual([2, 1000]);
    expect(out.output!.data).toBeInstanceOf(Float32Array);
    expect((out.output!.data as Float32Array).length).toBe(2000);
    expect(f.paths()).toEqual(['GET /v2/health/live', 'GET /v2/models/classifier/ready', 'GET /v2/models/classifier', 'POST /v2/models/classifier/infer']);
    const request = f.requests.at(-1)!;
    // server docs/protocol/extension_binary_data.md: the JSON header, its length in the header, binary_data_size and binary_data.
    expect(request.headers['inference-header-content-length']).toBeDefined();
    expect(request.json).toEqual({
      inputs: [{ name: 'input', shape: [2, 3, 224, 224], datatype: 'FP32', parameters: { binary_data_size: 2 * 3 * 224 * 224 * 4 } }],
      outputs: [{ name: 'output', parameters: { binary_data: true } }],
    });
    expect(request.binaryBytes).toBe(2 * 3 * 224 * 224 * 4);
  });

  it('a batch above max_batch_size is split into requests of at most 32 and the outputs joined; split: false refuses it', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const c = await mod('classifier').connect(f.url);
    const out = await c.infer({ input: image(70) });
    expect(out.output!.shape).toEqual([70, 1000]);
    expect((out.output!.data as Float32Array).length).toBe(70_000);
    expect(f.requests.filter((r) => r.path.endsWith('/infer')).map((r) => (r.json as { inputs: { shape: number[] }[] }).inputs[0]!.shape[0])).toEqual([
      32, 32, 6,
    ]);
    const e = await rejection(c.infer({ input: image(33) }, { split: false }));
    expect([e.name, e.message]).toEqual(['InvalidInput', 'input "input": batch 33 is larger than the model\'s max_batch_size 32 (split is off)']);
  });

  it('a wrong shape, element count or array is refused before anything is sent, naming the input', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const c = await mod('classifier').connect(f.url);
    const before = f.requests.length;
    const shape = await rejection(c.infer({ input: { data: new Float32Array(3 * 224 * 223), shape: [1, 3, 224, 223] } }));
    expect([shape.name, shape.input, shape.message]).toEqual([
      'InvalidInput',
      'input',
      'input "input": shape [1, 3, 224, 223] does not match the model\'s [batch, 3, 224, 224] (the batch axis first: max_batch_size is 32)',
    ]);
    const count = await rejection(c.infer({ input: { data: new Float32Array(5), shape: [1, 3, 224, 224] } }));
    expect(count.message).toBe('input "input": shape [1, 3, 224, 224] holds 150528 elements but the data has 5');
    const array = await rejection(c.infer({ input: { data: new Float64Array(3 * 224 * 224), shape: [1, 3, 224, 224] } }));
    expect(array.message).toBe('input "input" takes a Float32Array (FP32); got Float64Array');
    const missing = await rejection(c.infer({}));
    expect(missing.message).toBe('input "input" is missing (model "classifier" requires it)');
    expect(f.requests.length).toBe(before);
  });

  it("a call past its timeout is a Timeout; the caller's signal is Aborted", async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } }, { raw: (req) => req.path.endsWith('/infer') });
    const c = await mod('classifier').connect(f.url);
    // The server never answers: only the call's own timeout ends it (the test's timeout bounds a hang).
    const e = await rejection(c.infer({ input: image(1) }, { timeoutMs: 300 }));
    expect(e.name).toBe('Timeout');
    expect(e.message).toContain('no answer within 300 ms');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await rejection(c.infer({ input: image(1) }, { signal: controller.signal }))).name).toBe('Aborted');
  });

  it('a transient failure (503, a refused connection) is retried with backoff; a refused input (400) never is', async () => {
    let failures = 2;
    const f = await serve(
      { classifier: { config: CLASSIFIER } },
      {
        override: (req) => (req.path.endsWith('/infer') && failures-- > 0 ? [503, { error: 'Server is shutting down' }] : undefined),
        inferError: (_name, batch) => (batch === 3 ? "unexpected shape for input 'input' for model 'classifier'" : undefined),
      },
    );
    const c = await mod('classifier').connect(f.url, { backoffMs: 10 });
    const out = await c.infer({ input: image(1) });
    expect(out.output!.shape).toEqual([1, 1000]);
    expect(infers(f)).toBe(3);
    const refused = await rejection(c.infer({ input: image(3) }));
    expect([refused.name, refused.status, refused.input, refused.attempts]).toEqual(['InvalidInput', 400, 'input', 1]);
    expect(refused.message).toContain("unexpected shape for input 'input'");
    expect(infers(f)).toBe(4);
    failures = 10;
    const gaveUp = await rejection(c.infer({ input: image(1) }, { retries: 2 }));
    expect([gaveUp.name, gaveUp.status, gaveUp.attempts, gaveUp.retryable]).toEqual(['Unavailable', 503, 3, true]);
    // A server gone: connection refused, retried, then Unavailable.
    const url = f.url;
    await f.stop();
    const gone = await rejection(c.infer({ input: image(1) }, { retries: 1 }));
    expect([gone.name, gone.attempts]).toEqual(['Unavailable', 2]);
    expect(gone.message).toBe(`cannot reach ${url} (connection refused) (after 2 attempts)`);
  });

  it('a model reloading is ModelNotReady (retryable): retried until it is back; connect says why it is not ready', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } });
    const models = f.options.models;
    const c = await mod('classifier').connect(f.url, { backoffMs: 50 });
    models.classifier!.ready = false;
    const noRetry = await rejection(c.infer({ input: image(1) }, { retries: 0 }));
    expect([noRetry.name, noRetry.status, noRetry.retryable]).toEqual(['ModelNotReady', 404, true]);
    expect(noRetry.message).toBe('model "classifier" is not ready: Request for unknown model: \'classifier\' has no available versions');
    setTimeout(() => void (models.classifier!.ready = true), 300);
    const out = await c.infer({ input: image(1) }, { retries: 10 });
    expect(out.output!.shape).toEqual([1, 1000]);
    models.classifier!.ready = false;
    models.classifier!.state = 'UNAVAILABLE';
    models.classifier!.reason = 'unloaded';
    const e = await rejection(mod('classifier').connect(f.url));
    expect([e.name, e.message]).toEqual(['ModelNotReady', 'model "classifier" is not ready: UNAVAILABLE: unloaded']);
  });

  it('a server that is not there is ServerNotLive; connect can wait for it', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const e = await rejection(mod('classifier').connect(`http://127.0.0.1:${port}`));
    expect([e.name, e.message]).toEqual(['ServerNotLive', `server at http://127.0.0.1:${port} is not live: connection refused`]);
    const f = await serve({ classifier: { config: CLASSIFIER } }, { override: (req) => (req.path === '/v2/health/live' ? [503, undefined] : undefined) });
    const notLive = await rejection(mod('classifier').connect(f.url));
    expect(notLive.message).toBe(`server at ${f.url} is not live: GET /v2/health/live answered HTTP 503`);
  });

  it('connect with waitMs polls until the model is ready', async () => {
    const f = await serve({ classifier: { config: CLASSIFIER, ready: false } });
    setTimeout(() => void (f.options.models.classifier!.ready = true), 400);
    const c = await mod('classifier').connect(f.url, { waitMs: 10_000 });
    expect(await c.ready()).toBe(true);
  });

  it("a restricted API (tritonserver --http-restricted-api): the header it expects goes in connect's headers", async () => {
    const f = await serve({ classifier: { config: CLASSIFIER } }, { restricted: { header: 'admin-key', value: 's3cret' } });
    const e = await rejection(mod('classifier').connect(f.url));
    expect([e.name, e.message]).toEqual([
      'ServerNotLive',
      `server at ${f.url} is not live: GET /v2/health/live answered HTTP 403: This API is restricted, expecting header 'admin-key'`,
    ]);
    const c = await mod('classifier').connect(f.url, { headers: { 'admin-key': 's3cret' } });
    expect((await c.infer({ input: image(1) })).output!.shape).toEqual([1, 1000]);
    expect(f.requests.at(-1)!.headers['admin-key']).toBe('s3cret');
  });

  it('a served model whose inputs differ from the config the client came from is ModelMismatch', async () => {
    const f = await serve({ classifier: { config: { ...CLASSIFIER, input: [{ name: 'input', data_type: 'TYPE_FP16', dims: ['3', '224', '224'] }] } } });
    const e = await rejection(mod('classifier').connect(f.url));
    expect(e.name).toBe('ModelMismatch');
    expect(e.message).toContain('input "input" is FP16 there, FP32 here');
    expect(await mod('classifier').connect(f.url, { checkMetadata: false })).toBeDefined();
  });

  it('a sequence model sends sequence_id, sequence_start and sequence_end; a bigint id is written as a number', async () => {
    const f = await serve({ counter: { config: CLIENT_MODELS.counter!.json } });
    const c = await mod('counter').connect(f.url);
    await c.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } }, { sequence: { id: 9007199254740993n, start: true } });
    await c.infer({ VALUE: { data: new Int32Array([2]), shape: [1, 1] } }, { sequence: { id: 'abc', end: true } });
    const sent = f.requests.filter((r) => r.path.endsWith('/infer')).map((r) => (r.json as { parameters: unknown }).parameters);
    // JSON.parse reads the big id as the nearest double; the text sent holds it exactly (checked below).
    expect(sent).toEqual([
      { sequence_id: 9007199254740992, sequence_start: true },
      { sequence_id: 'abc', sequence_end: true },
    ]);
    const missing = await rejection(c.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } }));
    expect(missing.message).toBe('model "counter" is a sequence model: give options.sequence (its correlation id, start and end)');
    const tooBig = await rejection(c.infer({ VALUE: { data: new Int32Array([1, 2, 3]), shape: [3, 1] } }, { sequence: { id: 1 } }));
    expect(tooBig.message).toBe('input "VALUE": batch 3 is larger than the model\'s max_batch_size 2 (a sequence\'s request is never split)');
  });

  it('a sequence step is retried only where it surely did not run: a refused connection yes, a reset no', async () => {
    const f = await serve({ counter: { config: CLIENT_MODELS.counter!.json } });
    let fail: string | undefined;
    const c = await mod('counter').connect(f.url, {
      backoffMs: 5,
      fetch: async (url: string, init: RequestInit) => {
        if (url.endsWith('/infer') && fail) {
          const code = fail;
          fail = undefined;
          throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
        }
        return fetch(url, init);
      },
    });
    const step = { VALUE: { data: new Int32Array([1]), shape: [1, 1] } };
    fail = 'ECONNREFUSED';
    await c.infer(step, { sequence: { id: 5, start: true } });
    expect(infers(f)).toBe(1);
    fail = 'ECONNRESET';
    const reset = await rejection(c.infer(step, { sequence: { id: 5 } }));
    expect([reset.name, reset.attempts, reset.message]).toEqual(['Unavailable', 1, `cannot reach ${f.url} (connection reset)`]);
    expect(infers(f)).toBe(1);
  });

  it('the exact big correlation id is in the request text', async () => {
    let text = '';
    const f = await serve({ counter: { config: CLIENT_MODELS.counter!.json } });
    const c = await mod('counter').connect(f.url, {
      fetch: async (url: string, init: { body: Uint8Array }) => {
        if (url.endsWith('/infer')) text = new TextDecoder().decode(init.body);
        return fetch(url, init);
      },
    });
    await c.infer({ VALUE: { data: new Int32Array([1]), shape: [1, 1] } }, { sequence: { id: 9007199254740993n, start: true } });
    expect(text).toContain('"sequence_id":9007199254740993');
  });

  it('BYTES inputs go length-prefixed; BYTES outputs come back as byte strings', async () => {
    const f = await serve({ upper: { config: CLIENT_MODELS.upper!.json } });
    const c = await mod('upper').connect(f.url);
    const out = await c.infer({ TEXT: { data: ['hé', 'xyz'], shape: [1, 2] } });
    const request = f.requests.at(-1)!;
    expect(request.binaryBytes).toBe(4 + 3 + 4 + 3);
    expect((request.json as { inputs: unknown[] }).inputs).toEqual([{ name: 'TEXT', shape: [1, 2], datatype: 'BYTES', parameters: { binary_data_size: 14 } }]);
    // The fixture answers zeros: each BYTES element an empty string.
    expect(out.UPPER).toEqual({ data: [new Uint8Array(0)], shape: [1, 1] });
    expect(out.LENGTHS!.data).toBeInstanceOf(BigInt64Array);
  });

  it('a decoupled model is refused by connect: HTTP cannot stream it', async () => {
    const f = await serve({ streamer: { config: CLIENT_MODELS.streamer!.json } });
    const e = await rejection(mod('streamer').connect(f.url));
    expect(e.name).toBe('Unsupported');
    expect(e.message).toContain('is decoupled');
    expect(f.requests).toEqual([]);
  });

  it('every data type: its array in, the right array out (FP16 and BF16 as Uint16Array, BOOL as Uint8Array)', async () => {
    const f = await serve({ every_type: { config: EVERY_TYPE.json } });
    const c = await mod('every_type').connect(f.url);
    const out = await c.infer(Object.fromEntries(TYPES.map((t) => [`in_${t}`, { data: ARRAYS[t]!(2) }])));
    for (const t of TYPES) {
      const want = ARRAYS[t]!(2);
      const got = out[`out_${t}`]!;
      expect(got.shape, t).toEqual([2]);
      if (t === 'STRING') expect(got.data, t).toEqual([new Uint8Array(0), new Uint8Array(0)]);
      else expect(Object.prototype.toString.call(got.data), t).toBe(Object.prototype.toString.call(want));
    }
    const sizes = (f.requests.at(-1)!.json as { inputs: { parameters: { binary_data_size: number } }[] }).inputs.map((i) => i.parameters.binary_data_size);
    expect(sizes).toEqual([2, 2, 4, 8, 16, 2, 4, 8, 16, 4, 8, 16, 10, 4]);
  });

  it('hostile tensor and model names are strings in requests and results: nothing of them runs', async () => {
    const f = await serve({ [HOSTILE_MODEL]: { config: HOSTILE.json } });
    const c = await mod('evil__name').connect(f.url);
    const out = await c.infer({ [HOSTILE_INPUT]: { data: new Float32Array(2), shape: [1, 2] } });
    expect(Object.keys(out)).toEqual([HOSTILE_OUTPUT, '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')!.value.shape).toEqual([1, 2]);
    expect(f.requests.at(-1)!.path).toBe(`/v2/models/${encodeURIComponent(HOSTILE_MODEL)}/infer`);
  });
  it("inputs named like Object.prototype's keys are only the caller's own: an optional one left out is not given", async () => {
    const f = await serve({ [PROTO_MODEL]: { config: PROTO_NAMES.json } });
    const c = await mod(PROTO_MODEL).connect(f.url);
    const one = (v: number) => ({ data: new Int32Array([v]), shape: [1, 1] });
    // A computed key: a literal __proto__: would set the object's prototype, not give the input.
    const out = await c.infer({ ['__proto__']: one(1), hasOwnProperty: one(2) });
    expect(Object.getOwnPropertyDescriptor(out, 'constructor')!.value.shape).toEqual([1, 1]);
    const sent = f.requests.at(-1)!.json as { inputs: { name: string }[] };
    expect(sent.inputs.map((i) => i.name)).toEqual(['__proto__', 'hasOwnProperty']);
    // A required one missing is named as missing, whatever the prototype holds.
    const missing = await rejection(c.infer({ hasOwnProperty: one(2) }));
    expect([missing.name, missing.input, missing.message]).toEqual([
      'InvalidInput',
      '__proto__',
      'input "__proto__" is missing (model "proto_names" requires it)',
    ]);
  });

  it('a tensor named like a placeholder keeps its name; the sequence id goes where it belongs', async () => {
    const f = await serve({ [PLACEHOLDER_MODEL]: { config: PLACEHOLDER.json } });
    const c = await mod(PLACEHOLDER_MODEL).connect(f.url);
    const one = (v: number) => ({ data: new Int32Array([v]), shape: [1, 1] });
    await c.infer({ VALUE: one(1), [PLACEHOLDER_INPUT]: one(2) }, { sequence: { id: 9007199254740993n, start: true } });
    const sent = f.requests.at(-1)!.json as { inputs: { name: string }[]; parameters: Record<string, unknown> };
    expect(sent.inputs.map((i) => i.name)).toEqual(['VALUE', PLACEHOLDER_INPUT]);
    expect(sent.parameters).toEqual({ sequence_id: 9007199254740992, sequence_start: true });
  });
});

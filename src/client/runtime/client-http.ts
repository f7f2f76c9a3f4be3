// The KServe v2 HTTP transport of a generated TypeScript client (`--protocol http`): fetch, Triton's
// binary tensor data extension, HTTP statuses to the client's errors. It follows client-core.ts in
// the module and uses its checks, retries and errors; it needs nothing beyond fetch. Only the lines
// between the "embedded" markers go into a generated client; the import above them and the export
// below them are for the type checker (tsconfig.json here).
//
// What it relies on from Triton, each cited where it is used:
// - server docs/protocol/extension_binary_data.md: a request body is the JSON header, then each
//   input's bytes in the order listed, with `binary_data_size` on each input's parameters and the
//   header's length in `Inference-Header-Content-Length` (server src/http_server.h
//   kInferHeaderContentLengthHTTPHeader); outputs asked for with `binary_data: true` come back the
//   same way.
// - server src/http_server.cc HttpCodeFromError: INTERNAL 500, NOT_FOUND 404 (a model with no
//   available version: unloaded, or loading again), UNAVAILABLE 503, UNSUPPORTED 501 (a decoupled
//   model's infer over HTTP), INVALID_ARG and the rest 400.
import {
  Aborted,
  checkLittleEndian,
  compareMetadata,
  concat,
  ELEMENT_BYTES,
  InferenceFailed,
  inferWith,
  inputBytes,
  InvalidInput,
  ModelNotReady,
  once,
  own,
  ServerNotLive,
  settingsOf,
  textOf,
  Timeout,
  TritonClientError,
  Unavailable,
  Unsupported,
  utf8,
  waitUntilReady,
  withRetries,
  type Attempt,
  type CallOptions,
  type CommonConnectOptions,
  type Meta,
  type ModelSpec,
  type Outcome,
  type SequenceOptions,
  type Settings,
  type Tensor,
  type WireOutputs,
  type WireRequest,
} from './client-core.js';

// ---- embedded in each generated client from the next line ----
/** Options of connect(): they are also the defaults of every call. */
export interface ConnectOptions extends CommonConnectOptions {
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch | undefined;
}

type FetchBody = NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>;

/** The same values as the JSON form of an output (a server that ignored binary_data): into the output's bytes. */
function jsonOutputBytes(datatype: string, values: unknown[]): Uint8Array {
  if (datatype === 'BYTES') return inputBytes({ name: '', datatype, dims: [] }, { data: values.map(String) }, 0, 1, 1);
  const size = own(ELEMENT_BYTES, datatype);
  if (size === undefined) throw new InferenceFailed('the server sent an output of datatype ' + JSON.stringify(datatype));
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => {
    const at = i * size;
    switch (datatype) {
      case 'BOOL': case 'UINT8': view.setUint8(at, Number(v)); break;
      case 'INT8': view.setInt8(at, Number(v)); break;
      case 'UINT16': view.setUint16(at, Number(v), true); break;
      case 'INT16': view.setInt16(at, Number(v), true); break;
      case 'UINT32': view.setUint32(at, Number(v), true); break;
      case 'INT32': view.setInt32(at, Number(v), true); break;
      case 'FP32': view.setFloat32(at, Number(v), true); break;
      case 'FP64': view.setFloat64(at, Number(v), true); break;
      case 'UINT64': view.setBigUint64(at, BigInt(v as number), true); break;
      case 'INT64': view.setBigInt64(at, BigInt(v as number), true); break;
      default: throw new InferenceFailed('the server sent ' + datatype + ' output as JSON, which carries no ' + datatype);
    }
  });
  return out;
}

/** Why fetch failed, and whether the request surely never reached the server (connection refused). */
function networkCause(e: unknown): { text: string; unsent: boolean } {
  let cause: unknown = e;
  for (let i = 0; i < 4 && cause !== null && typeof cause === 'object'; i++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return { text: code === 'ECONNREFUSED' ? 'connection refused' : code === 'ECONNRESET' ? 'connection reset' : code, unsent: code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' };
    cause = (cause as { cause?: unknown }).cause;
  }
  return { text: e instanceof Error ? e.message : String(e), unsent: false };
}

interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  body: Uint8Array;
}

class Connection {
  readonly base: string;
  readonly modelPath: string;
  private readonly doFetch: typeof fetch;
  private readonly headers: Readonly<Record<string, string>>;
  readonly defaults: ConnectOptions;

  constructor(spec: ModelSpec, url: string, options: ConnectOptions) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new TritonClientError('not a URL: ' + JSON.stringify(url) + ' (give the server\'s HTTP address, e.g. http://localhost:8000)');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TritonClientError('not an http(s) URL: ' + JSON.stringify(url));
    this.base = url.replace(/\/+$/, '');
    const version = options.version === undefined ? '' : '/versions/' + encodeURIComponent(String(options.version));
    this.modelPath = '/v2/models/' + encodeURIComponent(spec.name) + version;
    this.doFetch = options.fetch ?? fetch;
    this.headers = options.headers ?? {};
    this.defaults = options;
  }

  /** One request, ended by the attempt's signal; network failures and the timeout become the client's errors. */
  async send(method: string, path: string, a: Attempt, body?: Uint8Array | string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
    const what = method + ' ' + this.base + path;
    try {
      const init = { method, headers: Object.assign({}, this.headers, headers), signal: a.signal };
      const res = await this.doFetch(this.base + path, body === undefined ? init : Object.assign(init, { body: body as unknown as FetchBody }));
      return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
    } catch (e) {
      if (a.aborted()) throw new Aborted(what + ': aborted');
      if (a.timedOut()) {
        const t = new Timeout(what + ': no answer in time');
        t.retryable = true;
        throw t;
      }
      const cause = networkCause(e);
      const u = new Unavailable('cannot reach ' + this.base + ' (' + cause.text + ')');
      (u as Unavailable & { unsent?: boolean }).unsent = cause.unsent;
      throw u;
    }
  }
}

function serverError(answer: Answer): string | undefined {
  try {
    const parsed = JSON.parse(textOf.decode(answer.body)) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** The error an HTTP answer other than 200 stands for (server src/http_server.cc HttpCodeFromError). */
function httpError(spec: ModelSpec, what: string, answer: Answer): TritonClientError {
  const message = serverError(answer);
  const shown = what + ': HTTP ' + answer.status + (message === undefined ? '' : ': ' + message);
  if (answer.status === 404) return new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + (message ?? 'HTTP 404'), answer.status, message);
  if (answer.status === 400) {
    const named = spec.inputs.find((t) => message !== undefined && message.includes('\'' + t.name + '\''));
    return new InvalidInput(shown, named?.name, answer.status, message);
  }
  if (answer.status === 429 || answer.status === 502 || answer.status === 503 || answer.status === 504) {
    const u = new Unavailable(shown, answer.status, message);
    // 429 and 503 say the server took nothing (it is busy or going away): a sequence step may be sent again.
    (u as Unavailable & { unsent?: boolean }).unsent = answer.status === 429 || answer.status === 503;
    return u;
  }
  if (answer.status === 501) return new Unsupported(shown, answer.status, message);
  // server src/http_server.cc RespondIfRestricted: 403 "This API is restricted, expecting header '<h>'".
  if (answer.status === 403) return new TritonClientError(shown + ' (the server restricts this API: pass the header it expects in connect()\'s options.headers)', answer.status, message);
  return new InferenceFailed(shown, answer.status, message);
}

/** Why the model is not ready, from the repository index when the server answers it (else the HTTP status). */
async function notReadyReason(c: Connection, spec: ModelSpec, s: Settings, answer: Answer): Promise<string> {
  try {
    const index = await withRetries(once(s), false, (a) => c.send('POST', '/v2/repository/index', a, '{}', { 'content-type': 'application/json' }));
    const entries = index.status === 200 ? (JSON.parse(textOf.decode(index.body)) as { name?: string; state?: string; reason?: string }[]) : [];
    const mine = Array.isArray(entries) ? entries.filter((e) => e.name === spec.name) : [];
    if (mine.length) return mine.map((e) => (e.state ?? 'no state') + (e.reason ? ': ' + e.reason : '')).join('; ');
    if (index.status === 200) return 'the server\'s repository has no model ' + JSON.stringify(spec.name);
  } catch {
    // the index is an extension (model_repository); a restricted or missing one says nothing
  }
  return serverError(answer) ?? 'HTTP ' + answer.status;
}

/** Compares the server's model metadata (GET /v2/models/<m>) with the spec: names, datatypes, dims. */
async function checkMetadata(c: Connection, spec: ModelSpec, s: Settings): Promise<void> {
  const answer = await withRetries(s, false, (a) => c.send('GET', c.modelPath, a));
  if (answer.status !== 200) throw httpError(spec, 'GET ' + c.modelPath, answer);
  let meta: { inputs?: Meta[]; outputs?: Meta[] };
  try {
    meta = JSON.parse(textOf.decode(answer.body)) as typeof meta;
  } catch {
    throw new InferenceFailed('GET ' + c.modelPath + ': the answer is not JSON');
  }
  compareMetadata(spec, meta);
}

/** One infer request: the JSON header and the binary tensors, the answer's outputs read back. */
async function httpInfer(c: Connection, spec: ModelSpec, request: WireRequest, s: Settings, a: Attempt): Promise<WireOutputs> {
  const seq = request.sequence;
  const header: Record<string, unknown> = {
    inputs: request.inputs.map((t) => ({ name: t.name, shape: t.shape, datatype: t.datatype, parameters: { binary_data_size: t.bytes.length } })),
    outputs: request.outputs.map((name) => ({ name, parameters: { binary_data: true } })),
  };
  if (request.id !== undefined) header.id = request.id;
  // The sequence parameters are written after the header's JSON, not substituted into it: the
  // correlation id goes as the exact number it is (JSON.stringify has no bigint, and a double loses an
  // id above 2^53), and no tensor name or request id can be taken for where it goes.
  let text = JSON.stringify(header);
  if (seq !== undefined) {
    const id = typeof seq.id === 'string' ? JSON.stringify(seq.id) : String(seq.id);
    text = text.slice(0, -1) + ',"parameters":{"sequence_id":' + id + (seq.start ? ',"sequence_start":true' : '') + (seq.end ? ',"sequence_end":true' : '') + '}}';
  }
  const json = utf8.encode(text);
  const body = concat([json as Uint8Array, ...request.inputs.map((t) => t.bytes)]);
  const what = 'POST ' + c.modelPath + '/infer';
  const answer = await c.send('POST', c.modelPath + '/infer', a, body, Object.assign({ 'content-type': 'application/octet-stream', 'inference-header-content-length': String(json.length) }, s.headers ?? {}));
  if (answer.status !== 200) throw httpError(spec, what, answer);
  const lengthHeader = answer.headers.get('inference-header-content-length');
  const jsonEnd = lengthHeader === null ? answer.body.length : Number(lengthHeader);
  if (!Number.isSafeInteger(jsonEnd) || jsonEnd < 0 || jsonEnd > answer.body.length) throw new InferenceFailed(what + ': Inference-Header-Content-Length ' + lengthHeader + ' does not fit the ' + answer.body.length + '-byte answer');
  type Out = { name: string; datatype: string; shape: number[]; data?: unknown[]; parameters?: { binary_data_size?: number } };
  let response: { outputs?: Out[] };
  try {
    response = JSON.parse(textOf.decode(answer.body.subarray(0, jsonEnd))) as typeof response;
  } catch {
    throw new InferenceFailed(what + ': the answer\'s header is not JSON');
  }
  if (!Array.isArray(response.outputs) || !response.outputs.every((o) => typeof o === 'object' && o !== null && typeof o.name === 'string' && typeof o.datatype === 'string' && Array.isArray(o.shape) && o.shape.every((d) => Number.isSafeInteger(d) && d >= 0))) {
    throw new InferenceFailed(what + ': the answer\'s outputs are not what the KServe v2 protocol documents (name, datatype, shape each)');
  }
  let at = jsonEnd;
  const got: WireOutputs = new Map();
  for (const o of response.outputs) {
    const size = o.parameters?.binary_data_size;
    let bytes: Uint8Array;
    if (size !== undefined) {
      if (!Number.isSafeInteger(size) || size < 0 || at + size > answer.body.length) throw new InferenceFailed(what + ': output ' + JSON.stringify(o.name) + ' declares more bytes than the answer holds');
      bytes = answer.body.subarray(at, at + size);
      at += size;
    } else {
      bytes = jsonOutputBytes(o.datatype, (o.data ?? []) as unknown[]);
    }
    got.set(o.name, { shape: o.shape, bytes, datatype: o.datatype });
  }
  return got;
}

/** The connected client the module's connect() returns, typed there. */
interface RuntimeClient {
  readonly url: string;
  infer(inputs: Readonly<Record<string, Tensor | undefined>>, options: (CallOptions & { sequence?: SequenceOptions | undefined }) | undefined): Promise<Outcome>;
  ready(options?: CallOptions): Promise<boolean>;
  close(): void;
}

async function open(spec: ModelSpec, url: string, options: ConnectOptions): Promise<RuntimeClient> {
  if (spec.decoupled) {
    throw new Unsupported('model ' + JSON.stringify(spec.name) + ' is decoupled (model_transaction_policy { decoupled: true }): its responses stream, which Triton\'s HTTP endpoint cannot carry (it answers 501); use gRPC streaming for it (tritonc client --protocol grpc)');
  }
  checkLittleEndian();
  const c = new Connection(spec, url, options);
  const s = settingsOf(options, {});
  await waitUntilReady(options.waitMs, async () => {
    try {
      const live = await withRetries(once(s), false, (a) => c.send('GET', '/v2/health/live', a));
      if (live.status !== 200) {
        return new ServerNotLive('server at ' + c.base + ' is not live: GET /v2/health/live answered HTTP ' + live.status + (serverError(live) ? ': ' + serverError(live) : ''), live.status, serverError(live));
      }
      const ready = await withRetries(once(s), false, (a) => c.send('GET', c.modelPath + '/ready', a));
      if (ready.status === 200) return undefined;
      return new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + (await notReadyReason(c, spec, s, ready)), ready.status, serverError(ready));
    } catch (e) {
      if (!(e instanceof Unavailable) && !(e instanceof Timeout)) throw e;
      return new ServerNotLive('server at ' + c.base + ' is not live: ' + e.message.replace('cannot reach ' + c.base + ' ', '').replace(/^\((.*)\)$/, '$1'));
    }
  });
  if (options.checkMetadata !== false) await checkMetadata(c, spec, s);
  return {
    url: c.base,
    infer: (inputs, o) => inferWith(spec, c.defaults, 'POST ' + c.modelPath + '/infer', (request, s2, a) => httpInfer(c, spec, request, s2, a), inputs, o ?? {}),
    ready: async (o: CallOptions = {}) => (await withRetries(settingsOf(c.defaults, o), false, (a) => c.send('GET', c.modelPath + '/ready', a))).status === 200,
    close: () => undefined,
  };
}
// ---- embedded up to the line above ----

// For the type checker: connect() in the generated part calls it.
export { open };

// The part of every generated TypeScript client that does not depend on the model: the KServe v2 HTTP
// calls with Triton's binary tensor data extension, the checks made before a request is sent, the
// batch split, the retries and the error classes. It reads the model from the `SPEC` constant the
// generator writes above it (names and types as JSON literals, so no name from a config ever
// becomes code). Kept free of backticks and dollar-brace so it can live in this template string, and
// free of enums, parameter properties and namespaces, so the module also runs under type stripping.
//
// What it relies on from Triton, each cited where it is used:
// - server docs/protocol/extension_binary_data.md: a request body is the JSON header, then each
//   input's bytes in the order listed, with `binary_data_size` on each input's parameters and the
//   header's length in `Inference-Header-Content-Length` (server src/http_server.h
//   kInferHeaderContentLengthHTTPHeader); outputs asked for with `binary_data: true` come back the
//   same way. BYTES elements are each a 4-byte little-endian length and the bytes.
// - server src/http_server.cc HttpCodeFromError: INTERNAL 500, NOT_FOUND 404 (a model with no
//   available version: unloaded, or loading again), UNAVAILABLE 503, UNSUPPORTED 501 (a decoupled
//   model's infer over HTTP), INVALID_ARG and the rest 400.
export const TYPESCRIPT_RUNTIME = String.raw`
/** Every error the client throws. "retryable" says whether the same call may succeed later. */
export class TritonClientError extends Error {
  override name = 'TritonClientError';
  /** Whether the same call may succeed if tried again (the client has already retried it, within its bounds). */
  retryable = false;
  /** The HTTP status of the answer, when there was one. */
  status: number | undefined;
  /** The server's own message ({"error": ...}), when it sent one. */
  serverMessage: string | undefined;
  /** How many requests the call made (1 when it was not retried). */
  attempts = 1;
  constructor(message: string, status?: number, serverMessage?: string) {
    super(message);
    this.status = status;
    this.serverMessage = serverMessage;
  }
}
/** GET /v2/health/live did not answer 200, or nothing answered at the URL. */
export class ServerNotLive extends TritonClientError {
  override name = 'ServerNotLive';
}
/** The model is not ready (not loaded, or being loaded again): retryable, as a reload ends. */
export class ModelNotReady extends TritonClientError {
  override name = 'ModelNotReady';
  override retryable = true;
}
/** The inputs do not fit the model (checked before sending, naming the input), or the server refused them (HTTP 400). Never retried. */
export class InvalidInput extends TritonClientError {
  override name = 'InvalidInput';
  /** The input at fault, when one is. */
  input: string | undefined;
  constructor(message: string, input?: string, status?: number, serverMessage?: string) {
    super(message, status, serverMessage);
    this.input = input;
  }
}
/** The server could not be reached, or answered 429, 502, 503 or 504: transient, retried with backoff. */
export class Unavailable extends TritonClientError {
  override name = 'Unavailable';
  override retryable = true;
}
/** No answer within the time given (timeoutMs for the call, attemptTimeoutMs for one request). */
export class Timeout extends TritonClientError {
  override name = 'Timeout';
}
/** The caller's AbortSignal ended the call. */
export class Aborted extends TritonClientError {
  override name = 'Aborted';
}
/** The server ran the request and failed (HTTP 500, 501, ...), or answered what the protocol does not allow. */
export class InferenceFailed extends TritonClientError {
  override name = 'InferenceFailed';
}
/** The model the server serves is not the one this client was generated from (its inputs or outputs differ). */
export class ModelMismatch extends TritonClientError {
  override name = 'ModelMismatch';
}
/** What this client cannot do for this model (a decoupled model over HTTP). */
export class Unsupported extends TritonClientError {
  override name = 'Unsupported';
}

/** Options of connect(): they are also the defaults of every call. */
export interface ConnectOptions {
  /** Headers sent with every request (an API key, --http-restricted-api's header). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The model version to use (default: the one the server picks). */
  readonly version?: number | string | undefined;
  /** How long connect waits for the server to be live and the model ready, polling (default 0: one look). */
  readonly waitMs?: number | undefined;
  /** Compare the server's model metadata with this client's inputs and outputs (default true). */
  readonly checkMetadata?: boolean | undefined;
  /** Defaults for every call (see CallOptions). */
  readonly timeoutMs?: number | undefined;
  readonly attemptTimeoutMs?: number | undefined;
  readonly retries?: number | undefined;
  readonly backoffMs?: number | undefined;
  readonly maxBackoffMs?: number | undefined;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch | undefined;
}

/** Options of one call. */
export interface CallOptions {
  /** The whole call's time, retries and waits included (default 60000 ms). */
  readonly timeoutMs?: number | undefined;
  /** One request's time; a request that runs out is retried while the call has time (default: timeoutMs). */
  readonly attemptTimeoutMs?: number | undefined;
  /** Retries of a transient failure (unreachable, 429/502/503/504, model not ready, one request timed out); default 3. Never of a refused input. */
  readonly retries?: number | undefined;
  /** The first retry's wait; each later one doubles, with jitter, up to maxBackoffMs (defaults 100 and 2000 ms). */
  readonly backoffMs?: number | undefined;
  readonly maxBackoffMs?: number | undefined;
  /** Ends the call (Aborted). */
  readonly signal?: AbortSignal | undefined;
  /** Headers for this call, over connect's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The request id the server echoes and logs. */
  readonly requestId?: string | undefined;
  /** Split a batch larger than max_batch_size into requests of at most max_batch_size and join the outputs (default true). */
  readonly split?: boolean | undefined;
}

/** A sequence's correlation: Triton's sequence_id, sequence_start and sequence_end parameters. */
export interface SequenceOptions {
  /** The correlation id: a whole number (not 0), or a string where the model's CONTROL_SEQUENCE_CORRID is TYPE_STRING. */
  readonly id: number | bigint | string;
  /** The first request of the sequence. */
  readonly start?: boolean | undefined;
  /** The last request of the sequence. */
  readonly end?: boolean | undefined;
}

interface TensorSpec {
  readonly name: string;
  readonly datatype: string;
  readonly dims: readonly number[];
  readonly optional?: boolean;
}

interface ModelSpec {
  readonly name: string;
  readonly maxBatchSize: number;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  readonly sequence: boolean;
  readonly decoupled: boolean;
}

type Tensor = { readonly data: unknown; readonly shape?: readonly number[] | undefined };
interface Settings extends CallOptions {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly split: boolean;
}
type FetchBody = NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>;

const ELEMENT_BYTES: Readonly<Record<string, number>> = {
  BOOL: 1, UINT8: 1, INT8: 1, UINT16: 2, INT16: 2, FP16: 2, BF16: 2, UINT32: 4, INT32: 4, FP32: 4, UINT64: 8, INT64: 8, FP64: 8,
};
/** The array each protocol datatype travels in (FP16 and BF16 as their raw 16 bits, BOOL as 0 or 1). */
const ARRAY_OF: Readonly<Record<string, string>> = {
  BOOL: 'Uint8Array', UINT8: 'Uint8Array', INT8: 'Int8Array', UINT16: 'Uint16Array', INT16: 'Int16Array', FP16: 'Uint16Array',
  BF16: 'Uint16Array', UINT32: 'Uint32Array', INT32: 'Int32Array', FP32: 'Float32Array', UINT64: 'BigUint64Array',
  INT64: 'BigInt64Array', FP64: 'Float64Array', BYTES: 'an array of strings or of Uint8Arrays',
};

/** A table's own entry (never Object.prototype's: a server's datatype "constructor" is no datatype). */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);

const utf8 = new TextEncoder();
const textOf = new TextDecoder();

/** The strings of a BYTES output, decoded as UTF-8. */
export function decodeStrings(data: readonly Uint8Array[]): string[] {
  return data.map((b) => textOf.decode(b));
}

const shapeText = (shape: readonly number[]): string => '[' + shape.join(', ') + ']';
const product = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
const kindOf = (x: unknown): string => Object.prototype.toString.call(x).slice(8, -1);

function expectedShape(spec: ModelSpec, t: TensorSpec): string {
  const dims = t.dims.map((d) => (d < 0 ? 'any' : String(d)));
  return '[' + (spec.maxBatchSize > 0 ? ['batch'].concat(dims) : dims).join(', ') + ']';
}

/** The checks Triton makes of a request, made here first so a bad input is named before anything is sent. */
function checkInputs(spec: ModelSpec, inputs: Readonly<Record<string, Tensor | undefined>>, split: boolean, noSplit: string): number {
  const known = new Set(spec.inputs.map((t) => t.name));
  for (const name of Object.keys(inputs)) {
    if (!known.has(name) && inputs[name] !== undefined) {
      throw new InvalidInput('model ' + JSON.stringify(spec.name) + ' has no input ' + JSON.stringify(name) + '; its inputs: ' + spec.inputs.map((t) => JSON.stringify(t.name)).join(', '), name);
    }
  }
  let batch: number | undefined;
  let batchFrom = '';
  for (const t of spec.inputs) {
    const tensor = inputs[t.name];
    const shown = 'input ' + JSON.stringify(t.name);
    if (tensor === undefined) {
      if (t.optional) continue;
      throw new InvalidInput(shown + ' is missing (model ' + JSON.stringify(spec.name) + ' requires it)', t.name);
    }
    const data = tensor.data;
    let count: number;
    if (t.datatype === 'BYTES') {
      if (!Array.isArray(data) || !data.every((x) => typeof x === 'string' || kindOf(x) === 'Uint8Array')) {
        throw new InvalidInput(shown + ' takes ' + ARRAY_OF.BYTES + ' (TYPE_STRING); got ' + kindOf(data), t.name);
      }
      count = data.length;
    } else {
      const kind = own(ARRAY_OF, t.datatype);
      if (kindOf(data) !== kind) throw new InvalidInput(shown + ' takes a ' + String(kind) + ' (' + t.datatype + '); got ' + kindOf(data), t.name);
      count = (data as { length: number }).length;
    }
    const shape = tensor.shape ?? (spec.maxBatchSize > 0 || t.dims.some((d) => d < 0) ? undefined : t.dims);
    if (shape === undefined) throw new InvalidInput(shown + ': give its shape, ' + expectedShape(spec, t), t.name);
    if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw new InvalidInput(shown + ': the shape must be whole numbers of 0 or more; got ' + JSON.stringify(shape), t.name);
    }
    const itemDims = spec.maxBatchSize > 0 ? shape.slice(1) : shape;
    const rankOk = shape.length === t.dims.length + (spec.maxBatchSize > 0 ? 1 : 0);
    if (!rankOk || t.dims.some((d, i) => d >= 0 && itemDims[i] !== d)) {
      throw new InvalidInput(shown + ': shape ' + shapeText(shape) + ' does not match the model\'s ' + expectedShape(spec, t) + (spec.maxBatchSize > 0 ? ' (the batch axis first: max_batch_size is ' + spec.maxBatchSize + ')' : ''), t.name);
    }
    if (product(shape) !== count) {
      throw new InvalidInput(shown + ': shape ' + shapeText(shape) + ' holds ' + product(shape) + ' elements but the data has ' + count, t.name);
    }
    if (spec.maxBatchSize > 0) {
      const b = shape[0] as number;
      if (b < 1) throw new InvalidInput(shown + ': the batch (the first dim) must be 1 or more; got ' + b, t.name);
      if (batch === undefined) {
        batch = b;
        batchFrom = t.name;
      } else if (b !== batch) {
        throw new InvalidInput(shown + ': batch ' + b + ' differs from input ' + JSON.stringify(batchFrom) + '\'s batch ' + batch + ' (all inputs share the first dim)', t.name);
      }
    }
  }
  if (batch !== undefined && batch > spec.maxBatchSize && !split) {
    throw new InvalidInput('input ' + JSON.stringify(batchFrom) + ': batch ' + batch + ' is larger than the model\'s max_batch_size ' + spec.maxBatchSize + ' (' + noSplit + ')', batchFrom);
  }
  return batch ?? 1;
}

/** An input's bytes for the batch items [from, to): fixed-size elements as they lie in memory (little-endian), BYTES length-prefixed. */
function inputBytes(t: TensorSpec, tensor: Tensor, from: number, to: number, batch: number): Uint8Array {
  if (t.datatype === 'BYTES') {
    const all = tensor.data as readonly (string | Uint8Array)[];
    const per = all.length / batch;
    const items = all.slice(from * per, to * per).map((x) => (typeof x === 'string' ? utf8.encode(x) : x));
    const out = new Uint8Array(items.reduce((n, x) => n + 4 + x.length, 0));
    const view = new DataView(out.buffer);
    let at = 0;
    for (const x of items) {
      view.setUint32(at, x.length, true);
      out.set(x, at + 4);
      at += 4 + x.length;
    }
    return out;
  }
  const view = tensor.data as ArrayBufferView;
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const per = bytes.length / batch;
  return bytes.subarray(from * per, to * per);
}

/** An output's array from its bytes (copied, so the array is aligned and its own). */
function outputData(datatype: string, bytes: Uint8Array): unknown {
  if (datatype === 'BYTES') {
    const items: Uint8Array[] = [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < bytes.length; ) {
      if (at + 4 > bytes.length) throw new InferenceFailed('a BYTES output ends inside an element\'s length');
      const n = view.getUint32(at, true);
      if (at + 4 + n > bytes.length) throw new InferenceFailed('a BYTES output element runs past the output');
      items.push(bytes.slice(at + 4, at + 4 + n));
      at += 4 + n;
    }
    return items;
  }
  const size = own(ELEMENT_BYTES, datatype);
  if (size === undefined || bytes.length % size !== 0) throw new InferenceFailed('output bytes (' + bytes.length + ') are not whole ' + datatype + ' elements');
  const buffer = bytes.slice().buffer;
  switch (datatype) {
    case 'INT8': return new Int8Array(buffer);
    case 'UINT16': case 'FP16': case 'BF16': return new Uint16Array(buffer);
    case 'INT16': return new Int16Array(buffer);
    case 'UINT32': return new Uint32Array(buffer);
    case 'INT32': return new Int32Array(buffer);
    case 'FP32': return new Float32Array(buffer);
    case 'UINT64': return new BigUint64Array(buffer);
    case 'INT64': return new BigInt64Array(buffer);
    case 'FP64': return new Float64Array(buffer);
    default: return new Uint8Array(buffer);
  }
}

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

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
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

  /** One request, ended by the signal; network failures and the timeout become the client's errors. */
  async send(method: string, path: string, signal: AbortSignal, timedOut: () => boolean, aborted: () => boolean, body?: Uint8Array | string, headers: Readonly<Record<string, string>> = {}): Promise<Answer> {
    const what = method + ' ' + this.base + path;
    try {
      const init = { method, headers: Object.assign({}, this.headers, headers), signal };
      const res = await this.doFetch(this.base + path, body === undefined ? init : Object.assign(init, { body: body as unknown as FetchBody }));
      return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
    } catch (e) {
      if (aborted()) throw new Aborted(what + ': aborted');
      if (timedOut()) {
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
  if (answer.status === 429 || answer.status === 502 || answer.status === 503 || answer.status === 504) return new Unavailable(shown, answer.status, message);
  if (answer.status === 501) return new Unsupported(shown, answer.status, message);
  // server src/http_server.cc RespondIfRestricted: 403 "This API is restricted, expecting header '<h>'".
  if (answer.status === 403) return new TritonClientError(shown + ' (the server restricts this API: pass the header it expects in connect()\'s options.headers)', answer.status, message);
  return new InferenceFailed(shown, answer.status, message);
}

/**
 * Runs attempt() until it succeeds, fails for good, or the call's time or retries run out. Only
 * retryable errors are retried; for a sequence, only those where the request surely did not run
 * (refused connection, 429/503, model not ready), so no step of a sequence is applied twice.
 */
async function withRetries<T>(s: Settings, sequence: boolean, attempt: (signal: AbortSignal, timedOut: () => boolean, aborted: () => boolean) => Promise<T>): Promise<T> {
  const started = Date.now();
  const deadline = started + s.timeoutMs;
  for (let attempts = 1; ; attempts++) {
    const left = deadline - Date.now();
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, Math.max(0, Math.min(left, s.attemptTimeoutMs ?? left)));
    const onAbort = (): void => controller.abort();
    s.signal?.addEventListener('abort', onAbort);
    try {
      if (s.signal?.aborted) throw new Aborted('aborted before it was sent');
      return await attempt(controller.signal, () => expired, () => s.signal?.aborted === true);
    } catch (e) {
      if (!(e instanceof TritonClientError)) throw e;
      e.attempts = attempts;
      const unsent = e instanceof ModelNotReady || (e instanceof Unavailable && ((e as Unavailable & { unsent?: boolean }).unsent === true || e.status === 429 || e.status === 503));
      const wait = Math.min(s.maxBackoffMs, s.backoffMs * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
      const again = e.retryable && attempts <= s.retries && (!sequence || unsent) && Date.now() + wait < deadline && !s.signal?.aborted;
      if (!again) {
        if (e instanceof Timeout && Date.now() >= deadline) {
          const t = new Timeout(e.message.replace(/no answer in time$/, 'no answer within ' + s.timeoutMs + ' ms') + (attempts > 1 ? ' (' + attempts + ' attempts)' : ''));
          t.attempts = attempts;
          throw t;
        }
        if (attempts > 1) e.message += ' (after ' + attempts + ' attempts)';
        throw e;
      }
      await sleep(wait, s.signal);
    } finally {
      clearTimeout(timer);
      s.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function settingsOf(defaults: ConnectOptions, o: CallOptions): Settings {
  const pick = <K extends keyof CallOptions & keyof ConnectOptions>(k: K) => (o[k] !== undefined ? o[k] : defaults[k]);
  return Object.assign({}, o, {
    timeoutMs: pick('timeoutMs') ?? 60000,
    attemptTimeoutMs: pick('attemptTimeoutMs'),
    retries: pick('retries') ?? 3,
    backoffMs: pick('backoffMs') ?? 100,
    maxBackoffMs: pick('maxBackoffMs') ?? 2000,
    split: o.split ?? true,
  });
}

/** Why the model is not ready, from the repository index when the server answers it (else the HTTP status). */
async function notReadyReason(c: Connection, spec: ModelSpec, s: Settings, answer: Answer): Promise<string> {
  try {
    const index = await withRetries(Object.assign({}, s, { retries: 0 }), false, (signal, timedOut, aborted) => c.send('POST', '/v2/repository/index', signal, timedOut, aborted, '{}', { 'content-type': 'application/json' }));
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
  const answer = await withRetries(s, false, (signal, timedOut, aborted) => c.send('GET', c.modelPath, signal, timedOut, aborted));
  if (answer.status !== 200) throw httpError(spec, 'GET ' + c.modelPath, answer);
  type Meta = { name: string; datatype: string; shape: number[] };
  let meta: { inputs?: Meta[]; outputs?: Meta[] };
  try {
    meta = JSON.parse(textOf.decode(answer.body)) as typeof meta;
  } catch {
    throw new InferenceFailed('GET ' + c.modelPath + ': the answer is not JSON');
  }
  const problems: string[] = [];
  const compare = (side: 'input' | 'output', mine: readonly TensorSpec[], theirs: Meta[] | undefined): void => {
    const byName = new Map((theirs ?? []).map((t) => [t.name, t]));
    for (const t of mine) {
      const there = byName.get(t.name);
      if (!there) {
        if (!t.optional) problems.push(side + ' ' + JSON.stringify(t.name) + ' is not served');
        continue;
      }
      byName.delete(t.name);
      if (there.datatype !== t.datatype) problems.push(side + ' ' + JSON.stringify(t.name) + ' is ' + there.datatype + ' there, ' + t.datatype + ' here');
      const dims = spec.maxBatchSize > 0 ? there.shape.slice(1) : there.shape;
      if (Array.isArray(there.shape) && (dims.length !== t.dims.length || dims.some((d, i) => d !== t.dims[i]))) {
        problems.push(side + ' ' + JSON.stringify(t.name) + ' has shape ' + shapeText(there.shape) + ' there, ' + expectedShape(spec, t) + ' here');
      }
    }
    for (const name of byName.keys()) problems.push(side + ' ' + JSON.stringify(name) + ' is served but not known here');
  };
  compare('input', spec.inputs, meta.inputs);
  compare('output', spec.outputs, meta.outputs);
  if (problems.length) {
    throw new ModelMismatch('the server\'s model ' + JSON.stringify(spec.name) + ' is not the one this client was generated from: ' + problems.join('; ') + '; generate the client again from the config the server loads (tritonc client)');
  }
}

async function connectTo(spec: ModelSpec, url: string, options: ConnectOptions): Promise<Connection> {
  if (spec.decoupled) {
    throw new Unsupported('model ' + JSON.stringify(spec.name) + ' is decoupled (model_transaction_policy { decoupled: true }): its responses stream, which Triton\'s HTTP endpoint cannot carry (it answers 501); use gRPC streaming for it');
  }
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Unsupported('this client sends tensors as they lie in memory, which Triton reads as little-endian; this machine is big-endian');
  const c = new Connection(spec, url, options);
  const s = settingsOf(options, {});
  const until = Date.now() + (options.waitMs ?? 0);
  for (;;) {
    let problem: TritonClientError;
    try {
      const live = await withRetries(Object.assign({}, s, { retries: 0 }), false, (signal, timedOut, aborted) => c.send('GET', '/v2/health/live', signal, timedOut, aborted));
      if (live.status !== 200) {
        problem = new ServerNotLive('server at ' + c.base + ' is not live: GET /v2/health/live answered HTTP ' + live.status + (serverError(live) ? ': ' + serverError(live) : ''), live.status, serverError(live));
      } else {
        const ready = await withRetries(Object.assign({}, s, { retries: 0 }), false, (signal, timedOut, aborted) => c.send('GET', c.modelPath + '/ready', signal, timedOut, aborted));
        if (ready.status === 200) break;
        problem = new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + (await notReadyReason(c, spec, s, ready)), ready.status, serverError(ready));
      }
    } catch (e) {
      if (!(e instanceof Unavailable) && !(e instanceof Timeout)) throw e;
      problem = new ServerNotLive('server at ' + c.base + ' is not live: ' + e.message.replace('cannot reach ' + c.base + ' ', '').replace(/^\((.*)\)$/, '$1'));
    }
    if (Date.now() >= until) throw problem;
    await sleep(Math.min(500, until - Date.now()), undefined);
  }
  if (options.checkMetadata !== false) await checkMetadata(c, spec, s);
  return c;
}

/** One infer call: checked, split into requests of at most max_batch_size, sent with retries, outputs joined. */
async function inferWith(c: Connection, spec: ModelSpec, inputs: Readonly<Record<string, Tensor | undefined>>, options: CallOptions & { sequence?: SequenceOptions | undefined }): Promise<Record<string, { data: unknown; shape: number[] }>> {
  const s = settingsOf(c.defaults, options);
  const seq = options.sequence;
  if (spec.sequence && seq === undefined) throw new InvalidInput('model ' + JSON.stringify(spec.name) + ' is a sequence model: give options.sequence (its correlation id, start and end)');
  if (seq !== undefined && !(typeof seq.id === 'string' ? seq.id !== '' : typeof seq.id === 'bigint' ? seq.id > 0n : Number.isSafeInteger(seq.id) && seq.id > 0)) {
    throw new InvalidInput('sequence.id must be a whole number above 0 or a non-empty string; got ' + String(seq.id));
  }
  const batch = checkInputs(spec, inputs, s.split && seq === undefined, seq === undefined ? 'split is off' : 'a sequence\'s request is never split');
  const step = spec.maxBatchSize > 0 ? spec.maxBatchSize : batch;
  const present = spec.inputs.filter((t) => inputs[t.name] !== undefined);
  const parts: { shape: number[]; bytes: Uint8Array }[][] = spec.outputs.map(() => []);
  for (let from = 0; from < batch; from += step) {
    const to = Math.min(batch, from + step);
    const bodies = present.map((t) => inputBytes(t, inputs[t.name] as Tensor, from, to, batch));
    const parameters: Record<string, unknown> = {};
    if (seq !== undefined) {
      parameters.sequence_id = '\u0000SEQ\u0000';
      if (seq.start) parameters.sequence_start = true;
      if (seq.end) parameters.sequence_end = true;
    }
    const header: Record<string, unknown> = {
      inputs: present.map((t, i) => {
        const tensor = inputs[t.name] as Tensor;
        const shape = tensor.shape ?? t.dims;
        return { name: t.name, shape: spec.maxBatchSize > 0 ? [to - from].concat(shape.slice(1)) : shape, datatype: t.datatype, parameters: { binary_data_size: (bodies[i] as Uint8Array).length } };
      }),
      outputs: spec.outputs.map((t) => ({ name: t.name, parameters: { binary_data: true } })),
    };
    if (options.requestId !== undefined) header.id = options.requestId;
    if (seq !== undefined) header.parameters = parameters;
    // A bigint or large correlation id is written as the JSON number it is (JSON.stringify has no bigint).
    const id = seq === undefined ? '' : typeof seq.id === 'string' ? JSON.stringify(seq.id) : String(seq.id);
    const json = utf8.encode(JSON.stringify(header).replace('"\\u0000SEQ\\u0000"', id));
    const body = concat([json, ...bodies]);
    const what = 'POST ' + c.modelPath + '/infer';
    const answer = await withRetries(s, seq !== undefined, async (signal, timedOut, aborted) => {
      const a = await c.send('POST', c.modelPath + '/infer', signal, timedOut, aborted, body, Object.assign({ 'content-type': 'application/octet-stream', 'inference-header-content-length': String(json.length) }, s.headers ?? {}));
      if (a.status !== 200) throw httpError(spec, what, a);
      return a;
    });
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
    const got = new Map<string, { shape: number[]; bytes: Uint8Array; datatype: string }>();
    for (const o of response.outputs ?? []) {
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
    spec.outputs.forEach((t, i) => {
      const o = got.get(t.name);
      if (!o) throw new InferenceFailed(what + ': the answer has no output ' + JSON.stringify(t.name));
      if (o.datatype !== t.datatype) throw new InferenceFailed(what + ': output ' + JSON.stringify(t.name) + ' came as ' + o.datatype + ', not ' + t.datatype + ' (the server\'s model differs from this client\'s)');
      (parts[i] as { shape: number[]; bytes: Uint8Array }[]).push(o);
    });
  }
  const result: Record<string, { data: unknown; shape: number[] }> = {};
  spec.outputs.forEach((t, i) => {
    const p = parts[i] as { shape: number[]; bytes: Uint8Array }[];
    const first = p[0] as { shape: number[]; bytes: Uint8Array };
    const shape = first.shape.slice();
    if (p.length > 1) {
      // Joined along the batch axis: the other dims must agree.
      for (const q of p.slice(1)) {
        if (q.shape.length !== shape.length || q.shape.slice(1).some((d, k) => d !== shape[k + 1])) {
          throw new InferenceFailed('output ' + JSON.stringify(t.name) + ': the split requests answered shapes ' + shapeText(first.shape) + ' and ' + shapeText(q.shape) + ', which do not join; call with split: false and a batch of at most ' + spec.maxBatchSize);
        }
        shape[0] = (shape[0] as number) + (q.shape[0] as number);
      }
    }
    // defineProperty: a tensor named "__proto__" is a key like any other, not the result's prototype.
    Object.defineProperty(result, t.name, { enumerable: true, writable: true, configurable: true, value: { data: outputData(t.datatype, p.length > 1 ? concat(p.map((q) => q.bytes)) : first.bytes), shape } });
  });
  return result;
}
`;

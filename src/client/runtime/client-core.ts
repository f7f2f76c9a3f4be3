// The part of every generated TypeScript client that depends on neither the model nor the protocol:
// the error classes, the options, the checks made before a request is sent, the batch split and the
// join of the outputs, tensors to bytes and back, the retries and the comparison of the served
// model's metadata. A transport (client-http.ts: KServe v2 HTTP with fetch; client-grpc.ts: KServe v2
// gRPC with @grpc/grpc-js) follows it in each module and supplies one request's exchange. It reads the
// model from the `SPEC` constant the generator (src/client/typescript.ts) writes above it (names and
// types as JSON literals, so no name from a config ever becomes code). Free of enums, parameter
// properties and namespaces, so the module also runs under type stripping.
//
// Only the lines between the two "embedded" markers go into a generated client (cut out by
// src/client/runtime-text.ts); the lines outside them are for the type checker alone (tsconfig.json
// here, run by test/client/runtime-check.test.ts): here, the export of what the transports use, as
// the generated module has them all in one scope.
//
// Tensor bytes are the same on both protocols: fixed-size elements little-endian as they lie in
// memory, a BYTES element a 4-byte little-endian length and its bytes (server
// docs/protocol/extension_binary_data.md for HTTP; common protobuf/grpc_service.proto
// ModelInferRequest.raw_input_contents for gRPC, "using the same format as the binary data extension").
// ---- embedded in each generated client from the next line ----
/** Every error the client throws. "retryable" says whether the same call may succeed later. */
export class TritonClientError extends Error {
  override name = 'TritonClientError';
  /** Whether the same call may succeed if tried again (the client has already retried it, within its bounds). */
  retryable = false;
  /** The answer's status, when there was one: the HTTP status (an HTTP client), the gRPC status code (a gRPC client). */
  status: number | undefined;
  /** The server's own message (HTTP: its {"error": ...}; gRPC: the status details or the stream's error_message), when it sent one. */
  serverMessage: string | undefined;
  /** How many requests the call made (1 when it was not retried). */
  attempts = 1;
  constructor(message: string, status?: number, serverMessage?: string) {
    super(message);
    this.status = status;
    this.serverMessage = serverMessage;
  }
}
/** The server did not say it is live (HTTP GET /v2/health/live, gRPC ServerLive), or nothing answered at the URL. */
export class ServerNotLive extends TritonClientError {
  override name = 'ServerNotLive';
}
/** The model is not ready (not loaded, or being loaded again): retryable, as a reload ends. */
export class ModelNotReady extends TritonClientError {
  override name = 'ModelNotReady';
  override retryable = true;
}
/** The inputs do not fit the model (checked before sending, naming the input), or the server refused them (HTTP 400, gRPC INVALID_ARGUMENT). Never retried. */
export class InvalidInput extends TritonClientError {
  override name = 'InvalidInput';
  /** The input at fault, when one is. */
  input: string | undefined;
  constructor(message: string, input?: string, status?: number, serverMessage?: string) {
    super(message, status, serverMessage);
    this.input = input;
  }
}
/** The server could not be reached, or answered that it cannot take the request now (HTTP 429, 502, 503, 504; gRPC UNAVAILABLE): transient, retried with backoff. */
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
/** The server ran the request and failed (HTTP 500, gRPC INTERNAL, a model's error, ...), or answered what the protocol does not allow. */
export class InferenceFailed extends TritonClientError {
  override name = 'InferenceFailed';
}
/** The model the server serves is not the one this client was generated from (its inputs or outputs differ). */
export class ModelMismatch extends TritonClientError {
  override name = 'ModelMismatch';
}
/** What this client cannot do for this model (a decoupled model over HTTP; HTTP 501, gRPC UNIMPLEMENTED). */
export class Unsupported extends TritonClientError {
  override name = 'Unsupported';
}

/** What connect() takes on either protocol: also the defaults of every call. */
interface CommonConnectOptions {
  /** Headers sent with every request (HTTP headers; gRPC metadata): an API key, a restricted API's header. */
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
}

/** Options of one call. */
export interface CallOptions {
  /** The whole call's time, retries and waits included (default 60000 ms); over gRPC each request's deadline. */
  readonly timeoutMs?: number | undefined;
  /** One request's time; a request that runs out is retried while the call has time (default: timeoutMs). */
  readonly attemptTimeoutMs?: number | undefined;
  /** Retries of a transient failure (unreachable, unavailable, model not ready, one request timed out); default 3. Never of a refused input. */
  readonly retries?: number | undefined;
  /** The first retry's wait; each later one doubles, with jitter, up to maxBackoffMs (defaults 100 and 2000 ms). */
  readonly backoffMs?: number | undefined;
  readonly maxBackoffMs?: number | undefined;
  /** Ends the call (Aborted). */
  readonly signal?: AbortSignal | undefined;
  /** Headers (gRPC: metadata) for this call, over connect's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The request id the server echoes and logs. */
  readonly requestId?: string | undefined;
  /** Split a batch larger than max_batch_size into requests of at most max_batch_size and join the outputs (default true). */
  readonly split?: boolean | undefined;
}

/** A sequence's correlation: Triton's sequence_id, sequence_start and sequence_end parameters. */
export interface SequenceOptions {
  /** The correlation id: a whole number (not 0, below 2^64), or a string where the model's CONTROL_SEQUENCE_CORRID is TYPE_STRING. */
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
type Outcome = Record<string, { data: unknown; shape: number[] }>;
interface Settings extends CallOptions {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  readonly split: boolean;
}

/** One request as both transports send it: the tensors' bytes, the outputs asked for, the sequence. */
interface WireRequest {
  readonly inputs: readonly { readonly name: string; readonly datatype: string; readonly shape: readonly number[]; readonly bytes: Uint8Array }[];
  readonly outputs: readonly string[];
  readonly id: string | undefined;
  readonly sequence: SequenceOptions | undefined;
}
/** One answer's outputs by name, as the transport read them. */
type WireOutputs = Map<string, { datatype: string; shape: number[]; bytes: Uint8Array }>;

/** One attempt of a call: its signal (ended at the attempt's time or by the caller), what ended it, and its deadline. */
interface Attempt {
  readonly signal: AbortSignal;
  readonly deadline: number;
  timedOut(): boolean;
  aborted(): boolean;
}

/** A served tensor as the model metadata gives it (HTTP GET /v2/models/<m>, gRPC ModelMetadata). */
type Meta = { name: string; datatype: string; shape: number[] };

const ELEMENT_BYTES: Readonly<Record<string, number>> = {
  BOOL: 1, UINT8: 1, INT8: 1, UINT16: 2, INT16: 2, FP16: 2, BF16: 2, UINT32: 4, INT32: 4, FP32: 4, UINT64: 8, INT64: 8, FP64: 8,
};
/** The array each protocol datatype travels in (FP16 and BF16 as their raw 16 bits, BOOL as 0 or 1). */
const ARRAY_OF: Readonly<Record<string, string>> = {
  BOOL: 'Uint8Array', UINT8: 'Uint8Array', INT8: 'Int8Array', UINT16: 'Uint16Array', INT16: 'Int16Array', FP16: 'Uint16Array',
  BF16: 'Uint16Array', UINT32: 'Uint32Array', INT32: 'Int32Array', FP32: 'Float32Array', UINT64: 'BigUint64Array',
  INT64: 'BigInt64Array', FP64: 'Float64Array', BYTES: 'an array of strings or of Uint8Arrays',
};

/** A table's own entry (never Object.prototype's: a server's datatype "constructor" is no datatype, and a caller's inputs without "constructor" have no input "constructor"). */
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
    if (!known.has(name) && own(inputs, name) !== undefined) {
      throw new InvalidInput('model ' + JSON.stringify(spec.name) + ' has no input ' + JSON.stringify(name) + '; its inputs: ' + spec.inputs.map((t) => JSON.stringify(t.name)).join(', '), name);
    }
  }
  let batch: number | undefined;
  let batchFrom = '';
  for (const t of spec.inputs) {
    const tensor = own(inputs, t.name);
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


/** Whether an error says the request surely did not run (so a sequence step may be sent again). */
function unsent(e: TritonClientError): boolean {
  return e instanceof ModelNotReady || (e instanceof Unavailable && (e as Unavailable & { unsent?: boolean }).unsent === true);
}

/**
 * Runs attempt() until it succeeds, fails for good, or the call's time or retries run out. Only
 * retryable errors are retried; for a sequence, only those where the request surely did not run
 * (refused connection, a server that said it took nothing, model not ready), so no step of a sequence
 * is applied twice.
 */
async function withRetries<T>(s: Settings, sequence: boolean, attempt: (a: Attempt) => Promise<T>): Promise<T> {
  const started = Date.now();
  const deadline = started + s.timeoutMs;
  for (let attempts = 1; ; attempts++) {
    const left = deadline - Date.now();
    const controller = new AbortController();
    let expired = false;
    const span = Math.max(0, Math.min(left, s.attemptTimeoutMs ?? left));
    const timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, span);
    const onAbort = (): void => controller.abort();
    s.signal?.addEventListener('abort', onAbort);
    try {
      if (s.signal?.aborted) throw new Aborted('aborted before it was sent');
      return await attempt({ signal: controller.signal, deadline: Date.now() + span, timedOut: () => expired, aborted: () => s.signal?.aborted === true });
    } catch (e) {
      if (!(e instanceof TritonClientError)) throw e;
      e.attempts = attempts;
      const wait = Math.min(s.maxBackoffMs, s.backoffMs * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
      const again = e.retryable && attempts <= s.retries && (!sequence || unsent(e)) && Date.now() + wait < deadline && !s.signal?.aborted;
      if (!again) {
        if (e instanceof Timeout && Date.now() >= deadline) {
          const t = new Timeout(e.message.replace(/no answer in time$/, 'no answer within ' + s.timeoutMs + ' ms') + (attempts > 1 ? ' (' + attempts + ' attempts)' : ''), e.status, e.serverMessage);
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

function settingsOf(defaults: CommonConnectOptions, o: CallOptions): Settings {
  const pick = <K extends keyof CallOptions & keyof CommonConnectOptions>(k: K) => (o[k] !== undefined ? o[k] : defaults[k]);
  return Object.assign({}, o, {
    timeoutMs: pick('timeoutMs') ?? 60000,
    attemptTimeoutMs: pick('attemptTimeoutMs'),
    retries: pick('retries') ?? 3,
    backoffMs: pick('backoffMs') ?? 100,
    maxBackoffMs: pick('maxBackoffMs') ?? 2000,
    split: o.split ?? true,
  });
}

/** The same settings with no retry: one look (connect's probes). */
const once = (s: Settings): Settings => Object.assign({}, s, { retries: 0 });

/** Throws ModelMismatch where the served model's inputs or outputs (names, datatypes, dims) differ from the spec's. */
function compareMetadata(spec: ModelSpec, meta: { inputs?: Meta[] | undefined; outputs?: Meta[] | undefined }): void {
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

/** Looks until look() finds nothing wrong or waitMs has passed (then throws what it found last). */
async function waitUntilReady(waitMs: number | undefined, look: () => Promise<TritonClientError | undefined>): Promise<void> {
  const until = Date.now() + (waitMs ?? 0);
  for (;;) {
    const problem = await look();
    if (problem === undefined) return;
    if (Date.now() >= until) throw problem;
    await sleep(Math.min(500, until - Date.now()), undefined);
  }
}

function checkLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new Unsupported('this client sends tensors as they lie in memory, which Triton reads as little-endian; this machine is big-endian');
}

/** The checks of a call's sequence option: required for a sequence model, a valid id. */
function checkSequence(spec: ModelSpec, seq: SequenceOptions | undefined): void {
  if (spec.sequence && seq === undefined) throw new InvalidInput('model ' + JSON.stringify(spec.name) + ' is a sequence model: give options.sequence (its correlation id, start and end)');
  if (seq !== undefined && !(typeof seq.id === 'string' ? seq.id !== '' : typeof seq.id === 'bigint' ? seq.id > 0n && seq.id < 18446744073709551616n : Number.isSafeInteger(seq.id) && seq.id > 0)) {
    throw new InvalidInput('sequence.id must be a whole number above 0 and below 2^64, or a non-empty string; got ' + String(seq.id));
  }
}

/** The requests of one call: checked, split into parts of at most max_batch_size (unless split is off or it cannot be). */
function requestsOf(spec: ModelSpec, inputs: Readonly<Record<string, Tensor | undefined>>, s: Settings, seq: SequenceOptions | undefined, noSplit: string | undefined): WireRequest[] {
  checkSequence(spec, seq);
  const batch = checkInputs(spec, inputs, s.split && noSplit === undefined, noSplit ?? 'split is off');
  const step = spec.maxBatchSize > 0 ? spec.maxBatchSize : batch;
  const present = spec.inputs.filter((t) => own(inputs, t.name) !== undefined);
  const requests: WireRequest[] = [];
  for (let from = 0; from < batch; from += step) {
    const to = Math.min(batch, from + step);
    requests.push({
      inputs: present.map((t) => {
        const tensor = own(inputs, t.name) as Tensor;
        const shape = tensor.shape ?? t.dims;
        return { name: t.name, datatype: t.datatype, shape: spec.maxBatchSize > 0 ? [to - from].concat(shape.slice(1)) : shape.slice(), bytes: inputBytes(t, tensor, from, to, batch) };
      }),
      outputs: spec.outputs.map((t) => t.name),
      id: s.requestId,
      sequence: seq,
    });
  }
  return requests;
}

/** Each of the spec's outputs from one answer, checked against the spec's datatypes. */
function outputsOf(spec: ModelSpec, what: string, got: WireOutputs): { shape: number[]; bytes: Uint8Array }[] {
  return spec.outputs.map((t) => {
    const o = got.get(t.name);
    if (!o) throw new InferenceFailed(what + ': the answer has no output ' + JSON.stringify(t.name));
    if (o.datatype !== t.datatype) throw new InferenceFailed(what + ': output ' + JSON.stringify(t.name) + ' came as ' + o.datatype + ', not ' + t.datatype + ' (the server\'s model differs from this client\'s)');
    return o;
  });
}

/** The outputs of the parts of a call joined along the batch axis, as the result object. */
function joinOutputs(spec: ModelSpec, parts: { shape: number[]; bytes: Uint8Array }[][]): Outcome {
  const result: Outcome = {};
  spec.outputs.forEach((t, i) => {
    const p = parts.map((answer) => answer[i] as { shape: number[]; bytes: Uint8Array });
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

/** One infer call: checked, split into requests of at most max_batch_size, each sent with retries by send(), outputs joined. */
async function inferWith(spec: ModelSpec, defaults: CommonConnectOptions, what: string, send: (request: WireRequest, s: Settings, a: Attempt) => Promise<WireOutputs>, inputs: Readonly<Record<string, Tensor | undefined>>, options: CallOptions & { sequence?: SequenceOptions | undefined }): Promise<Outcome> {
  const s = settingsOf(defaults, options);
  const seq = options.sequence;
  const requests = requestsOf(spec, inputs, s, seq, seq === undefined ? undefined : 'a sequence\'s request is never split');
  const parts: { shape: number[]; bytes: Uint8Array }[][] = [];
  for (const request of requests) {
    const got = await withRetries(s, seq !== undefined, (a) => send(request, s, a));
    parts.push(outputsOf(spec, what, got));
  }
  return joinOutputs(spec, parts);
}
// ---- embedded up to the line above ----

// For the type checker: what the transports use, one scope with them in a generated module.
export {
  checkLittleEndian,
  compareMetadata,
  concat,
  ELEMENT_BYTES,
  inferWith,
  inputBytes,
  joinOutputs,
  once,
  outputsOf,
  own,
  requestsOf,
  settingsOf,
  shapeText,
  sleep,
  textOf,
  unsent,
  utf8,
  waitUntilReady,
  withRetries,
  type Attempt,
  type CommonConnectOptions,
  type Meta,
  type ModelSpec,
  type Outcome,
  type Settings,
  type Tensor,
  type WireOutputs,
  type WireRequest,
};

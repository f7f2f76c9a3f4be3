// The KServe v2 gRPC transport of a generated TypeScript client (`--protocol grpc`): @grpc/grpc-js's
// generic Client with this file's own protobuf encoding of the few messages it sends and reads (no
// .proto loaded, no generated stubs), gRPC statuses to the client's errors, and a decoupled model's
// responses as an async iterator over the bidirectional ModelStreamInfer stream. It follows
// client-core.ts in the module and uses its checks, retries and errors. Only the lines between the
// "embedded" markers go into a generated client; the imports above them and the export below them
// are for the type checker (tsconfig.json here).
//
// What it relies on from Triton, each cited where it is used:
// - common protobuf/grpc_service.proto (r24.10): the service inference.GRPCInferenceService and the
//   field numbers of each message, written beside the code that encodes or reads them.
// - server src/grpc/grpc_utils.cc GrpcStatusUtil::CodeToStatus: INTERNAL, NOT_FOUND (a model with no
//   available version: unloaded, or loading again), INVALID_ARGUMENT, UNAVAILABLE, UNIMPLEMENTED
//   (UNSUPPORTED: a decoupled model's ModelInfer), each Triton error's code as the gRPC status.
// - server src/grpc/stream_infer_handler.cc: a stream's failed request is a response whose
//   error_message holds the message (no status code); each response of a decoupled model carries the
//   parameter triton_final_response, and an empty final response is sent only when the request asks
//   for it with triton_enable_empty_final_response.

// The generated module imports grpc in its header (src/client/typescript.ts).
import * as grpc from '@grpc/grpc-js';
import {
  Aborted,
  checkLittleEndian,
  compareMetadata,
  concat,
  InferenceFailed,
  inferWith,
  InvalidInput,
  joinOutputs,
  ModelNotReady,
  once,
  outputsOf,
  requestsOf,
  ServerNotLive,
  settingsOf,
  shapeText,
  sleep,
  textOf,
  Timeout,
  TritonClientError,
  Unavailable,
  unsent,
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
  /** The channel's credentials (default: plaintext for host:port and grpc://host:port, TLS with the system's roots for grpcs://host:port). */
  readonly credentials?: grpc.ChannelCredentials | undefined;
  /** grpc-js client options (channel options, interceptors), over this client's own (messages up to 2^31 - 1 bytes each way, as Triton's own client allows). */
  readonly channelOptions?: grpc.ClientOptions | undefined;
}

/** Options of one stream() call: a call's options but split and attemptTimeoutMs (timeoutMs is the whole stream's deadline). */
export type StreamCallOptions = Omit<CallOptions, 'split' | 'attemptTimeoutMs'>;

// ---- The protobuf wire format (proto3): varints, length-delimited fields, nothing else is sent. ----

const NO_BYTES = new Uint8Array(0);

function pbVarint(value: number | bigint): number[] {
  const out: number[] = [];
  if (typeof value === 'number' && value >= 0 && value < 0x80000000) {
    let v = value;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.push(v);
    return out;
  }
  // A negative int64 is its 64-bit two's complement, as protobuf writes it (ten bytes).
  let v = BigInt.asUintN(64, BigInt(value));
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

/** A message being written: its fields in the order added, each a tag and its value. */
class PbWriter {
  private readonly parts: Uint8Array[] = [];
  varint(field: number, value: number | bigint | boolean): PbWriter {
    this.parts.push(new Uint8Array(pbVarint(field * 8).concat(pbVarint(typeof value === 'boolean' ? (value ? 1 : 0) : value))));
    return this;
  }
  bytes(field: number, b: Uint8Array): PbWriter {
    this.parts.push(new Uint8Array(pbVarint(field * 8 + 2).concat(pbVarint(b.length))), b);
    return this;
  }
  string(field: number, s: string): PbWriter {
    return this.bytes(field, utf8.encode(s));
  }
  message(field: number, w: PbWriter): PbWriter {
    return this.bytes(field, w.finish());
  }
  packedInt64(field: number, values: readonly number[]): PbWriter {
    return this.bytes(field, new Uint8Array(values.reduce((all: number[], v) => all.concat(pbVarint(v)), [])));
  }
  finish(): Uint8Array {
    return concat(this.parts);
  }
}

interface PbField {
  readonly field: number;
  readonly wire: number;
  readonly varint: bigint;
  readonly bytes: Uint8Array;
}

/** A message's fields as they come (a field of a type this client does not read is skipped by its wire type). */
function pbFields(buf: Uint8Array, what: string): PbField[] {
  const out: PbField[] = [];
  let at = 0;
  const bad = (): InferenceFailed => new InferenceFailed(what + ': the answer is not a protobuf message of the KServe v2 gRPC protocol');
  const varint = (): bigint => {
    let v = 0n;
    for (let i = 0; i < 10; i++) {
      if (at >= buf.length) throw bad();
      const b = buf[at++] as number;
      v |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) return v;
    }
    throw bad();
  };
  while (at < buf.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      out.push({ field, wire, varint: varint(), bytes: NO_BYTES });
    } else if (wire === 2) {
      const n = varint();
      if (n > BigInt(buf.length - at)) throw bad();
      out.push({ field, wire, varint: 0n, bytes: buf.subarray(at, at + Number(n)) });
      at += Number(n);
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
      if (at > buf.length) throw bad();
    } else {
      throw bad();
    }
  }
  return out;
}

const pbText = (f: PbField): string => textOf.decode(f.bytes);

/** A repeated int64 field's values, packed (proto3's way) or one by one; each a whole number a double holds. */
function pbInt64s(f: PbField, what: string, into: number[]): void {
  const values: bigint[] = f.wire === 0 ? [f.varint] : [];
  if (f.wire === 2) {
    // A packed run: varints back to back.
    let at = 0;
    while (at < f.bytes.length) {
      let v = 0n;
      let i = 0;
      for (;; i++) {
        if (i >= 10 || at >= f.bytes.length) throw new InferenceFailed(what + ': a shape in the answer is not a packed int64 list');
        const b = f.bytes[at++] as number;
        v |= BigInt(b & 0x7f) << BigInt(7 * i);
        if ((b & 0x80) === 0) break;
      }
      values.push(v);
    }
  }
  for (const v of values) {
    const n = Number(BigInt.asIntN(64, v));
    if (!Number.isSafeInteger(n)) throw new InferenceFailed(what + ': a shape in the answer holds ' + String(BigInt.asIntN(64, v)));
    into.push(n);
  }
}

// ---- The messages (common protobuf/grpc_service.proto, field numbers beside each). ----

/** ModelReadyRequest and ModelMetadataRequest: string name = 1; string version = 2. */
function encodeModelRef(name: string, version: string): Uint8Array {
  const w = new PbWriter().string(1, name);
  if (version !== '') w.string(2, version);
  return w.finish();
}

/** ServerLiveResponse { bool live = 1; } and ModelReadyResponse { bool ready = 1; }. */
function decodeFlag(b: Uint8Array, what: string): boolean {
  return pbFields(b, what).some((f) => f.field === 1 && f.wire === 0 && f.varint !== 0n);
}

/** TensorMetadata { string name = 1; string datatype = 2; repeated int64 shape = 3; }. */
function decodeTensorMeta(b: Uint8Array, what: string): Meta {
  const meta: Meta = { name: '', datatype: '', shape: [] };
  for (const f of pbFields(b, what)) {
    if (f.field === 1 && f.wire === 2) meta.name = pbText(f);
    else if (f.field === 2 && f.wire === 2) meta.datatype = pbText(f);
    else if (f.field === 3) pbInt64s(f, what, meta.shape);
  }
  return meta;
}

/** ModelMetadataResponse { name = 1; versions = 2; platform = 3; repeated TensorMetadata inputs = 4; outputs = 5; }. */
function decodeMetadata(b: Uint8Array, what: string): { inputs: Meta[]; outputs: Meta[] } {
  const meta = { inputs: [] as Meta[], outputs: [] as Meta[] };
  for (const f of pbFields(b, what)) {
    if (f.field === 4 && f.wire === 2) meta.inputs.push(decodeTensorMeta(f.bytes, what));
    else if (f.field === 5 && f.wire === 2) meta.outputs.push(decodeTensorMeta(f.bytes, what));
  }
  return meta;
}

/** RepositoryIndexResponse { repeated ModelIndex models = 1; }, ModelIndex { name = 1; version = 2; state = 3; reason = 4; }. */
function decodeIndex(b: Uint8Array, what: string): { name: string; state: string; reason: string }[] {
  return pbFields(b, what).filter((f) => f.field === 1 && f.wire === 2).map((f) => {
    const entry = { name: '', state: '', reason: '' };
    for (const g of pbFields(f.bytes, what)) {
      if (g.wire !== 2) continue;
      if (g.field === 1) entry.name = pbText(g);
      else if (g.field === 3) entry.state = pbText(g);
      else if (g.field === 4) entry.reason = pbText(g);
    }
    return entry;
  });
}

/**
 * ModelInferRequest { model_name = 1; model_version = 2; id = 3; map<string, InferParameter>
 * parameters = 4; repeated InferInputTensor inputs = 5; repeated InferRequestedOutputTensor outputs = 6;
 * repeated bytes raw_input_contents = 7; }. A map entry is { key = 1; value = 2; }; InferParameter is
 * a oneof of bool_param = 1, int64_param = 2, string_param = 3. InferInputTensor { name = 1;
 * datatype = 2; repeated int64 shape = 3; }, InferRequestedOutputTensor { name = 1; }.
 */
function encodeInferRequest(spec: ModelSpec, version: string, request: WireRequest, emptyFinal: boolean): Uint8Array {
  const w = new PbWriter().string(1, spec.name);
  if (version !== '') w.string(2, version);
  if (request.id !== undefined) w.string(3, request.id);
  const parameter = (key: string, value: PbWriter): void => void w.message(4, new PbWriter().string(1, key).message(2, value));
  const seq = request.sequence;
  if (seq !== undefined) {
    // server src/grpc/infer_handler.cc SetInferenceRequestMetadata: sequence_id as int64_param (read as
    // the uint64 correlation id: the same 64 bits) or string_param; sequence_start, sequence_end as bool_param.
    parameter('sequence_id', typeof seq.id === 'string' ? new PbWriter().string(3, seq.id) : new PbWriter().varint(2, seq.id));
    if (seq.start) parameter('sequence_start', new PbWriter().varint(1, true));
    if (seq.end) parameter('sequence_end', new PbWriter().varint(1, true));
  }
  // server src/grpc/infer_handler.cc SetStateParameterFromTritonParameter: the stream then sends a
  // response with triton_final_response true even where the model's last send carries no response.
  if (emptyFinal) parameter('triton_enable_empty_final_response', new PbWriter().varint(1, true));
  for (const t of request.inputs) w.message(5, new PbWriter().string(1, t.name).string(2, t.datatype).packedInt64(3, t.shape));
  for (const name of request.outputs) w.message(6, new PbWriter().string(1, name));
  for (const t of request.inputs) w.bytes(7, t.bytes);
  return w.finish();
}

/**
 * ModelInferResponse { model_name = 1; model_version = 2; id = 3; map<string, InferParameter>
 * parameters = 4; repeated InferOutputTensor outputs = 5; repeated bytes raw_output_contents = 6; },
 * InferOutputTensor { name = 1; datatype = 2; repeated int64 shape = 3; }: raw_output_contents holds
 * each output's bytes in the order of outputs.
 */
function decodeInferResponse(b: Uint8Array, what: string): { outputs: WireOutputs; final: boolean; empty: boolean } {
  const tensors: Meta[] = [];
  const raw: Uint8Array[] = [];
  let final = false;
  for (const f of pbFields(b, what)) {
    if (f.field === 4 && f.wire === 2) {
      let key = '';
      let value: Uint8Array = NO_BYTES;
      for (const g of pbFields(f.bytes, what)) {
        if (g.field === 1 && g.wire === 2) key = pbText(g);
        else if (g.field === 2 && g.wire === 2) value = g.bytes;
      }
      if (key === 'triton_final_response') final = decodeFlag(value, what);
    } else if (f.field === 5 && f.wire === 2) {
      tensors.push(decodeTensorMeta(f.bytes, what));
    } else if (f.field === 6 && f.wire === 2) {
      raw.push(f.bytes);
    }
  }
  if (raw.length !== tensors.length) throw new InferenceFailed(what + ': the answer has ' + tensors.length + ' outputs and ' + raw.length + ' raw_output_contents (this client reads outputs only as raw contents)');
  const outputs: WireOutputs = new Map();
  tensors.forEach((t, i) => {
    if (t.shape.some((d) => d < 0)) throw new InferenceFailed(what + ': output ' + JSON.stringify(t.name) + ' has shape ' + shapeText(t.shape));
    outputs.set(t.name, { datatype: t.datatype, shape: t.shape, bytes: raw[i] as Uint8Array });
  });
  return { outputs, final, empty: tensors.length === 0 };
}

/** ModelStreamInferResponse { string error_message = 1; ModelInferResponse infer_response = 2; }. */
function decodeStreamResponse(b: Uint8Array, what: string): { error: string | undefined; response: Uint8Array } {
  let error: string | undefined;
  let response: Uint8Array = NO_BYTES;
  for (const f of pbFields(b, what)) {
    if (f.field === 1 && f.wire === 2 && f.bytes.length > 0) error = pbText(f);
    else if (f.field === 2 && f.wire === 2) response = f.bytes;
  }
  return { error, response };
}

// ---- Statuses and messages to the client's errors. ----

/** Triton's messages of a request it did not take (so it surely did not run), by source. */
const NOT_TAKEN = [
  'Exceeds maximum queue size', // core src/scheduler_utils.cc PriorityQueue::PolicyQueue::Enqueue (UNAVAILABLE)
  'Server not ready', // core src/server.cc InferenceServer::InferAsync (UNAVAILABLE)
  'Server is stopping', // core src/dynamic_batch_scheduler.cc DynamicBatchScheduler::Enqueue (UNAVAILABLE)
];
/** Triton's messages of a model without a ready version: core src/model_repository_manager/model_lifecycle.cc ModelLifeCycle::GetModel. */
const NOT_READY = /has no available versions|is not at ready state|Request for unknown model/;

const statusName = (code: number): string => grpc.status[code] ?? 'status ' + code;

/** The error a failed call stands for (server src/grpc/grpc_utils.cc GrpcStatusUtil::CodeToStatus gives Triton's codes). */
function grpcError(spec: ModelSpec, c: Channel, what: string, e: unknown, a: Attempt | undefined): TritonClientError {
  const err = e as Partial<grpc.ServiceError>;
  const code = typeof err.code === 'number' ? err.code : grpc.status.UNKNOWN;
  const details = typeof err.details === 'string' ? err.details : e instanceof Error ? e.message : String(e);
  if (a?.aborted()) return new Aborted(what + ': aborted', code, details);
  if (code === grpc.status.DEADLINE_EXCEEDED || (code === grpc.status.CANCELLED && a?.timedOut())) {
    const t = new Timeout(what + ': no answer in time', code, details);
    t.retryable = true;
    return t;
  }
  const shown = what + ': ' + statusName(code) + ': ' + details;
  if (code === grpc.status.NOT_FOUND || NOT_READY.test(details)) return new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + details, code, details);
  if (code === grpc.status.INVALID_ARGUMENT) {
    const named = spec.inputs.find((t) => details.includes('\'' + t.name + '\''));
    return new InvalidInput(shown, named?.name, code, details);
  }
  if (code === grpc.status.UNAVAILABLE) {
    // server src/grpc/grpc_server.cc CommonCallData::Execute (and infer_handler.cc): a restricted
    // protocol answers UNAVAILABLE "This protocol is restricted, expecting header '<h>'", which no retry
    // mends; <h> is the key given to --grpc-restricted-protocol after "triton-grpc-protocol-"
    // (src/grpc/grpc_server.h kRestrictedProtocolHeaderTemplate).
    if (details.startsWith('This protocol is restricted')) return new TritonClientError(shown + ' (the server restricts this protocol: pass the header it expects in connect()\'s options.headers)', code, details);
    const refused = /ECONNREFUSED|No connection established/.test(details);
    const u = new Unavailable(refused ? 'cannot reach ' + c.base + ' (' + (/ECONNREFUSED/.test(details) ? 'connection refused' : details) + ')' : shown, code, details);
    (u as Unavailable & { unsent?: boolean }).unsent = refused || NOT_TAKEN.some((m) => details.includes(m));
    return u;
  }
  if (code === grpc.status.UNIMPLEMENTED) return new Unsupported(shown, code, details);
  return new InferenceFailed(shown, code, details);
}

/** A stream's error_message (it has no status code: server src/grpc/stream_infer_handler.cc), read by Triton's wording. */
function streamMessageError(spec: ModelSpec, what: string, message: string): TritonClientError {
  if (NOT_READY.test(message)) return new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + message, undefined, message);
  if (NOT_TAKEN.some((m) => message.includes(m))) {
    const u = new Unavailable(what + ': ' + message, undefined, message);
    (u as Unavailable & { unsent?: boolean }).unsent = true;
    return u;
  }
  return new InferenceFailed(what + ': ' + message, undefined, message);
}

// ---- The channel. ----

/** client src/c++/library/common.h MAX_GRPC_MESSAGE_SIZE: Triton's own client sends and takes messages up to INT32_MAX bytes. */
const MAX_MESSAGE_BYTES = 2147483647;
const SERVICE = '/inference.GRPCInferenceService/';

const toBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const fromBuffer = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

class Channel {
  readonly base: string;
  readonly version: string;
  readonly client: grpc.Client;
  readonly defaults: ConnectOptions;

  constructor(url: string, options: ConnectOptions) {
    const m = /^(?:(grpcs?):\/\/)?((?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):[0-9]{1,5})\/?$/.exec(url);
    if (!m) throw new TritonClientError('not a gRPC address: ' + JSON.stringify(url) + ' (give host:port, grpc://host:port or grpcs://host:port, e.g. localhost:8001)');
    const tls = m[1] === 'grpcs';
    const address = m[2] as string;
    this.base = (tls ? 'grpcs://' : 'grpc://') + address;
    this.version = options.version === undefined ? '' : String(options.version);
    this.defaults = options;
    const credentials = options.credentials ?? (tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure());
    const channelOptions = Object.assign({ 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES, 'grpc.max_send_message_length': MAX_MESSAGE_BYTES }, options.channelOptions ?? {});
    this.client = new grpc.Client(address, credentials, channelOptions);
  }

  /** The call's metadata: connect's headers, then the call's. */
  metadata(headers: Readonly<Record<string, string>> | undefined): grpc.Metadata {
    const md = new grpc.Metadata();
    for (const [k, v] of Object.entries(Object.assign({}, this.defaults.headers ?? {}, headers ?? {}))) {
      try {
        md.set(k.toLowerCase(), v);
      } catch {
        throw new TritonClientError('header ' + JSON.stringify(k) + ' cannot be gRPC metadata (a key is letters, digits, "-", "_" and "."; a value printable ASCII)');
      }
    }
    return md;
  }

  /** One unary call with the attempt's deadline, cancelled by its signal; its answer's bytes. */
  unary(method: string, body: Uint8Array, headers: Readonly<Record<string, string>> | undefined, a: Attempt): Promise<Uint8Array> {
    const md = this.metadata(headers);
    return new Promise((resolve, reject) => {
      const call = this.client.makeUnaryRequest<Uint8Array, Uint8Array>(SERVICE + method, toBuffer, fromBuffer, body, md, { deadline: a.deadline }, (err, value) => {
        a.signal.removeEventListener('abort', cancel);
        if (err || value === undefined) reject(err ?? new Error('no answer'));
        else resolve(value);
      });
      // The caller's abort cancels the call; the attempt's time is the call's own deadline (DEADLINE_EXCEEDED).
      const cancel = (): void => {
        if (!a.timedOut()) call.cancel();
      };
      a.signal.addEventListener('abort', cancel);
    });
  }
}

/** The connected client the module's connect() returns, typed there. */
interface RuntimeClient {
  readonly url: string;
  infer(inputs: Readonly<Record<string, Tensor | undefined>>, options: (CallOptions & { sequence?: SequenceOptions | undefined }) | undefined): Promise<Outcome>;
  stream(inputs: Readonly<Record<string, Tensor | undefined>>, options: (StreamCallOptions & { sequence?: SequenceOptions | undefined }) | undefined): AsyncIterable<Outcome>;
  ready(options?: CallOptions): Promise<boolean>;
  close(): void;
}

/** A unary call with the call's retries, its failures as the client's errors. */
function call(c: Channel, spec: ModelSpec, method: string, body: Uint8Array, s: Settings, sequence: boolean): Promise<Uint8Array> {
  return withRetries(s, sequence, async (a) => {
    try {
      return await c.unary(method, body, s.headers, a);
    } catch (e) {
      throw e instanceof TritonClientError ? e : grpcError(spec, c, method, e, a);
    }
  });
}

/** Why the model is not ready, from the repository index (RepositoryIndex) when the server answers it. */
async function notReadyReason(c: Channel, spec: ModelSpec, s: Settings): Promise<string> {
  try {
    // RepositoryIndexRequest { string repository_name = 1; bool ready = 2; }: every model, any state.
    const entries = decodeIndex(await call(c, spec, 'RepositoryIndex', NO_BYTES, once(s), false), 'RepositoryIndex').filter((e) => e.name === spec.name);
    if (entries.length) return entries.map((e) => (e.state || 'no state') + (e.reason ? ': ' + e.reason : '')).join('; ');
    return 'the server\'s repository has no model ' + JSON.stringify(spec.name);
  } catch {
    // the index is an extension (model_repository); a restricted or missing one says nothing
    return 'ModelReady answered false';
  }
}

/** One request's responses over a ModelStreamInfer stream, in order, until the final one. */
async function* streamWith(c: Channel, spec: ModelSpec, inputs: Readonly<Record<string, Tensor | undefined>>, options: StreamCallOptions & { sequence?: SequenceOptions | undefined }): AsyncGenerator<Outcome, void, undefined> {
  const s = settingsOf(c.defaults, options);
  const request = requestsOf(spec, inputs, s, options.sequence, 'a stream\'s request is never split')[0] as WireRequest;
  const body = encodeInferRequest(spec, c.version, request, true);
  const what = 'ModelStreamInfer ' + JSON.stringify(spec.name);
  const deadline = Date.now() + s.timeoutMs;
  for (let attempts = 1; ; attempts++) {
    if (s.signal?.aborted) throw new Aborted(what + ': aborted before it was sent');
    const stream = c.client.makeBidiStreamRequest<Uint8Array, Uint8Array>(SERVICE + 'ModelStreamInfer', toBuffer, fromBuffer, c.metadata(s.headers), { deadline });
    const queue: Uint8Array[] = [];
    let failure: unknown;
    let ended = false;
    let wake: (() => void) | undefined;
    const notify = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    // A bounded queue: the stream is paused while 16 responses wait to be read.
    stream.on('data', (b: Uint8Array) => {
      queue.push(b);
      if (queue.length >= 16) stream.pause();
      notify();
    });
    stream.on('error', (e: unknown) => {
      failure = e;
      notify();
    });
    stream.on('end', () => {
      ended = true;
      notify();
    });
    const onAbort = (): void => stream.cancel();
    s.signal?.addEventListener('abort', onAbort);
    const attempt: Attempt = { signal: s.signal ?? new AbortController().signal, deadline, timedOut: () => Date.now() >= deadline, aborted: () => s.signal?.aborted === true };
    let given = 0;
    let done = false;
    try {
      stream.write(body);
      // The request is sent: half-close; Triton answers every request in flight before it ends the stream (server src/grpc/stream_infer_handler.cc, the READ step's !rpc_ok).
      stream.end();
      for (;;) {
        while (queue.length === 0 && failure === undefined && !ended) await new Promise<void>((r) => (wake = r));
        const next = queue.shift();
        if (queue.length < 4) stream.resume();
        if (next === undefined) {
          if (failure !== undefined) throw grpcError(spec, c, what, failure, attempt);
          done = true;
          return;
        }
        const m = decodeStreamResponse(next, what);
        if (m.error !== undefined) throw streamMessageError(spec, what, m.error);
        const r = decodeInferResponse(m.response, what);
        if (!r.empty) {
          given++;
          yield joinOutputs(spec, [outputsOf(spec, what, r.outputs)]);
        }
        if (r.final) {
          done = true;
          return;
        }
      }
    } catch (e) {
      if (!(e instanceof TritonClientError)) throw e;
      e.attempts = attempts;
      const wait = Math.min(s.maxBackoffMs, s.backoffMs * 2 ** (attempts - 1)) * (0.5 + Math.random() / 2);
      // Retried only before its first response and where the request surely did not run.
      if (!(given === 0 && e.retryable && unsent(e) && attempts <= s.retries && Date.now() + wait < deadline && !s.signal?.aborted)) {
        if (e instanceof Timeout) e.message = e.message.replace(/no answer in time$/, 'the stream ran past its ' + s.timeoutMs + ' ms');
        if (attempts > 1) e.message += ' (after ' + attempts + ' attempts)';
        throw e;
      }
      await sleep(wait, s.signal);
    } finally {
      s.signal?.removeEventListener('abort', onAbort);
      // A consumer that stops early (break), or a failure: the stream is cancelled, not left open.
      if (!done) stream.cancel();
    }
  }
}

async function open(spec: ModelSpec, url: string, options: ConnectOptions): Promise<RuntimeClient> {
  checkLittleEndian();
  const c = new Channel(url, options);
  const s = settingsOf(options, {});
  const ref = encodeModelRef(spec.name, c.version);
  try {
    await waitUntilReady(options.waitMs, async () => {
      try {
        // ServerLiveRequest {}.
        if (!decodeFlag(await call(c, spec, 'ServerLive', NO_BYTES, once(s), false), 'ServerLive')) return new ServerNotLive('server at ' + c.base + ' is not live: ServerLive answered false');
        if (decodeFlag(await call(c, spec, 'ModelReady', ref, once(s), false), 'ModelReady')) return undefined;
        return new ModelNotReady('model ' + JSON.stringify(spec.name) + ' is not ready: ' + (await notReadyReason(c, spec, s)));
      } catch (e) {
        if (e instanceof ModelNotReady) return e;
        if (!(e instanceof Unavailable) && !(e instanceof Timeout)) throw e;
        return new ServerNotLive('server at ' + c.base + ' is not live: ' + e.message.replace('cannot reach ' + c.base + ' ', '').replace(/^\((.*)\)$/, '$1'), e.status, e.serverMessage);
      }
    });
    if (options.checkMetadata !== false) compareMetadata(spec, decodeMetadata(await call(c, spec, 'ModelMetadata', ref, s, false), 'ModelMetadata'));
  } catch (e) {
    c.client.close();
    throw e;
  }
  const what = 'ModelInfer ' + JSON.stringify(spec.name);
  return {
    url: c.base,
    infer: async (inputs, o) => {
      if (spec.decoupled) throw new Unsupported('model ' + JSON.stringify(spec.name) + ' is decoupled: its responses come over a stream (stream()), which ModelInfer cannot carry');
      return inferWith(spec, c.defaults, what, async (request, s2, a) => {
        try {
          return decodeInferResponse(await c.unary('ModelInfer', encodeInferRequest(spec, c.version, request, false), s2.headers, a), what).outputs;
        } catch (e) {
          throw e instanceof TritonClientError ? e : grpcError(spec, c, what, e, a);
        }
      }, inputs, o ?? {});
    },
    stream: (inputs, o) => streamWith(c, spec, inputs, o ?? {}),
    ready: async (o: CallOptions = {}) => decodeFlag(await call(c, spec, 'ModelReady', ref, settingsOf(c.defaults, o), false), 'ModelReady'),
    close: () => c.client.close(),
  };
}
// ---- embedded up to the line above ----

// For the type checker: connect() in the generated part calls it.
export { open };

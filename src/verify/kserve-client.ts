// A small KServe v2 HTTP client (over node:http, see http-transport.ts), with Triton's model-repository and
// model-configuration extensions. Every JSON answer is validated with zod; every request has a timeout
// (an AbortController) and follows an outer signal (Ctrl-C). Failures are KServeError with a kind the
// caller can act on: unreachable / timeout (could not run), forbidden (the server restricts the API to
// requests with a header: could not run), http (the server said no), protocol (the answer is not what
// the protocol documents).
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { decodeInferResponse, encodeInferRequest, type InferRequest } from './infer-body.js';
import { nodeHttpFetch } from './http-transport.js';
import {
  describeIssues,
  errorBody,
  modelConfig,
  modelMetadata,
  repositoryIndex,
  serverMetadata,
  type EffectiveConfig,
  type InferResponse,
  type ModelMetadata,
  type RepositoryIndex,
  type ServerMetadata,
} from './kserve-schemas.js';

export type KServeErrorKind = 'unreachable' | 'timeout' | 'aborted' | 'forbidden' | 'http' | 'protocol';

export class KServeError extends Error {
  constructor(
    readonly kind: KServeErrorKind,
    message: string,
    readonly request: string,
    readonly status?: number,
    /** For 'http': the server's own error text ({"error": ...}), unprefixed. */
    readonly serverMessage?: string,
  ) {
    super(message);
    this.name = 'KServeError';
  }
}

export interface KServeClientOptions {
  /** Per-request timeout in milliseconds (default 30 s); calls that load models take their own. */
  timeoutMs?: number;
  /** Aborts every request in flight (Ctrl-C). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Sent with every request (--header): what a server with restricted APIs expects. */
  headers?: Record<string, string>;
}

/** A request as verify would send it; what --dry-run prints. */
export interface RequestDescription {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Bytes of binary tensor data after the JSON body. */
  binaryBytes?: number;
}

/** `localhost:8000`, `http://host:8000/`, `https://triton.internal` -> a base URL without a trailing slash. */
export function normalizeServerUrl(text: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The most an answer other than an inference may hold: metadata, configs and errors are KiB. */
export const MAX_JSON_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The most an inference answer may hold, sized from the request: verify's requests are small (a
 * batch of one, dynamic dims at a small size), and the outputs of such a request are of the
 * same order; generous room above that, never unbounded.
 */
export const inferAnswerBound = (requestBytes: number): number => Math.min(2 ** 31 - 1, 64 * 1024 * 1024 + 16 * requestBytes);

const formatBytes = (n: number): string => (n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MiB` : `${Math.round(n / 1024)} KiB`);

/** A response body read as it arrives; undefined when it passes `maxBytes` (the stream is then cancelled). */
async function readBounded(res: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (!res.body) return Buffer.alloc(0);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const modelPath = (name: string): string => `/v2/models/${encodeURIComponent(name)}`;

function causeText(e: unknown, url: string): string {
  const err = e as { cause?: { code?: string; message?: string }; message?: string };
  const text = err.cause?.code ?? err.cause?.message ?? err.message ?? String(e);
  // The Fetch standard blocks some ports (6000, 6665-6669, 10080, ...); Node's fetch says only "bad port".
  if (text === 'bad port') return `Node's fetch refuses port ${new URL(url).port}, one the Fetch standard blocks; serve Triton's HTTP on another port`;
  return text;
}

export class KServeClient {
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;
  private readonly fetchFn: typeof fetch;
  private readonly headers: Record<string, string>;

  constructor(baseUrl: string, options: KServeClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.signal = options.signal;
    this.fetchFn = options.fetch ?? nodeHttpFetch;
    this.headers = options.headers ?? {};
  }

  /** The same server and headers, with other defaults (a client for the clean-up after Ctrl-C). */
  with(options: Omit<KServeClientOptions, 'headers'>): KServeClient {
    return new KServeClient(this.baseUrl, { ...(options.fetch ? {} : { fetch: this.fetchFn }), ...options, headers: this.headers });
  }

  describe(method: 'GET' | 'POST', path: string, body?: unknown): RequestDescription {
    return { method, url: this.baseUrl + path, ...(body === undefined ? {} : { body }) };
  }

  /** Sends a request; resolves with the status and raw body for any HTTP answer, throws on no answer. */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: Buffer | string; headers?: Record<string, string>; timeoutMs?: number; maxBytes?: number } = {},
  ): Promise<{ status: number; body: Buffer; headers: Headers }> {
    const request = `${method} ${path}`;
    if (this.signal?.aborted) throw new KServeError('aborted', `${request}: interrupted`, request);
    const controller = new AbortController();
    const timeoutMs = init.timeoutMs ?? this.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onOuterAbort = (): void => controller.abort();
    this.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const maxBytes = init.maxBytes ?? MAX_JSON_ANSWER_BYTES;
    try {
      const res = await this.fetchFn(this.baseUrl + path, {
        method,
        headers: { ...this.headers, ...init.headers },
        body: init.body,
        signal: controller.signal,
      });
      const body = await readBounded(res, maxBytes);
      if (body === undefined) {
        controller.abort();
        throw new KServeError(
          'protocol',
          `${request}: the answer from ${this.baseUrl} went on past ${formatBytes(maxBytes)}, more than this request can take (${init.maxBytes === undefined ? 'a KServe metadata or config answer is a few KiB' : 'sized from the request'}); is it a Triton HTTP endpoint?`,
          request,
          res.status,
        );
      }
      return { status: res.status, body, headers: res.headers };
    } catch (e) {
      if (e instanceof KServeError) throw e;
      if (timedOut) throw new KServeError('timeout', `${request}: no answer from ${this.baseUrl} within ${Math.round(timeoutMs / 100) / 10} s`, request);
      if (this.signal?.aborted) throw new KServeError('aborted', `${request}: interrupted`, request);
      throw new KServeError('unreachable', `cannot reach ${this.baseUrl} (${causeText(e, this.baseUrl + path)})`, request);
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  private httpError(request: string, status: number, body: Buffer): KServeError {
    const text = body.toString('utf8');
    let message: string | undefined;
    try {
      const parsed = errorBody.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.error;
    } catch {
      // Not JSON: quoted below.
    }
    const shown = message ?? (text.trim() ? `(not a KServe error body) ${JSON.stringify(text.slice(0, 200))}` : '(empty body)');
    // server http_server.cc RespondIfRestricted: 403 "This API is restricted, expecting header '<h>'".
    const restricted = status === 403 ? /expecting header '([^']+)'/.exec(message ?? '') : null;
    if (restricted) {
      return new KServeError(
        'forbidden',
        `${request}: HTTP 403: ${shown}: the server restricts this API (tritonserver --http-restricted-api); pass the header it expects with --header ${restricted[1]}:<value>`,
        request,
        status,
        message,
      );
    }
    return new KServeError('http', `${request}: HTTP ${status}: ${shown}`, request, status, message ?? text.trim());
  }

  private async getJson<S extends z.ZodType>(
    path: string,
    schema: S,
    method: 'GET' | 'POST' = 'GET',
    body?: unknown,
  ): Promise<{ value: z.infer<S>; raw: unknown }> {
    const request = `${method} ${path}`;
    const res = await this.send(method, path, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    if (res.status < 200 || res.status > 299) throw this.httpError(request, res.status, res.body);
    let raw: unknown;
    try {
      raw = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new KServeError(
        'protocol',
        `${request}: the answer is not JSON (${JSON.stringify(res.body.toString('utf8').slice(0, 80))}); is ${this.baseUrl} a KServe v2 / Triton HTTP endpoint?`,
        request,
        res.status,
      );
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new KServeError(
        'protocol',
        `${request}: the answer is not what the KServe v2 protocol documents: ${describeIssues(parsed.error)}`,
        request,
        res.status,
      );
    }
    return { value: parsed.data, raw };
  }

  /** 200 means yes; any other HTTP status means no; no answer throws. */
  private async probe(path: string): Promise<boolean> {
    const res = await this.send('GET', path, { timeoutMs: Math.min(this.timeoutMs, 5000) });
    // A restricted API is not a "no": it is a question the server would not answer.
    if (res.status === 403) throw this.httpError(`GET ${path}`, res.status, res.body);
    return res.status === 200;
  }

  serverLive(): Promise<boolean> {
    return this.probe('/v2/health/live');
  }

  serverReady(): Promise<boolean> {
    return this.probe('/v2/health/ready');
  }

  modelReady(name: string): Promise<boolean> {
    return this.probe(`${modelPath(name)}/ready`);
  }

  async serverMetadata(): Promise<ServerMetadata> {
    return (await this.getJson('/v2', serverMetadata)).value;
  }

  async modelMetadata(name: string): Promise<ModelMetadata> {
    return (await this.getJson(modelPath(name), modelMetadata)).value;
  }

  /** The effective config; `raw` is the whole answer, for the field-level diff. */
  async modelConfig(name: string): Promise<{ config: EffectiveConfig; raw: unknown }> {
    const { value, raw } = await this.getJson(`${modelPath(name)}/config`, modelConfig);
    return { config: value, raw };
  }

  async repositoryIndex(): Promise<RepositoryIndex> {
    return (await this.getJson('/v2/repository/index', repositoryIndex, 'POST', {})).value;
  }

  /** The load request's body: the config override, when one is given, as the `config` string parameter. */
  static loadBody(config?: object): object {
    return config ? { parameters: { config: JSON.stringify(config) } } : {};
  }

  /** Loads (or reloads) a model; with `config`, Triton uses it instead of the repository's config.pbtxt. */
  async loadModel(name: string, config?: object, timeoutMs?: number): Promise<void> {
    const path = `/v2/repository/models/${encodeURIComponent(name)}/load`;
    const res = await this.send('POST', path, {
      body: JSON.stringify(KServeClient.loadBody(config)),
      headers: { 'content-type': 'application/json' },
      timeoutMs: timeoutMs ?? this.timeoutMs,
    });
    if (res.status < 200 || res.status > 299) throw this.httpError(`POST ${path}`, res.status, res.body);
  }

  /** Unloads a model; `timeoutMs` for an unload that may wait for a load of the same model (Triton runs one at a time). */
  async unloadModel(name: string, timeoutMs?: number): Promise<void> {
    const path = `/v2/repository/models/${encodeURIComponent(name)}/unload`;
    const res = await this.send('POST', path, { body: '{}', headers: { 'content-type': 'application/json' }, timeoutMs: timeoutMs ?? this.timeoutMs });
    if (res.status < 200 || res.status > 299) throw this.httpError(`POST ${path}`, res.status, res.body);
  }

  /** The inference request as verify sends it, for --dry-run. */
  describeInfer(name: string, req: InferRequest): RequestDescription {
    const encoded = encodeInferRequest(req);
    return {
      method: 'POST',
      url: `${this.baseUrl}${modelPath(name)}/infer`,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(encoded.headerLength) },
      body: encoded.header,
      binaryBytes: encoded.body.length - encoded.headerLength,
    };
  }

  async infer(name: string, req: InferRequest, timeoutMs?: number): Promise<{ response: InferResponse; ms: number; binary: ReadonlyMap<string, Buffer> }> {
    const path = `${modelPath(name)}/infer`;
    const request = `POST ${path}`;
    const encoded = encodeInferRequest(req);
    const started = performance.now();
    const res = await this.send('POST', path, {
      body: encoded.body,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(encoded.headerLength) },
      timeoutMs: timeoutMs ?? this.timeoutMs,
      maxBytes: inferAnswerBound(encoded.body.length),
    });
    const ms = Math.round((performance.now() - started) * 100) / 100;
    if (res.status < 200 || res.status > 299) throw this.httpError(request, res.status, res.body);
    const lengthHeader = res.headers.get('inference-header-content-length');
    const decoded = decodeInferResponse(res.body, lengthHeader === null ? undefined : Number(lengthHeader));
    if (!decoded.ok)
      throw new KServeError('protocol', `${request}: the answer is not what the KServe v2 protocol documents: ${decoded.reason}`, request, res.status);
    return { response: decoded.response, ms, binary: decoded.binary };
  }
}

// What tritonc asks of an object store: every object under a prefix with its size (which sizes
// external data too, so no HEAD is needed), a byte range of one, one whole. Each client (s3.ts,
// gcs.ts, azure.ts) answers these and turns its SDK's failures into a StoreError of a few kinds,
// which requests.ts retries or reports.
import { isMissingModule, requireOptional } from '../util/require-optional.js';

export interface StoredObject {
  /** The full key (S3, GCS object name, Azure blob name). */
  key: string;
  size: number;
}

export interface ObjectStore {
  /** Every object whose key starts with `prefix` (recursive, as Triton lists: no delimiter). */
  list(prefix: string, signal: AbortSignal): Promise<StoredObject[]>;
  /** Bytes [start, start + length) of `key`; fewer at its end. */
  read(key: string, start: number, length: number, signal: AbortSignal): Promise<Uint8Array>;
  /** The whole object. */
  get(key: string, signal: AbortSignal): Promise<Uint8Array>;
}

export type StoreErrorKind =
  /** The bucket or container does not exist. */
  | 'no-bucket'
  /** The object does not exist. */
  | 'no-key'
  /** Authentication or authorization failed. */
  | 'denied'
  /** The client found no credential to sign with. */
  | 'no-credentials'
  /** No connection: refused, unknown host, TLS. */
  | 'unreachable'
  /** 429, 503 SlowDown, ServerBusy: retried. */
  | 'throttled'
  /** Another 5xx: retried. */
  | 'server'
  /** The request took longer than its timeout: retried. */
  | 'timeout'
  | 'other';

export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    /** The SDK's or server's own words. */
    readonly detail: string,
    readonly status?: number,
  ) {
    super(detail);
  }

  get retryable(): boolean {
    return this.kind === 'throttled' || this.kind === 'server' || this.kind === 'timeout';
  }
}

/** Network error codes of Node's http stack that mean the endpoint cannot be reached. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_SSL_WRONG_VERSION_NUMBER']);

/** The kind of a failure by its HTTP status and network code, for what the client did not name. */
export function kindOf(status: number | undefined, code: string | undefined): StoreErrorKind {
  if (code && UNREACHABLE_CODES.has(code)) return 'unreachable';
  if (code === 'ETIMEDOUT' || code === 'TimeoutError' || code === 'AbortError') return 'timeout';
  if (status === 401 || status === 403) return 'denied';
  if (status === 429 || status === 503) return 'throttled';
  if (status !== undefined && status >= 500) return 'server';
  return 'other';
}

/** The network error code under an SDK's wrapper (error.code, or its cause's). */
export function networkCode(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code === 'ETIMEDOUT')) return code;
    const name = (x as { name?: unknown }).name;
    if (name === 'AbortError' || name === 'TimeoutError') return name;
  }
  return undefined;
}

/** A client package that is not installed: the install hint. */
export class MissingClientError extends Error {
  constructor(
    readonly pkg: string,
    scheme: string,
  ) {
    super(`reading ${scheme}:// repositories needs ${pkg}, which is not installed (it is optional, like onnxruntime-node): npm install ${pkg}`);
  }
}

/** Loads an optional client package (util/require-optional.ts), or says how to install it. */
export function loadClient<T>(pkg: string, scheme: string): T {
  try {
    return requireOptional<T>(pkg);
  } catch (e) {
    if (isMissingModule(e, pkg)) throw new MissingClientError(pkg, scheme);
    throw e;
  }
}

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
  /** Bytes [start, start + length) of `key`; fewer at its end. More is a StoreError ('oversized'). */
  read(key: string, start: number, length: number, signal: AbortSignal): Promise<Uint8Array>;
  /** The whole object, of at most `maxBytes` (its size in the listing); more is a StoreError ('oversized'). */
  get(key: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>;
}

/**
 * The most objects one listing may hold, and the most pages it may take: a store that pages on and
 * on (or a prefix far wider than a model repository) ends in an error, not in all the memory there is.
 */
export const MAX_LISTED_OBJECTS = 200_000;
export const MAX_LISTING_PAGES = 1_000;

/** Counts a listing's pages and objects; throws a StoreError ('oversized') past either bound. */
export class ListingBound {
  private pages = 0;
  private objects = 0;
  page(objects: number): void {
    this.pages++;
    this.objects += objects;
    if (this.objects > MAX_LISTED_OBJECTS)
      throw new StoreError(
        'oversized',
        `the listing holds more than ${MAX_LISTED_OBJECTS} objects, more than any model repository tritonc reads; give the repository's own prefix`,
      );
    if (this.pages > MAX_LISTING_PAGES) throw new StoreError('oversized', `the listing did not end after ${MAX_LISTING_PAGES} pages (${this.objects} objects)`);
  }
}

/**
 * The bytes of a response body, read as they arrive and never more than `cap`: a store that ignores
 * a Range header or sends more than the listing said is stopped at the cap (the stream destroyed),
 * with a StoreError ('oversized').
 */
export async function collectBody(body: AsyncIterable<Uint8Array | string> | undefined, cap: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.byteLength;
    if (total > cap) {
      (body as { destroy?: () => void }).destroy?.();
      throw new StoreError('oversized', `sent more than the ${cap} bytes asked for (a Range header ignored, or an object larger than its listing says)`);
    }
    chunks.push(bytes);
  }
  return chunks.length === 1 ? chunks[0]! : new Uint8Array(Buffer.concat(chunks));
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
  /** The store sent more than was asked for, or a listing without end. */
  | 'oversized'
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
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

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

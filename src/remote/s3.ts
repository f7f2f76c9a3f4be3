// S3 through @aws-sdk/client-s3 (optional: imported only for an s3:// URL). Configured as Triton
// configures its client (core src/filesystem/implementations/s3.h): path-style addressing always,
// the URL's endpoint with http unless it says https, the key pair when both halves are given, else
// the named profile, else the SDK's default chain.
import { Readable } from 'node:stream';
import type { S3Credential } from './credentials.js';
import { ListingBound, StoreError, collectBody, loadClient, kindOf, networkCode, type ObjectStore, type StoredObject } from './store.js';
import type { RemoteLocation } from './url.js';
import { MAX_PARSED_BODY_BYTES, boundStream } from './bounded-body.js';

type S3Module = typeof import('@aws-sdk/client-s3');

export async function s3Store(loc: RemoteLocation, cred: S3Credential, env: Readonly<Record<string, string | undefined>>): Promise<ObjectStore> {
  // The SDK warns on stderr about Node 20 on every run; the user did not ask the SDK anything.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const sdk = loadClient<S3Module>('@aws-sdk/client-s3', 's3');
  const keyPair = cred.keyId && cred.secretKey;
  const client = new sdk.S3Client({
    forcePathStyle: true,
    maxAttempts: 1,
    // s3.h sets a region only with a key pair; the SDK needs one to sign, so the usual default stands in.
    region: (keyPair && cred.region) || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    ...(loc.endpoint ? { endpoint: loc.endpoint } : {}),
    ...(keyPair
      ? { credentials: { accessKeyId: cred.keyId!, secretAccessKey: cred.secretKey!, ...(cred.sessionToken ? { sessionToken: cred.sessionToken } : {}) } }
      : cred.profile
        ? { profile: cred.profile }
        : {}),
  });
  boundParsedBodies(client);
  const Bucket = loc.bucket;
  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw s3Error(e);
    }
  };
  return {
    list: (prefix, signal) =>
      call(async () => {
        const out: StoredObject[] = [];
        const bound = new ListingBound();
        let token: string | undefined;
        do {
          const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }), {
            abortSignal: signal,
          });
          bound.page(page.Contents?.length ?? 0);
          for (const o of page.Contents ?? []) if (o.Key !== undefined) out.push({ key: o.Key, size: o.Size ?? 0 });
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return out;
      }),
    read: (key, start, length, signal) =>
      call(async () => {
        const got = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key, Range: `bytes=${start}-${start + length - 1}` }), { abortSignal: signal });
        return collectBody(got.Body as AsyncIterable<Uint8Array> | undefined, length);
      }),
    get: (key, maxBytes, signal) =>
      call(async () => {
        const got = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }), { abortSignal: signal });
        return collectBody(got.Body as AsyncIterable<Uint8Array> | undefined, maxBytes);
      }),
  };
}

type Handler = { handle(request: SmithyRequest, options?: unknown): Promise<{ response: { statusCode: number; body?: unknown } }> };
type SmithyRequest = { protocol: string; hostname: string; port?: number; path: string; query?: Record<string, unknown> };

/**
 * The SDK reads a listing page, and any answer other than an object's bytes (an error), whole before
 * it parses it: its HTTP handler's response body is wrapped here, so such a body passes
 * MAX_PARSED_BODY_BYTES only as an error. An object's bytes go on to collectBody, which stops them at
 * what was asked for.
 */
function boundParsedBodies(client: { config: { requestHandler: unknown } }): void {
  const inner = client.config.requestHandler as Handler;
  const handle: Handler['handle'] = async (request, options) => {
    const out = await inner.handle(request, options);
    const body = out.response.body;
    const listing = request.query !== undefined && 'list-type' in request.query;
    if ((listing || out.response.statusCode >= 300) && body instanceof Readable) {
      out.response.body = boundStream(
        body,
        MAX_PARSED_BODY_BYTES,
        `${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}${request.path}`,
      );
    }
    return out;
  };
  // Everything else (destroy, the handler's config) is the SDK's own handler's, called on it.
  client.config.requestHandler = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'handle') return handle;
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** The SDK's error as a StoreError: S3's error codes first, then the HTTP status, then the network. */
function s3Error(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const x = e as { name?: string; Code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = x.$metadata?.httpStatusCode;
  const name = x.Code ?? x.name ?? '';
  const detail = `${name}${x.message && x.message !== name ? `: ${x.message}` : ''}${status ? ` (HTTP ${status})` : ''}`;
  if (name === 'NoSuchBucket') return new StoreError('no-bucket', detail, status);
  if (name === 'NoSuchKey' || name === 'NotFound' || status === 404) return new StoreError('no-key', detail, status);
  if (name === 'CredentialsProviderError') return new StoreError('no-credentials', detail, status);
  if (['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken'].includes(name))
    return new StoreError('denied', detail, status);
  if (name === 'SlowDown' || name === 'ThrottlingException') return new StoreError('throttled', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail || String(e), status);
}

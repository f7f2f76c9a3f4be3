// The bound on every response body a store client parses (a listing page, an error, an answer to a
// metadata request): counted as it arrives, and the request aborted once it passes the bound, so a
// hostile endpoint's 150 MB page is an error naming the URL, not a parser's gigabytes. Object bodies
// have their own, smaller bound (collectBody in store.ts: what was asked for).
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { StoreError } from './store.js';

/**
 * The most bytes of one parsed response. A real listing page of 1,000 keys is well under 1 MiB of XML
 * or JSON (at most 1,024 bytes a key, before the markup); 8 MiB holds a page of the longest keys with
 * every character escaped.
 */
export const MAX_PARSED_BODY_BYTES = 8 * 1024 * 1024;

/** The URL as it may be printed: no query (where a signature or token could sit), no user info. */
export function printableUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an unparseable URL)';
  }
}

export function oversizedResponse(url: string, cap: number): StoreError {
  return new StoreError(
    'oversized',
    `the answer to GET ${printableUrl(url)} passed ${cap} bytes, the bound on a listing page or any other answer tritonc parses (a real page of 1,000 keys is well under 1 MiB): this endpoint is not an object store tritonc can read; check the URL's endpoint`,
  );
}

/**
 * `body`, passing its bytes on while they stay within `cap`; past it, `body` is destroyed (which
 * closes the connection) and the stream ends in oversizedResponse(url, cap).
 */
export function boundStream(body: Readable, cap: number, url: string): Readable {
  let total = 0;
  const bounded = new Transform({
    transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback) {
      total += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      if (total > cap) {
        body.unpipe(bounded);
        body.destroy();
        return done(oversizedResponse(url, cap));
      }
      done(null, chunk);
    },
  });
  body.on('error', (e) => bounded.destroy(e));
  return body.pipe(bounded);
}

/** A fetch Response's body as text, read as it arrives and never more than `cap` bytes. */
export async function readText(response: Response, cap: number, url: string): Promise<string> {
  if (!response.body) return '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw oversizedResponse(url, cap);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A fetch Response's body as a Node stream (for collectBody), or undefined for none. */
export function nodeBody(response: Response): Readable | undefined {
  return response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) : undefined;
}

// The HTTP transport of verify's KServe client: node:http / node:https behind fetch's signature.
// Node's built-in fetch (undici) gives up waiting for response headers after 300 s (its
// headersTimeout), and Triton's load call answers only once the load is done (core
// model_repository_manager.cc LoadModel waits for LoadUnloadModels): a TensorRT engine build of more
// than five minutes would read as "cannot reach". node:http has no such limit, so the only limit is the
// one verify sets per request from --timeout (the caller's AbortSignal).
//
// The Response's body is a stream, handed over as the headers arrive: the caller reads it with a
// bound (kserve-client.ts), so a server that streams forever costs no more than that bound.
//
// Each request opens its own connection (no agent): Node's global agent keeps idle connections per
// host and port, and verify stops and starts servers on the same port, where a kept connection is one
// to a server that is gone. A handful of requests per run do not need the pool.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';

export const nodeHttpFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const headers = new Headers(init.headers);
    const body =
      init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? Buffer.from(init.body) : Buffer.from(init.body as Uint8Array);
    if (body) headers.set('content-length', String(body.length));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const req = send(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers), agent: false }, (res: IncomingMessage) => {
      response = res;
      res.on('close', () => signal?.removeEventListener('abort', onAbort));
      try {
        // Triton compresses only where the request asked for it; decode what fetch would.
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        const decoder = encoding === 'gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : undefined;
        const stream: Readable = decoder ? res.pipe(decoder) : res;
        if (decoder) res.on('error', (e) => decoder.destroy(e));
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined && k !== 'content-encoding' && k !== 'content-length') out.set(k, Array.isArray(v) ? v.join(', ') : v);
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304;
        if (empty) res.resume();
        // A status outside 200-599 cannot be a Response: it is no HTTP answer tritonc can read.
        if (status < 200 || status > 599) throw new Error(`HTTP status ${status}`);
        resolve(new Response(empty ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), { status, headers: out }));
      } catch (e) {
        res.destroy();
        reject(e);
      }
    });
    // An abort ends the exchange wherever it is: before the headers, or while the body streams.
    const onAbort = (): void => {
      req.destroy(new Error('aborted'));
      response?.destroy(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => reject(Object.assign(new Error(e.message), { cause: e })));
    if (body) req.write(body);
    req.end();
  });

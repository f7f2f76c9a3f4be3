// The HTTP transport of verify's KServe client: node:http / node:https behind fetch's signature.
// Node's built-in fetch (undici) gives up waiting for response headers after 300 s (its
// headersTimeout), and Triton's load call answers only once the load is done (core
// model_repository_manager.cc LoadModel waits for LoadUnloadModels): a TensorRT engine build of more
// than five minutes would read as "cannot reach". node:http has no such limit, so the only limit is the
// one verify sets per request from --timeout (the caller's AbortSignal).
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gunzipSync, inflateSync } from 'node:zlib';

export const nodeHttpFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const headers = new Headers(init.headers);
    const body = init.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? Buffer.from(init.body) : Buffer.from(init.body as Uint8Array);
    if (body) headers.set('content-length', String(body.length));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: init.method ?? 'GET', headers: Object.fromEntries(headers) }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        try {
          let data = Buffer.concat(chunks);
          // Triton compresses only where the request asked for it; decode what fetch would.
          const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
          if (encoding === 'gzip') data = gunzipSync(data);
          else if (encoding === 'deflate') data = inflateSync(data);
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'content-encoding' && k !== 'content-length') out.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve(new Response(data.length ? data : null, { status: res.statusCode ?? 0, headers: out }));
        } catch (e) {
          reject(e);
        }
      });
    });
    const onAbort = (): void => void req.destroy(new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => reject(Object.assign(new Error(e.message), { cause: e })));
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    if (body) req.write(body);
    req.end();
  });

// An S3-compatible endpoint on loopback that breaks the protocol on purpose, for the hostile-input
// tests and the fuzz job. It answers the two calls tritonc's client makes, as S3's API reference
// documents them: ListObjectsV2 (GET /<bucket>?list-type=2&prefix=..., a ListBucketResult XML with
// Contents/Key/Size, IsTruncated and NextContinuationToken) and GetObject (GET /<bucket>/<key>, with
// a Range header answered 206 and Content-Range). Its misbehaviours:
// - 'no-range': GetObject ignores Range and sends the whole object with 200;
// - 'oversized': a text object's body is far larger than the Size its listing gave (streamed, 2 GB,
//   until the client hangs up);
// - 'endless-pages': every listing page is truncated and names a new continuation token, with
//   `pageObjects` keys on each;
// - 'hang': accepts every request and never answers; 'slow': answers a byte a second;
// - 'redirect': 301 to another address, as a bucket in another region answers (PermanentRedirect);
// - 'garbage': 200 with a body that is not XML; 'forbidden': 403 AccessDenied, as S3 refuses;
// - 'honest': none of the above (the control).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Misbehaviour = 'honest' | 'no-range' | 'oversized' | 'endless-pages' | 'hang' | 'slow' | 'redirect' | 'garbage' | 'forbidden';

export interface HostileS3 {
  url: string;
  /** Requests answered, and body bytes written. */
  stats: { requests: number; bytes: number };
  close(): Promise<void>;
}

// Control characters as numeric references, as S3 writes a key that holds them.
// eslint-disable-next-line no-control-regex
const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\u0000-\u001f]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startHostileS3(objects: Record<string, Uint8Array>, mode: Misbehaviour, pageObjects = 1000): Promise<HostileS3> {
  const stats = { requests: 0, bytes: 0 };
  const server: Server = createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    res.on('error', () => undefined);
    if (mode === 'hang') return;
    if (mode === 'slow') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('<')), 1000);
      res.on('close', () => clearInterval(drip));
      return;
    }
    if (mode === 'redirect') {
      res.writeHead(301, { location: 'http://127.0.0.1:1/elsewhere', 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed using the specified endpoint.</Message></Error>');
      return;
    }
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end('<<<this is not XML>>> \u0000\u0001');
      return;
    }
    if (mode === 'forbidden') {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      return;
    }
    if (!key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      let contents: [string, number][] = Object.entries(objects).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k, v.byteLength]);
      let tail = '<IsTruncated>false</IsTruncated>';
      if (mode === 'endless-pages') {
        const page = Number(url.searchParams.get('continuation-token') ?? '0');
        contents = Array.from({ length: pageObjects }, (_, i) => [`${prefix}/junk/${page}/${i}`, 1]);
        tail = `<IsTruncated>true</IsTruncated><NextContinuationToken>${page + 1}</NextContinuationToken>`;
      }
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xml(bucket ?? '')}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${contents.length}</KeyCount><MaxKeys>1000</MaxKeys>${tail}${contents.map(([k, size]) => `<Contents><Key>${xml(k)}</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>"0"</ETag><Size>${size}</Size><StorageClass>STANDARD</StorageClass></Contents>`).join('')}</ListBucketResult>`;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(body);
      return;
    }
    const object = objects[key];
    if (!object) {
      res.writeHead(404, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${xml(key)}</Key></Error>`);
      return;
    }
    if (mode === 'oversized' && key.endsWith('.pbtxt')) {
      // 2 GB of text, written as the client reads it, until it hangs up.
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(2 * 1024 ** 3) });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = (): void => {
        while (sent < 2 * 1024 ** 3 && !res.destroyed) {
          sent += chunk.length;
          stats.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      return;
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range && mode !== 'no-range') {
      const start = Number(range[1]);
      const end = Math.min(Number(range[2]), object.byteLength - 1);
      const part = object.subarray(start, end + 1);
      res.writeHead(206, { 'content-type': 'application/octet-stream', 'content-length': String(part.byteLength), 'content-range': `bytes ${start}-${end}/${object.byteLength}` });
      stats.bytes += part.byteLength;
      res.end(part);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(object.byteLength) });
    stats.bytes += object.byteLength;
    res.end(object);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

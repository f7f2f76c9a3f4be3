// Object stores on loopback for the remote-repository tests, started by the tests themselves:
// s3rver (a real S3 implementation, in this process), Azurite (Microsoft's Azure Storage emulator,
// as a child process) and, for GCS, a protocol fixture: a small server answering the parts of the
// Cloud Storage JSON API that tritonc's client calls. Each takes a local directory as the repository
// to upload.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { tempDir } from './temp.js';

/** Every file under `dir`, as [key relative to dir, bytes]. */
export function filesOf(dir: string): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push([relative(dir, p).split('\\').join('/'), readFileSync(p)]);
    }
  };
  walk(dir);
  return out;
}

// ---- S3: s3rver ------------------------------------------------------------------------------------

/** s3rver's built-in credential pair (s3rver lib/s3rver.js defaults: accessKeyId/secretAccessKey "S3RVER"). */
export const S3RVER_KEYS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3Fixture {
  port: number;
  put(bucket: string, key: string, body: Buffer | string): Promise<void>;
  upload(bucket: string, prefix: string, dir: string): Promise<void>;
  close(): Promise<void>;
}

export async function startS3(buckets: string[]): Promise<S3Fixture> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // s3rver ships no types: the two methods used, as its README documents them.
  const S3rver = createRequire(import.meta.url)('s3rver') as new (o: object) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('s3rver-'),
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const put = async (bucket: string, key: string, body: Buffer | string): Promise<void> =>
    void (await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })));
  return {
    port,
    put,
    upload: async (bucket, prefix, dir) => {
      for (const [key, body] of filesOf(dir)) await put(bucket, prefix ? `${prefix}/${key}` : key, body);
    },
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}

// ---- Azure: Azurite ----------------------------------------------------------------------------------

/** Azurite's well-known development account and key (Azurite README, "Default Storage Account"). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzureFixture {
  /** The account's blob service URL (http://127.0.0.1:PORT/devstoreaccount1). */
  endpoint: string;
  upload(container: string, prefix: string, dir: string): Promise<void>;
  close(): Promise<void>;
}

export async function startAzurite(): Promise<AzureFixture> {
  const main = createRequire(import.meta.url).resolve('azurite/dist/src/blob/main.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [main, '--blobHost', '127.0.0.1', '--blobPort', '0', '--inMemoryPersistence', '--disableTelemetry', '--skipApiVersionCheck'],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: tempDir('azurite-') },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`azurite exited (${code}): ${out}`)));
  });
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  const { BlobServiceClient, StorageSharedKeyCredential } = await import('@azure/storage-blob');
  const service = new BlobServiceClient(endpoint, new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY));
  return {
    endpoint,
    upload: async (container, prefix, dir) => {
      const c = service.getContainerClient(container);
      await c.createIfNotExists();
      for (const [key, body] of filesOf(dir)) await c.getBlockBlobClient(prefix ? `${prefix}/${key}` : key).uploadData(body);
    },
    close: async () => {
      child.kill();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

// ---- GCS: a protocol fixture of the JSON API ------------------------------------------------------

export interface GcsFixture {
  /** For STORAGE_EMULATOR_HOST. */
  endpoint: string;
  /** Requests answered, by kind, and the bytes of media served. */
  requests: { list: number; media: number; metadata: number; bytes: number };
  upload(bucket: string, prefix: string, dir: string): void;
  close(): Promise<void>;
}

/**
 * Not GCS: the calls of the Cloud Storage JSON API v1 that tritonc's GCS client (src/remote/gcs.ts)
 * makes, answered as the API reference describes them
 * (https://cloud.google.com/storage/docs/json_api/v1/objects/list, .../objects/get):
 * - objects.list: GET /storage/v1/b/BUCKET/o?prefix=P&maxResults=N&pageToken=T, answering
 *   {"kind":"storage#objects","items":[{name,bucket,size}],"nextPageToken"} (size is a string, int64 in JSON);
 * - objects.get with alt=media: GET /storage/v1/b/BUCKET/o/OBJECT?alt=media, the bytes; a Range
 *   header "bytes=A-B" answers 206 with Content-Range (the API's "Partial content" download);
 * - objects.get: the object's metadata resource.
 * Unknown buckets and objects answer 404 with the API's error body {"error":{"code","message"}}.
 */
export async function startGcsFixture(options: { pageSize?: number } = {}): Promise<GcsFixture> {
  const buckets = new Map<string, Map<string, Buffer>>();
  const requests = { list: 0, media: 0, metadata: 0, bytes: 0 };
  const pageSize = options.pageSize ?? 1000;
  const fail = (res: ServerResponse, code: number, message: string): void => {
    res
      .writeHead(code, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code, message, errors: [{ message, reason: code === 404 ? 'notFound' : 'invalid' }] } }));
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const m = /^\/storage\/v1\/b\/([^/]+)\/o(?:\/(.+))?$/.exec(url.pathname);
    const bucket = m ? buckets.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || req.method !== 'GET') return fail(res, 400, `the fixture does not answer ${req.method} ${url.pathname}`);
    if (!bucket) return fail(res, 404, 'The specified bucket does not exist.');
    if (m[2] === undefined) {
      requests.list++;
      const prefix = url.searchParams.get('prefix') ?? '';
      const max = Math.min(Number(url.searchParams.get('maxResults') ?? pageSize), pageSize);
      const names = [...bucket.keys()].filter((k) => k.startsWith(prefix)).sort();
      const from = Number(url.searchParams.get('pageToken') ?? 0);
      const page = names.slice(from, from + max);
      const body: Record<string, unknown> = {
        kind: 'storage#objects',
        items: page.map((name) => ({ kind: 'storage#object', name, bucket: m[1], size: String(bucket.get(name)!.length) })),
      };
      if (from + max < names.length) body.nextPageToken = String(from + max);
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    const name = decodeURIComponent(m[2]);
    const data = bucket.get(name);
    if (!data) return fail(res, 404, `No such object: ${m[1]}/${name}`);
    if (url.searchParams.get('alt') !== 'media') {
      requests.metadata++;
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ kind: 'storage#object', name, bucket: m[1], size: String(data.length) }));
    }
    requests.media++;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!range) {
      requests.bytes += data.length;
      return res.writeHead(200, { 'content-length': data.length }).end(data);
    }
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : data.length - 1, data.length - 1);
    if (start >= data.length) return res.writeHead(416, { 'content-range': `bytes */${data.length}` }).end();
    requests.bytes += end - start + 1;
    res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${data.length}`, 'content-length': end - start + 1 }).end(data.subarray(start, end + 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    upload: (bucket, prefix, dir) => {
      let b = buckets.get(bucket);
      if (!b) buckets.set(bucket, (b = new Map()));
      for (const [key, body] of filesOf(dir)) b.set(prefix ? `${prefix}/${key}` : key, body);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

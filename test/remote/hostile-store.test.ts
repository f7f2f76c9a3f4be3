// A repository in an S3-compatible store that breaks the protocol (fixtures/remote/hostile-s3.mjs): a
// GetObject that ignores Range, a text object far larger than its listing, a listing that pages on
// forever. Each ends in exit 2 naming the URL, within the request timeout, with no stack trace and
// with the memory of a normal run; the honest endpoint is the control.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { startHostileS3, startHugeListing, type HostileS3, type Misbehaviour } from '../../fixtures/remote/hostile-s3.mjs';
import { tempDir } from '../support/temp.js';
import { MAX_LISTED_OBJECTS } from '../../src/remote/store.js';
import { MAX_PARSED_BODY_BYTES } from '../../src/remote/bounded-body.js';
import { REPORT_FORMATS } from '../../src/report/index.js';

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret-never-printed' };

let store: HostileS3 | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** The classifier with 8 MiB of weights, so its header is read by ranges, as objects under repo/. */
async function objects(): Promise<Record<string, Uint8Array>> {
  const dir = await writeRepo({
    'classifier/config.pbtxt': CLASSIFIER_CONFIG,
    'classifier/1/model.onnx': { ...CLASSIFIER, initializers: [{ name: 'w', floats: 2 * 1024 * 1024 }] },
  });
  return {
    'repo/classifier/config.pbtxt': readFileSync(join(dir, 'classifier', 'config.pbtxt')),
    'repo/classifier/1/model.onnx': readFileSync(join(dir, 'classifier', '1', 'model.onnx')),
  };
}

async function lintAt(mode: Misbehaviour, pageObjects?: number) {
  store = await startHostileS3(await objects(), mode, pageObjects);
  const url = `s3://${store.url}/models/repo`;
  const rss = process.memoryUsage().rss;
  const r = await cli(['lint', url], { cwd: tempDir(), env: KEYS });
  return { r, url, grownBytes: process.memoryUsage().rss - rss };
}

describe('a store that breaks the protocol', () => {
  it('the honest endpoint lints clean (the control)', async () => {
    const { r } = await lintAt('honest');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The header by ranges, not the weights.
    expect(store!.stats.bytes).toBeLessThan(2 * 1024 * 1024);
  });

  it('a GetObject that ignores Range: exit 2 naming the model object, no more read than asked', async () => {
    const { r, url } = await lintAt('no-range');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${url}/classifier/1/model.onnx: cannot read: sent more than the`);
    expect(r.stderr).toContain('a Range header ignored');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a config whose body is 2 GB where the listing says its size: exit 2 naming it, in bounded memory', async () => {
    const { r, url, grownBytes } = await lintAt('oversized');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${url}/classifier/config.pbtxt: cannot read: sent more than the ${CLASSIFIER_CONFIG.length} bytes asked for`);
    expect(grownBytes).toBeLessThan(256 * 1024 * 1024);
    expect(store!.stats.bytes).toBeLessThan(512 * 1024 * 1024);
    expect(r.stderr).not.toContain('secret-never-printed');
  });

  it('a listing that pages on forever with keys on every page: exit 2 at the object bound', async () => {
    const { r, url, grownBytes } = await lintAt('endless-pages', 1000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${url}: cannot list the repository: the listing holds more than ${MAX_LISTED_OBJECTS} objects`);
    expect(grownBytes).toBeLessThan(512 * 1024 * 1024);
  });

  it('a listing that pages on forever with empty pages: exit 2 at the page bound', async () => {
    const { r, url } = await lintAt('endless-pages', 0);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot list the repository: the listing did not end after \\d+ pages`),
    );
  });
});

describe('a body the client parses is bounded in bytes before it is parsed', () => {
  // The SDK reads a ListObjectsV2 page, or an error, whole and then parses it (its XML parser takes
  // some 30 times the page in memory): tritonc counts the bytes as they arrive and hangs up at
  // MAX_PARSED_BODY_BYTES. The server counts what it wrote, so "stopped early" is measured in bytes.
  it.each([
    ['huge-page', 'one listing page of 150 MB'],
    ['huge-error', 'a 403 whose body goes on for 150 MB'],
  ] as const)('%s (%s): exit 2 naming the request and the bound, read no further than the bound', async (mode, _what) => {
    const { r, url } = await lintAt(mode);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${url}: cannot list the repository: the answer to GET http://${store!.url}/models/ passed ${MAX_PARSED_BODY_BYTES} bytes`);
    expect(r.stderr).toContain("check the URL's endpoint");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // What the socket buffers beyond the bound (the kernel's and Node's windows) is all that is sent.
    expect(store!.stats.bytes).toBeLessThan(MAX_PARSED_BODY_BYTES + 16 * 1024 * 1024);
  });

  // GCS's listing is tritonc's own request (the library read a page whole, with no abort signal);
  // Azure's goes through tritonc's HTTP client for the library.
  it.each([
    ['gcs', 'huge-page'],
    ['gcs', 'huge-error'],
    ['azure', 'huge-page'],
    ['azure', 'huge-error'],
  ] as const)('%s %s: exit 2 naming the request and the bound, read no further than the bound', async (kind, mode) => {
    store = await startHugeListing(kind, mode);
    const url = kind === 'gcs' ? 'gs://models/repo' : 'as://acct/models/repo';
    const env =
      kind === 'gcs'
        ? { STORAGE_EMULATOR_HOST: `http://${store.url}` }
        : { AZURE_STORAGE_ACCOUNT: 'acct', TRITONC_AZURE_BLOB_ENDPOINT: `http://${store.url}/acct` };
    const r = await cli(['lint', url], { cwd: tempDir(), env });
    expect(r.code, r.stderr).toBe(2);
    const request = kind === 'gcs' ? `http://${store.url}/storage/v1/b/models/o` : `http://${store.url}/acct/models`;
    expect(r.stderr).toContain(`${url}: cannot list the repository: the answer to GET ${request} passed ${MAX_PARSED_BODY_BYTES} bytes`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(store.stats.bytes).toBeLessThan(MAX_PARSED_BODY_BYTES + 16 * 1024 * 1024);
  });
});

describe('what held, and must keep holding', () => {
  const SECRETS = {
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-never-print-me',
    AWS_SESSION_TOKEN: 'FwoGZXIvYXdz-session-never-print-me',
  };

  it.each(['redirect', 'garbage', 'forbidden'] as const)('a %s endpoint: exit 2 naming the repository, no stack trace, no secret', async (mode) => {
    store = await startHostileS3(await objects(), mode);
    const url = `s3://${store.url}/models/repo`;
    for (const format of REPORT_FORMATS) {
      const r = await cli(['lint', url, '-f', format], { cwd: tempDir(), env: SECRETS });
      expect(r.code, `${mode} ${format}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${url}: cannot list the repository`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      for (const secret of [SECRETS.AWS_SECRET_ACCESS_KEY, SECRETS.AWS_SESSION_TOKEN]) expect(r.stdout + r.stderr).not.toContain(secret);
    }
  });

  it('findings in every format carry no secret or session token', async () => {
    const o = await objects();
    o['repo/classifier/config.pbtxt'] = Buffer.from(CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inptu"'));
    store = await startHostileS3(o, 'honest');
    for (const format of REPORT_FORMATS) {
      const r = await cli(['lint', `s3://${store.url}/models/repo`, '-f', format], { cwd: tempDir(), env: SECRETS });
      expect(r.code, r.stderr).toBe(1);
      for (const secret of [SECRETS.AWS_SECRET_ACCESS_KEY, SECRETS.AWS_SESSION_TOKEN]) expect(r.stdout + r.stderr).not.toContain(secret);
    }
  });

  it.each(['hang', 'slow'] as const)("a %s endpoint ends in a timeout error within the requests' bound (exit 2 through the CLI)", async (mode) => {
    const { MountedRepository, RemoteAccessError } = await import('../../src/remote/mounted.js');
    const { parseRemoteUrl } = await import('../../src/remote/url.js');
    store = await startHostileS3(await objects(), mode);
    const loc = parseRemoteUrl(`s3://${store.url}/models/repo`);
    // The endpoint never finishes an answer: only the requests' timeout ends it (the test's timeout bounds a hang).
    const opened = MountedRepository.open(loc, loc.url, '/stand-in/repo', {
      env: SECRETS,
      readFile: () => '',
      requests: { timeoutMs: 400, retries: 1, backoffMs: 1 },
    });
    await expect(opened).rejects.toBeInstanceOf(RemoteAccessError);
    await expect(opened).rejects.toThrow(/cannot list the repository: no answer in time after 1 retries/);
  });

  it('keys with .. never reach the local disk', async () => {
    const local = await writeRepo({ 'secret/config.pbtxt': 'LOCAL_SECRET_CONFIG {' });
    const o = await objects();
    const up = '../'.repeat(12);
    o[`repo/${up}${local.slice(1)}/secret/config.pbtxt`] = Buffer.from('name: "x"\n');
    o['repo/classifier/../../../etc/passwd'] = Buffer.from('root:x:0:0');
    store = await startHostileS3(o, 'honest');
    const r = await cli(['lint', `s3://${store.url}/models/repo`, '-f', 'json'], { cwd: tempDir(), env: KEYS });
    expect(r.stdout + r.stderr).not.toContain('LOCAL_SECRET_CONFIG');
    expect(r.stdout + r.stderr).not.toContain('root:x:0:0');
    // The object is looked for in the store's listing, which has no such key: nothing is read.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/models\/repo\/(\.\.\/){12}.*\/secret\/config\.pbtxt: cannot read: no such file/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

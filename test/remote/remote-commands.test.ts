// inspect, resolve, generate --check and lock on a repository in S3 (s3rver on loopback): each
// answers as it does on the same repository on local disk, and none writes to the store.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRepo, CLASSIFIER, CLASSIFIER_CONFIG } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { S3RVER_KEYS, startS3, type S3Fixture } from '../support/object-stores.js';

let repo: string;
let s3: S3Fixture;
let url: string;
const env = { ...S3RVER_KEYS };

beforeAll(async () => {
  repo = await writeRepo({
    'classifier/config.pbtxt': CLASSIFIER_CONFIG,
    'classifier/1/model.onnx': { ...CLASSIFIER, initializers: [{ name: 'w', floats: 1024 * 1024 }] },
    // Weights as external data beside the model: sized from the listing.
    'big/1/model.onnx': { ...CLASSIFIER, externalBytes: 8 * 1024 * 1024 },
    'big/1/weights.bin': new Uint8Array(8 * 1024 * 1024),
  });
  s3 = await startS3(['models']);
  await s3.upload('models', 'repo', repo);
  url = `s3://127.0.0.1:${s3.port}/models/repo`;
}, 60_000);

afterAll(async () => s3?.close());

/** Output with the repository's location, local or remote, as <repo>. */
const same = (text: string, base: string): string => text.split(base).join('<repo>');

describe('commands on a repository URL', () => {
  it('inspect reads a model object: the signature of the local file', async () => {
    const local = await cli(['inspect', '--format', 'json', join(repo, 'big/1/model.onnx')]);
    const remote = await cli(['inspect', '--format', 'json', `${url}/big/1/model.onnx`], { env });
    expect(remote.stderr).toBe('');
    expect(remote.code).toBe(0);
    const { path: _l, ...l } = JSON.parse(local.stdout);
    const { path: r0, ...r } = JSON.parse(remote.stdout);
    expect(r0).toBe(`${url}/big/1/model.onnx`);
    expect(r).toEqual(l);
    expect(r.initializers.externalBytes).toBe(8 * 1024 * 1024);
  });

  it('inspect of an object that is not there: exit 2', async () => {
    const r = await cli(['inspect', `${url}/classifier/1/missing.onnx`], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing\.onnx: no such file/);
  });

  it('resolve prints the effective config of a model directory URL, as of the local one', async () => {
    const local = await cli(['resolve', join(repo, 'big')], { cwd: tempDir() });
    const remote = await cli(['resolve', `${url}/big`], { cwd: tempDir(), env });
    expect(remote.code).toBe(0);
    expect(remote.stdout).toBe(local.stdout);
    expect(remote.stdout).toMatch(/^name: "big"/m);
  });

  it('generate --check compares with the config in the store; --write is refused', async () => {
    const local = await cli(['generate', join(repo, 'big'), '--check'], { cwd: tempDir() });
    const remote = await cli(['generate', `${url}/big`, '--check'], { cwd: tempDir(), env });
    expect(remote.code).toBe(local.code);
    expect(same(remote.stdout, url)).toBe(same(local.stdout, repo));
    expect(remote.stdout).toMatch(new RegExp(`${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/big/config.pbtxt: missing`));
    const write = await cli(['generate', `${url}/big`, '--write'], { cwd: tempDir(), env });
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/never writes to object storage/);
  });

  it("lock writes the checkout's lock from the store, and --check compares with it", async () => {
    const cwd = tempDir();
    const noOutput = await cli(['lock', url], { cwd, env });
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toMatch(/--output model_repository\/tritonc\.lock\.json/);

    const written = await cli(['lock', url, '--output', 'tritonc.lock.json'], { cwd, env });
    expect(written.code).toBe(0);
    expect(written.stdout).toMatch(/wrote tritonc\.lock\.json \(2 models, 2 versions\)/);
    const localLock = await cli(['lock', repo, '--output', join(cwd, 'local.lock.json')], { cwd });
    expect(localLock.code).toBe(0);
    expect(readFileSync(join(cwd, 'tritonc.lock.json'), 'utf8')).toBe(readFileSync(join(cwd, 'local.lock.json'), 'utf8'));
    expect(existsSync(join(cwd, '.tritonc-remote'))).toBe(false);

    const check = await cli(['lock', url, '--output', 'tritonc.lock.json', '--check'], { cwd, env });
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/tritonc\.lock\.json is up to date/);
  });

  it('a checkout of the configs alone lints against the lock made from the store', async () => {
    const checkout = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG });
    const unlocked = await cli(['lint', '-f', 'json', '--configs-only', checkout], { cwd: tempDir() });
    await cli(['lock', url, '--output', join(checkout, 'tritonc.lock.json')], { env });
    const r = await cli(['lint', '-f', 'json', '--configs-only', checkout], { cwd: tempDir() });
    const memory = (out: string) =>
      (JSON.parse(out) as { messages: { ruleId: string; message: string }[] }[]).flatMap((f) =>
        f.messages.filter((m) => m.ruleId === 'instance-memory').map((m) => m.message),
      );
    // The weights are known from the lock: the estimate counts them, where it could not before.
    expect(memory(unlocked.stdout).join('\n')).toMatch(/without the weights of classifier/);
    expect(memory(r.stdout).join('\n')).toMatch(
      /^estimated GPU memory: \d+ MiB on the GPU \(.*classifier: 1 x \(4 MiB \+ 256 MiB\), as instances x \(weights \+ per-instance overhead\)\); set a budget/,
    );
  });
});

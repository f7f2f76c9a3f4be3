// tritonc's own files (the lint cache and tritonc.lock.json) sit in checkouts anyone may have written:
// a repository that commits `.tritonc-cache -> ~/.bashrc` or a linked lock must never make tritonc
// overwrite or read the link's target. Each is refused with exit 2 and the reason, and the target is
// left byte for byte as it was.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src/workspace/lock.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const BASHRC = '# ~/.bashrc: the user\'s own\nexport PATH="$HOME/bin:$PATH"\nalias ll="ls -l"\n';

async function checkout() {
  const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': CLASSIFIER, 'home/.bashrc': BASHRC });
  return { dir, repo: join(dir, 'repo'), target: join(dir, 'home', '.bashrc') };
}

describe("tritonc's own files are never read or written through a link", () => {
  it('lint --cache refuses a .tritonc-cache that is a link (exit 2, why, the fix) and leaves its target as it was', async () => {
    const { repo, target } = await checkout();
    symlinkSync(target, join(repo, '.tritonc-cache'));
    const r = await cli(['lint', '--cache', '.'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.tritonc-cache: is a symbolic link');
    expect(r.stderr).toContain('--cache-location');
    expect(readFileSync(target, 'utf8')).toBe(BASHRC);
    expect(lstatSync(join(repo, '.tritonc-cache')).isSymbolicLink()).toBe(true);
    // A dangling link is refused too: it would create the file where the link points.
    const dangling = join(repo, 'elsewhere');
    symlinkSync(join(repo, 'nowhere', 'created'), dangling);
    expect((await cli(['lint', '--cache-location', 'elsewhere', '.'], { cwd: repo })).code).toBe(2);
    expect(existsSync(join(repo, 'nowhere'))).toBe(false);
  });

  it('lint --cache refuses a cache path that is a FIFO or a directory without blocking', async () => {
    const { repo } = await checkout();
    execFileSync('mkfifo', [join(repo, '.tritonc-cache')]);
    const fifo = await cli(['lint', '--cache', '.'], { cwd: repo });
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain('is not a regular file');
    mkdirSync(join(repo, 'dir-cache'));
    expect((await cli(['lint', '--cache-location', 'dir-cache', '.'], { cwd: repo })).code).toBe(2);
  });

  it('a clean lint whose cache cannot be written warns and exits 0', async () => {
    const { repo } = await checkout();
    const r = await cli(['lint', '--cache-location', 'no-such-dir/cache', '.'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^tritonc lint: warning: no-such-dir\/cache: cannot write the cache \(the findings stand/m);
  });

  it('lint refuses a linked tritonc.lock.json without quoting its target', async () => {
    const { repo, target } = await checkout();
    symlinkSync(target, join(repo, LOCK_FILE_NAME));
    const r = await cli(['lint', '--configs-only', '.'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${LOCK_FILE_NAME}: is a symbolic link`);
    expect(r.stderr).not.toContain('bashrc');
    expect(r.stderr).not.toContain('PATH');
  });

  it('tritonc lock and lock --check refuse a linked lock (and --output); the target is untouched', async () => {
    const { repo, target } = await checkout();
    symlinkSync(target, join(repo, LOCK_FILE_NAME));
    for (const args of [
      ['lock', '.'],
      ['lock', '--check', '.'],
    ]) {
      const r = await cli(args, { cwd: repo });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(`${LOCK_FILE_NAME} is a symbolic link`);
      expect(r.stderr).not.toContain('PATH');
    }
    symlinkSync(target, join(repo, 'out.lock.json'));
    const out = await cli(['lock', '.', '--output', 'out.lock.json'], { cwd: repo });
    expect(out.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe(BASHRC);
  });

  it('a plain lock file and cache still work (the refusal is of links only)', async () => {
    const { repo } = await checkout();
    expect((await cli(['lock', '.'], { cwd: repo })).code).toBe(0);
    expect((await cli(['lint', '--cache', '.'], { cwd: repo })).code).toBe(0);
    expect(lstatSync(join(repo, '.tritonc-cache')).isFile()).toBe(true);
    expect(readFileSync(join(repo, '.tritonc-cache'), 'utf8').split('\n')).toHaveLength(5);
  });
});

describe('four lint --cache runs at once', () => {
  it('all finish with the same findings, and leave one whole cache file and no temporary files', async () => {
    const { spawn } = await import('node:child_process');
    const { readdirSync } = await import('node:fs');
    const { BIN } = await import('../support/cli.js');
    const files: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++)
      Object.assign(files, { [`repo/m${i}/config.pbtxt`]: CLASSIFIER_CONFIG.replace('"classifier"', `"m${i}"`), [`repo/m${i}/1/model.onnx`]: CLASSIFIER });
    const dir = await writeRepo(files as never);
    const repo = join(dir, 'repo');
    const run = () =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'lint', '--cache', '-f', 'json', '.'], { cwd: repo });
        let stdout = '';
        p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        p.on('close', (code) => resolve({ code, stdout }));
      });
    const runs = await Promise.all([run(), run(), run(), run()]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(new Set(runs.map((r) => r.stdout)).size).toBe(1);
    const cache = readFileSync(join(repo, '.tritonc-cache'), 'utf8').split('\n');
    expect(cache).toHaveLength(5);
    for (const line of cache.slice(0, 4)) expect(() => JSON.parse(line)).not.toThrow();
    expect(readdirSync(repo).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // And a fifth run reads it.
    expect((await run()).stdout).toBe(runs[0].stdout);
  });
});

describe('lint --user-cache (the pre-commit hook)', () => {
  it("keeps the cache in the user's cache directory, one file per working directory, nothing in the checkout", async () => {
    const { repo, dir } = await checkout();
    const xdg = join(dir, 'xdg');
    const r = await cli(['lint', '--user-cache', '.'], { cwd: repo, env: { XDG_CACHE_HOME: xdg } });
    expect(r.code, r.stderr).toBe(0);
    const { readdirSync, statSync } = await import('node:fs');
    const files = readdirSync(join(xdg, 'tritonc'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^lint-[0-9a-f]{14}$/);
    expect(statSync(join(xdg, 'tritonc')).mode & 0o777).toBe(0o700);
    expect(existsSync(join(repo, '.tritonc-cache'))).toBe(false);
    // Another working directory, another file; the same one again, the same file.
    await cli(['lint', '--user-cache', 'classifier'], { cwd: repo, env: { XDG_CACHE_HOME: xdg } });
    await cli(['lint', '--user-cache', '.'], { cwd: join(repo, 'classifier'), env: { XDG_CACHE_HOME: xdg } });
    expect(readdirSync(join(xdg, 'tritonc'))).toHaveLength(2);
    expect((await cli(['lint', '--user-cache', '--cache-location', 'x', '.'], { cwd: repo })).code).toBe(2);
  });
});

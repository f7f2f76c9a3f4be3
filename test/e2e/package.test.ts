// The package as npm and pre-commit install it: `npm pack` from a clean checkout (which builds dist/
// in `prepare`), then `npm install -g` of the tarball into an empty prefix. pre-commit does exactly
// this for `language: node` hooks and reads the tarball's name from npm pack's stdout.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, snapshotCheckout } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 240_000 });

describe('the npm package', () => {
  let prefix: string;
  let tarball: string;
  let packed: SpawnSyncReturns<string>;
  const tritonc = (...args: string[]): SpawnSyncReturns<string> => run(join(prefix, 'bin', 'tritonc'), args, ROOT);

  beforeAll(() => {
    const { dir } = snapshotCheckout();
    // prepare needs the build tools: the checkout's own, as `npm install` would have put them there.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    packed = run('npm', ['pack'], dir);
    tarball = join(dir, packed.stdout.trim());
    prefix = tempDir('tritonc-prefix-');
    const installed = run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], dir);
    expect(installed.status, installed.stderr).toBe(0);
  }, 300_000);

  it('npm pack prints only the tarball name on stdout (pre-commit installs from that name)', () => {
    expect(packed.status, packed.stderr).toBe(0);
    expect(packed.stdout).toBe('tritonc-0.1.0.tgz\n');
    expect(existsSync(tarball)).toBe(true);
  });

  it('ships no V8 code cache: the Node version that runs tritonc makes its own', () => {
    const list = run('tar', ['-tzf', tarball], ROOT).stdout.split('\n');
    expect(list).toContain('package/dist/cli.cjs');
    expect(list.filter((f) => f.endsWith('.cache'))).toEqual([]);
    expect(tritonc('--version').status).toBe(0);
    const dist = join(prefix, 'lib', 'node_modules', 'tritonc', 'dist');
    expect(readdirSync(dist)).toContain(`cli.cjs.${process.versions.v8}.cache`);
  });

  it('ships the CLI bundle as ASCII, so V8 holds its source one byte a character', () => {
    const bundle = readFileSync(join(prefix, 'lib', 'node_modules', 'tritonc', 'dist', 'cli.cjs'), 'latin1');
    expect(bundle.length).toBeGreaterThan(100_000);
    expect(bundle.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
  });

  it('installs a working tritonc without the dev dependencies', () => {
    const lint = tritonc('lint', 'model_repository');
    expect(lint.stderr).toBe('');
    expect(lint.status).toBe(0);
    expect(lint.stdout).toContain('model_repository/classifier/config.pbtxt');
    const deps = readdirSync(join(prefix, 'lib', 'node_modules', 'tritonc', 'node_modules'));
    for (const dev of ['vitest', 'typescript', 'esbuild', 'onnxruntime-node', 'fast-check']) expect(deps).not.toContain(dev);
    expect(deps).toEqual(expect.arrayContaining(['protobufjs', 'yargs', 'zod']));
  });

  it('the library and tritonc/cli import from the installed package, as docs/api.md shows', () => {
    const lib = join(prefix, 'lib', 'node_modules');
    const script = [
      "import { lintText, applyEdits, VERSION } from 'tritonc';",
      "import { runCli } from 'tritonc/cli';",
      'const text = \'name: "m"\\nmax_batch_size: -1\\n\';',
      "const [d] = lintText(text, { file: '/nowhere/m/config.pbtxt' }).results[0].diagnostics.filter((x) => x.ruleId === 'max-batch-size');",
      'console.log(VERSION, d.messageId, typeof runCli, typeof applyEdits);',
    ].join('\n');
    // A project whose node_modules holds the installed tritonc (ESM resolution has no NODE_PATH).
    const project = tempDir('tritonc-api-');
    symlinkSync(lib, join(project, 'node_modules'));
    const inProject = run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(inProject.stderr).toBe('');
    expect(inProject.stdout).toBe('0.1.0 negative function function\n');
  });

  it('verify --runtime ort says how to add onnxruntime-node, and works once it is installed beside tritonc as said', () => {
    const missing = tritonc('verify', 'model_repository/classifier');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('ONNXRUNTIME_NODE_INSTALL=skip npm install -g onnxruntime-node');
    const version = JSON.parse(run('npm', ['ls', 'onnxruntime-node', '--json'], ROOT).stdout).dependencies['onnxruntime-node'].version as string;
    const added = run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', `onnxruntime-node@${version}`], ROOT, {
      ONNXRUNTIME_NODE_INSTALL: 'skip',
    });
    expect(added.status, added.stderr).toBe(0);
    const verified = tritonc('verify', 'model_repository/classifier');
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
    expect(verified.stdout).toMatch(/batch 1/);
  }, 240_000);
});

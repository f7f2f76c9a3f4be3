// tritonc installed from git as a user installs it: the README's own command (read from README.md,
// its URL replaced by a git+file:// clone) into an empty prefix, with an empty HOME and npm cache,
// by this machine's npm and by npm 12 (the registry's newest major, which refuses a package from git
// unless --allow-git lets it). npm then builds the clone in `prepare` without its devDependencies (the
// install it runs in the clone inherits --global); scripts/prepare.mjs installs what the build needs
// itself. pre-commit 4's `language: node` runs its own command (test/e2e/pre-commit.test.ts).
// The registry is reached as this machine's npm config says (its certificates): that file is kept.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, snapshotCheckout } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const available = npmVersion.status === 0;
// CI has npm and the registry: there this is run, never skipped.
const mustRun = process.env.CI === 'true';

/** npm 12, pinned: the newest major on the registry when this was written (it wants Node 22, and warns on 20). */
const NPM_12 = '12.2.3';
const GIT_URL = 'git+https://github.com/tritonc/tritonc.git';

/** The README's install command, as its words: `npm install -g ... <the git URL>`. */
function readmeInstallArgs(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const command = new RegExp('`npm (install -g [^`]*?) ' + GIT_URL.replace(/[.+]/g, '\\$&') + '`').exec(readme);
  if (!command) throw new Error(`README.md has no \`npm install -g ... ${GIT_URL}\``);
  return command[1]!.split(/\s+/);
}

/** An environment with an empty HOME and npm cache, and no npm_config_* of the test run's own npm. */
function cleanEnv(): NodeJS.ProcessEnv {
  const home = tempDir('tritonc-git-home-');
  const userConfig = process.env.NPM_CONFIG_USERCONFIG ?? process.env.npm_config_userconfig ?? join(homedir(), '.npmrc');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, npm_config_cache: join(home, 'npm-cache'), NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (/^npm_config_/i.test(k) && !/^npm_config_cache$/.test(k)) delete env[k];
  if (existsSync(userConfig)) env.NPM_CONFIG_USERCONFIG = userConfig;
  return env;
}

const NPMS: { name: string; npm: () => string[] }[] = [
  { name: `this machine's npm${available ? ` ${npmVersion.stdout.trim()}` : ''}`, npm: () => ['npm'] },
  {
    name: `npm ${NPM_12}`,
    npm: () => {
      const dir = tempDir('tritonc-npm12-');
      const got = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `npm@${NPM_12}`], {
        encoding: 'utf8',
        env: cleanEnv(),
        timeout: 300_000,
      });
      if (got.status !== 0) throw new Error(`npm@${NPM_12} did not install: ${got.stdout}${got.stderr}`);
      return [process.execPath, join(dir, 'node_modules', 'npm', 'bin', 'npm-cli.js')];
    },
  },
];

describe.skipIf(!available && !mustRun).each(NPMS)('tritonc installed from git with the README command, by $name', ({ npm }) => {
  let prefix: string;
  let installed: SpawnSyncReturns<string>;

  beforeAll(() => {
    const { dir } = snapshotCheckout();
    prefix = tempDir('tritonc-git-prefix-');
    const [exe, ...pre] = npm();
    const args = [...pre, ...readmeInstallArgs(), '--prefix', prefix, '--no-audit', '--no-fund', `git+file://${dir}`];
    installed = spawnSync(exe!, args, { cwd: tempDir('tritonc-git-cwd-'), encoding: 'utf8', env: cleanEnv(), timeout: 400_000 });
  }, 720_000);

  it('installs, building dist/ in prepare without the devDependencies', () => {
    expect(installed.status, `${installed.stdout}${installed.stderr}`).toBe(0);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'tritonc', 'dist', 'cli.cjs'))).toBe(true);
  });

  it('the installed tritonc runs: --version, and lint of the example repository', () => {
    const tritonc = join(prefix, 'bin', 'tritonc');
    const version = spawnSync(tritonc, ['--version'], { encoding: 'utf8' });
    expect(version.stdout.trim(), version.stderr).toBe('0.1.0');
    const lint = spawnSync(tritonc, ['lint', join(ROOT, 'model_repository', 'classifier'), '--format', 'json'], { encoding: 'utf8' });
    expect(lint.stderr).toBe('');
    expect(JSON.parse(lint.stdout)[0].filePath).toBe(join(ROOT, 'model_repository', 'classifier', 'config.pbtxt'));
  });
});

// tritonc installed from git as a user (and pre-commit 4's `language: node`) installs it:
// `npm install -g --install-links git+file://<clone>` into an empty prefix, with an empty HOME and
// npm cache. npm then builds the clone in `prepare` without its devDependencies (the install it runs
// in the clone inherits --global); scripts/prepare.mjs installs what the build needs itself.
// The registry is reached as this machine's npm config says (its certificates): that file is kept.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, snapshotCheckout } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const available = npmVersion.status === 0;
// CI has npm and the registry: there this is run, never skipped.
const mustRun = process.env.CI === 'true';

describe.skipIf(!available && !mustRun)(
  `tritonc installed from git with npm${available ? ` ${npmVersion.stdout.trim()}` : ' (skipped: npm is not installed)'}`,
  () => {
    let prefix: string;
    let installed: SpawnSyncReturns<string>;

    beforeAll(() => {
      const { dir } = snapshotCheckout();
      prefix = tempDir('tritonc-git-prefix-');
      const home = tempDir('tritonc-git-home-');
      const userConfig = process.env.NPM_CONFIG_USERCONFIG ?? process.env.npm_config_userconfig ?? join(homedir(), '.npmrc');
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, npm_config_cache: join(home, 'npm-cache'), NO_COLOR: '1' };
      for (const k of Object.keys(env)) if (/^npm_config_/i.test(k) && !/^npm_config_cache$/.test(k)) delete env[k];
      if (existsSync(userConfig)) env.NPM_CONFIG_USERCONFIG = userConfig;
      installed = spawnSync('npm', ['install', '-g', '--install-links', '--prefix', prefix, '--no-audit', '--no-fund', `git+file://${dir}`], {
        cwd: tempDir('tritonc-git-cwd-'),
        encoding: 'utf8',
        env,
        timeout: 400_000,
      });
    }, 420_000);

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
  },
);

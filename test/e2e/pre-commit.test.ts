// The hooks of .pre-commit-hooks.yaml as a user gets them: the pre-commit framework installs them
// from the README's own snippet (its URL pointed at this checkout, committed as it is now, on main)
// with the system's Node, in a new repository with a .pre-commit-config.yaml, and runs them on
// `git commit`. Two frameworks: Debian's pre-commit (3.x: `npm install` in its clone, `npm pack`,
// `npm install -g` of the tarball) and pre-commit 4.7.0 from PyPI (.venv-precommit, made by
// scripts/pre-commit/setup.sh), which runs `npm install --allow-git=root --install-links -g
// git+file://<clone>` (pre_commit/languages/node.py, install_environment), where npm leaves out the
// devDependencies the build needs; scripts/prepare.mjs).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatText } from '../../src/config/format.js';
import { git, ROOT, snapshotCheckout } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

// CI installs both (.ci/run): there a missing one is a failure, not a skip.
const mustRun = process.env.CI === 'true';
const FRAMEWORKS = [
  { name: "Debian's pre-commit", bin: 'pre-commit', version: /^pre-commit 3\./, install: 'apt-get install pre-commit' },
  {
    name: 'pre-commit 4.7.0 (PyPI)',
    bin: join(ROOT, '.venv-precommit', 'bin', 'pre-commit'),
    version: /^pre-commit 4\.7\.0$/,
    install: 'bash scripts/pre-commit/setup.sh',
  },
].map((f) => {
  const v = spawnSync(f.bin, ['--version'], { encoding: 'utf8' });
  return { ...f, available: v.status === 0 && f.version.test(v.stdout.trim()) };
});

// In fmt's canonical layout, so only the lint hook has something to say about it.
const GOOD = `name: "m"
backend: "onnxruntime"
max_batch_size: 8
input [
  {
    name: "input"
    data_type: TYPE_FP32
    dims: [ 3, 224, 224 ]
  }
]
output [
  {
    name: "output"
    data_type: TYPE_FP32
    dims: [ 1000 ]
  }
]
dynamic_batching { preferred_batch_size: [ 8 ] }
`;

/** The repository URL the README's snippet names. */
const README_REPO = 'https://github.com/tritonc/tritonc';

/** The README's .pre-commit-config.yaml snippet: the yaml block after "With [pre-commit]". */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('With [pre-commit](https://pre-commit.com), add to `.pre-commit-config.yaml`:');
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error('README.md: the pre-commit snippet is not where the test looks for it');
  return block[1]!;
}

describe.each(FRAMEWORKS)('pre-commit hooks installed by $name', ({ bin, available, install: how, name }) => {
  if (!available && !mustRun) {
    it.skip(`skipped: ${name} is not installed (${how})`, () => {});
    return;
  }
  let user: string;
  let env: NodeJS.ProcessEnv;
  const commit = (message: string) => {
    git(user, 'add', '-A');
    const r = spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.invalid', 'commit', '-q', '-m', message], {
      cwd: user,
      encoding: 'utf8',
      env,
    });
    return { code: r.status, output: `${r.stdout}${r.stderr}` };
  };

  beforeAll(() => {
    const hooks = snapshotCheckout();
    user = join(tempDir('tritonc-precommit-'), 'models-repo');
    mkdirSync(user);
    // The hook's cache goes to the user's cache directory: here, one of the test's own.
    env = { ...process.env, PRE_COMMIT_HOME: join(user, '..', 'pre-commit-home'), XDG_CACHE_HOME: join(user, '..', 'user-cache'), NO_COLOR: '1' };
    git(user, 'init', '-q');
    // The README's own snippet, as printed, with only the repository's URL pointing at the snapshot
    // (its `main` is this checkout): the test cannot reach GitHub, and everything else is the text.
    const snippet = readmeSnippet();
    expect(snippet).toContain(`repo: ${README_REPO}`);
    writeFileSync(join(user, '.pre-commit-config.yaml'), snippet.replace(README_REPO, hooks.dir));
    const installHooks = () => spawnSync(bin, ['install', '--install-hooks'], { cwd: user, encoding: 'utf8', env, timeout: 900_000 });
    let install = installHooks();
    // npm 11 can race itself while it prepares the git dependency with --install-links: its tar
    // extraction and a rmdir of the same package directory ("TAR_ENTRY_ERROR ENOENT", then "ENOTEMPTY ...
    // git dep preparation failed"; seen once in 54 CI runs, 2026-12-07, under a loaded machine). pre-commit
    // removes the environment it could not make, and a user runs the install again: so does the test, once,
    // for that failure alone.
    if (install.status !== 0 && /ENOTEMPTY/.test(install.stdout + install.stderr) && /git dep preparation failed/.test(install.stdout + install.stderr))
      install = installHooks();
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    cpSync(join(ROOT, 'model_repository', 'classifier', '1'), join(user, 'models', 'm', '1'), { recursive: true });
  }, 960_000);

  it("a staged config Triton would refuse blocks the commit with tritonc's message", () => {
    writeFileSync(join(user, 'models', 'm', 'config.pbtxt'), GOOD.replace('preferred_batch_size: [ 8 ]', 'preferred_batch_size: [ 16 ]'));
    const r = commit('a preferred batch size above max_batch_size');
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/tritonc lint\.+Failed/);
    expect(r.output).toContain('models/m/config.pbtxt');
    expect(r.output).toContain('("dynamic batching preferred size must be <= max batch size for m")');
    expect(() => git(user, 'rev-parse', 'HEAD')).toThrow();
  }, 120_000);

  it('the fixed config goes through', () => {
    writeFileSync(join(user, 'models', 'm', 'config.pbtxt'), GOOD);
    const r = commit('the model');
    expect(r.output).toMatch(/tritonc lint\.+Passed/);
    expect(r.output).toMatch(/tritonc fmt\.+Passed/);
    expect(r.code).toBe(0);
    expect(git(user, 'log', '--format=%s')).toBe('the model\n');
  }, 120_000);

  it('tritonc-fmt rewrites a staged config that is not formatted', () => {
    const messy = GOOD.replace('max_batch_size: 8', 'max_batch_size:8   # the largest batch').replace('dims: [ 1000 ]', 'dims: [1000]');
    writeFileSync(join(user, 'models', 'm', 'config.pbtxt'), messy);
    const r = commit('messy');
    expect(r.output).toMatch(/tritonc fmt\.+Failed/);
    expect(r.output).toContain('files were modified by this hook');
    const formatted = formatText(messy);
    expect(formatted.status === 'formatted' && formatted.changed).toBe(true);
    expect(readFileSync(join(user, 'models', 'm', 'config.pbtxt'), 'utf8')).toBe(formatted.status === 'formatted' ? formatted.output : '');
    expect(commit('formatted').code).toBe(0);
  }, 120_000);

  it('a staged file named as an option (--output-file=report.onnx) is a path: the commit is blocked, and the report goes nowhere', () => {
    writeFileSync(join(user, '--output-file=report.onnx'), 'not a model\n');
    writeFileSync(join(user, 'models', 'm', 'config.pbtxt'), GOOD.replace('preferred_batch_size: [ 8 ]', 'preferred_batch_size: [ 16 ]'));
    const r = commit('a file named as an option');
    expect(r.code).not.toBe(0);
    expect(r.output).toMatch(/tritonc lint\.+Failed/);
    expect(r.output).toContain('--output-file=report.onnx: not a config');
    expect(existsSync(join(user, 'report.onnx'))).toBe(false);
    git(user, 'rm', '-q', '--cached', '--', '--output-file=report.onnx');
    rmSync(join(user, '--output-file=report.onnx'));
  }, 120_000);
});

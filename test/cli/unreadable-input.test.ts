// Input tritonc cannot read: FIFOs and devices where a config or a model should be, directories and
// files without permission. Every command ends promptly with exit 2 and names the path; nothing is
// skipped silently and nothing is written. Run as real processes, so a hang shows as a timeout, and
// the permission cases as an unprivileged user (root reads everything).
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin, tempDir } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CLASSIFIER = join(ROOT, 'model_repository', 'classifier');

/** A repository: `good` (a healthy model), `fifo-config` (config.pbtxt is a FIFO), `fifo-model` (1/model.onnx is one). */
function repository(): string {
  const repo = tempDir('tritonc-unreadable-');
  for (const m of ['good', 'fifo-config', 'fifo-model']) {
    mkdirSync(join(repo, m, '1'), { recursive: true });
    if (m !== 'fifo-model') cpSync(join(CLASSIFIER, '1', 'model.onnx'), join(repo, m, '1', 'model.onnx'));
    if (m !== 'fifo-config')
      writeFileSync(join(repo, m, 'config.pbtxt'), readFileSync(join(CLASSIFIER, 'config.pbtxt'), 'utf8').replace(/"classifier"/, `"${m}"`));
  }
  execFileSync('mkfifo', [join(repo, 'fifo-config', 'config.pbtxt'), join(repo, 'fifo-model', '1', 'model.onnx')]);
  chmodSync(repo, 0o755);
  return repo;
}

const run = (args: string[], cwd: string, unprivileged = false) => {
  const r = runBin(args, { cwd, unprivileged });
  // A command still running at the timeout was killed: it hung.
  expect(r.code, `${args.join(' ')} hung or crashed: ${r.stderr}`).not.toBe(-1);
  return r;
};

describe('FIFOs and devices', () => {
  let repo: string;
  beforeAll(() => {
    repo = repository();
  });

  it.each([
    [['lint', 'fifo-config'], 'tritonc lint: fifo-config/config.pbtxt: cannot read: not a regular file (a FIFO)\n'],
    [['fmt', '--check', 'fifo-config'], 'tritonc fmt: fifo-config/config.pbtxt: cannot read: not a regular file (a FIFO)\n'],
    [['fmt', '/dev/zero'], 'tritonc fmt: /dev/zero: cannot read: not a regular file (a device)\n'],
    [['generate', 'fifo-model'], 'tritonc generate: fifo-model/1/model.onnx: not a regular file (a FIFO), where the ONNX model file should be\n'],
    [['resolve', 'fifo-config'], 'tritonc resolve: fifo-config/config.pbtxt: cannot read: not a regular file (a FIFO)\n'],
    [['verify', 'fifo-config', '--dry-run'], 'tritonc verify: fifo-config/config.pbtxt: cannot read: not a regular file (a FIFO)\n'],
    [['inspect', 'fifo-model/1/model.onnx'], 'tritonc inspect: fifo-model/1/model.onnx: not a regular file (a FIFO), where the ONNX model file should be\n'],
  ])('tritonc %j ends with exit 2 and says why', (args, stderr) => {
    const r = run(args, repo);
    if (stderr) {
      expect(r.stderr).toBe(stderr);
      expect(r.code).toBe(2);
    }
  });

  it('a model file that is a FIFO is reported as unreadable, and the healthy models are still linted', () => {
    const r = run(['lint', '.'], repo);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tritonc lint: fifo-config/config.pbtxt: cannot read: not a regular file (a FIFO)\n');
    expect(r.stdout).toContain('fifo-model/1/model.onnx');
    expect(r.stdout).toContain('not a regular file (a FIFO)');
    expect(r.stdout).toContain('good/config.pbtxt');
  });
});

describe('permissions, as an unprivileged user', () => {
  it('a config.pbtxt without read permission: generate --write and --check say "cannot read", and write nothing', () => {
    const repo = tempDir('tritonc-perm-');
    chmodSync(repo, 0o777);
    cpSync(CLASSIFIER, join(repo, 'm'), { recursive: true });
    const config = join(repo, 'm', 'config.pbtxt');
    writeFileSync(config, '# edited by hand\nname: "m"\n');
    chmodSync(join(repo, 'm'), 0o777);
    chmodSync(config, 0);
    for (const flag of ['--write', '--check']) {
      const r = run(['generate', 'm', flag], repo, true);
      expect(r.stderr).toBe('tritonc generate: m/config.pbtxt: cannot read: permission denied (EACCES)\n');
      expect(r.code).toBe(2);
    }
    chmodSync(config, 0o644);
    expect(readFileSync(config, 'utf8')).toBe('# edited by hand\nname: "m"\n');
  });

  it('a directory without read permission: lint, fmt --check and resolve exit 2 naming it', () => {
    const repo = tempDir('tritonc-perm-');
    chmodSync(repo, 0o755);
    cpSync(CLASSIFIER, join(repo, 'good'), { recursive: true });
    cpSync(CLASSIFIER, join(repo, 'locked'), { recursive: true });
    chmodSync(join(repo, 'locked'), 0o311);
    const lint = run(['lint', '.'], repo, true);
    expect(lint.stderr).toBe('tritonc lint: locked: cannot read: permission denied (EACCES)\n');
    expect(lint.code).toBe(2);
    const fmt = run(['fmt', '--check', '.'], repo, true);
    expect(fmt.stderr).toBe('tritonc fmt: locked: cannot read: permission denied (EACCES)\n');
    expect(fmt.code).toBe(2);
    const resolve = run(['resolve', 'locked'], repo, true);
    expect(resolve.stderr).toContain('locked: cannot read: permission denied (EACCES)');
    expect(resolve.stderr).not.toContain('config.pbtxt');
    expect(resolve.code).toBe(2);
    chmodSync(join(repo, 'locked'), 0o755);
  });
});

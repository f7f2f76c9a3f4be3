// A git repository holding exactly this checkout's files as they are now (tracked and untracked, not
// ignored, edits included), committed: what a user gets from `git clone` of a pushed commit.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=tritonc tests', '-c', 'user.email=tests@tritonc.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Copies the checkout into a new repository with one commit; returns its directory and the commit. */
export function snapshotCheckout(): { dir: string; rev: string } {
  const dir = join(tempDir('tritonc-snapshot-'), 'tritonc');
  const files = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    try {
      copyFileSync(join(ROOT, f), join(dir, f));
    } catch (e) {
      // A tracked file deleted in the working tree is not part of the snapshot.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'snapshot of the checkout under test');
  return { dir, rev: git(dir, 'rev-parse', 'HEAD').trim() };
}

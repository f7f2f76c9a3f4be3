// One temporary root for the whole run: every test process (and every CLI it spawns) inherits it as
// TMPDIR. At the end, anything still in it is a test or a command that did not clean up after
// itself: the run fails and names it, and the root is removed either way.
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Whether every directory from / down to `dir` lets other users pass through it (the x bit for others). */
function searchableByOthers(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    try {
      if (!(statSync(d).mode & 0o001)) return false;
    } catch {
      return false;
    }
    if (dirname(d) === d) return true;
  }
}

export default function setup(): () => void {
  // Each vitest project runs its global setup: when one invocation runs several (`vitest run test/x`
  // runs the fast and heavy projects), the first root serves them all.
  if (process.env.TRITONC_TEST_ROOT) return () => {};
  // A private TMPDIR (mode 0700, as many users have it) would keep the unprivileged user of the
  // permission tests out of every test directory: then the root goes in /tmp.
  const base = searchableByOthers(tmpdir()) ? tmpdir() : '/tmp';
  const root = mkdtempSync(join(base, 'tritonc-tests-'));
  // Searchable by others, so the permission tests can run the CLI as an unprivileged user.
  chmodSync(root, 0o711);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env.TRITONC_TEST_ROOT = root;
  return () => {
    delete process.env.TRITONC_TEST_ROOT;
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // vitest reports an error thrown here ("error during close") and still exits 0: the exit code says it.
    if (left.length) process.exitCode = 1;
    if (left.length) throw new Error(`tests left ${left.length} temporary entries behind: ${left.slice(0, 10).join(', ')}`);
  };
}

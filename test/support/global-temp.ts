// One temporary root for the whole run: every test process (and every CLI it spawns) inherits it as
// TMPDIR. At the end, anything still in it is a test or a command that did not clean up after
// itself: the run fails and names it, and the root is removed either way.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'tritonc-tests-'));
  // Searchable by others, so the permission tests can run the CLI as an unprivileged user.
  chmodSync(root, 0o711);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length) throw new Error(`tests left ${left.length} temporary entries behind: ${left.slice(0, 10).join(', ')}`);
  };
}

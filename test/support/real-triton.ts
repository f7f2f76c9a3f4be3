// Where the tests find the real tritonserver (the venv of scripts/real-triton/setup.sh) and whether a
// suite that needs it runs: without the venv it is skipped with one line, as the corpus suites are;
// with CI=true it must run (and fails where the venv is missing).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './snapshot.js';

export const VENV = process.env.TRITON_VENV ?? join(ROOT, '.venv-triton');
export const haveVenv = existsSync(join(VENV, 'triton-backends', 'python', 'triton_python_backend_stub'));

/** Whether `suite` runs here; says so in one line when it does not. */
export function realTritonRuns(suite: string): boolean {
  const runs = haveVenv || process.env.CI === 'true';
  if (!runs) console.log(`tritonc: ${suite} skipped: no ${VENV} (bash scripts/real-triton/setup.sh makes it)`);
  return runs;
}

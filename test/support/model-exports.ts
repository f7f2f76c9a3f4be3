// Where the tests find the frameworks that export the model fixtures (the venv of
// scripts/model-exports/setup.sh) and whether a suite that regenerates them runs: without the venv
// it is skipped with one line; with CI=true it must run (and fails where the venv is missing).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './snapshot.js';

export const EXPORTS_VENV = process.env.EXPORTS_VENV ?? join(ROOT, '.venv-exports');
export const EXPORTS_PYTHON = join(EXPORTS_VENV, 'bin', 'python');
export const haveExporters = existsSync(EXPORTS_PYTHON);

/** Whether `suite`, which runs the exporters, runs here; says so in one line when it does not. */
export function exportersRun(suite: string): boolean {
  const runs = haveExporters || process.env.CI === 'true';
  if (!runs) console.log(`tritonc: ${suite} skipped: no ${EXPORTS_VENV} (bash scripts/model-exports/setup.sh makes it)`);
  return runs;
}

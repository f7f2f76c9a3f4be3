// Where the tests find the real helm (built by scripts/helm/setup.sh into .tools/helm/bin) and whether a
// suite that needs it runs: without it the suite is skipped with one line saying how to build it; with
// CI=true it must run, and a missing helm fails it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './snapshot.js';

/** The pinned helm of scripts/helm/setup.sh (HELM_TOOLS moves it, as it does for the script). */
const HELM = join(process.env.HELM_TOOLS ?? join(ROOT, '.tools', 'helm'), 'bin', 'helm');

/** The real helm for `suite`, or undefined (said in one line) where it is not built; with CI=true a missing one fails. */
export function helmBinary(suite: string): string | undefined {
  if (existsSync(HELM)) return HELM;
  if (process.env.CI === 'true') throw new Error(`CI=true: ${suite} needs the real helm at ${HELM} (bash scripts/helm/setup.sh builds it)`);
  console.log(`tritonc: ${suite} skipped: no ${HELM} (bash scripts/helm/setup.sh builds it)`);
  return undefined;
}

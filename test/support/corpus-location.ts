// Where the corpus of real Triton configs is: the conformance suites (test/conformance/) run on it.
// It is test data kept outside the repository, so a clone has none: TRITONC_CORPUS names it, and
// without that a checkout beside it (../shared/corpus/triton-configs) is used when there is one.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT = resolve(ROOT, '../shared/corpus/triton-configs');

export type CorpusLocation = { found: true; dir: string } | { found: false; reason: string };

export function locateCorpus(env: NodeJS.ProcessEnv = process.env): CorpusLocation {
  const named = env.TRITONC_CORPUS;
  const dir = named ? resolve(named) : DEFAULT;
  if (existsSync(resolve(dir, 'MANIFEST.tsv'))) return { found: true, dir };
  return {
    found: false,
    reason: named ? `TRITONC_CORPUS=${named} has no MANIFEST.tsv` : `no corpus at ${DEFAULT} and TRITONC_CORPUS is not set`,
  };
}

import { defineConfig } from 'vitest/config';
import { locateCorpus } from './test/support/corpus-location.js';

// The conformance suites run on the corpus of real configs kept outside the repository. Without it
// they are left out with one line saying so; in CI (CI=true) a missing corpus fails the run.
const corpus = locateCorpus();
if (!corpus.found) {
  if (process.env.CI === 'true') throw new Error(`CI=true: the conformance suites need the corpus (${corpus.reason})`);
  console.log(`tritonc: conformance suites (test/conformance/) skipped: ${corpus.reason}; run them with TRITONC_CORPUS=<dir of MANIFEST.tsv> npm test`);
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: corpus.found ? [] : ['test/conformance/**'],
    globalSetup: ['test/support/global-temp.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { locateCorpus } from './test/support/corpus-location.js';
import { HEAVY_GLOBS, TEST_GLOB, realTritonFiles } from './test/support/suites.js';

// Two projects, one per test command (test/support/suites.ts): `npm test` runs `fast`, `npm run
// test:heavy` runs `heavy`, CI both. `npx vitest run <file>` runs a file in whichever it is in.
const heavy = [...HEAVY_GLOBS, ...realTritonFiles()];

// The conformance suites run on the corpus of real configs kept outside the repository. Without it
// they are left out with one line saying so; in CI (CI=true) a missing corpus fails the run.
const corpus = locateCorpus();
if (!corpus.found) {
  if (process.env.CI === 'true') throw new Error(`CI=true: the conformance suites need the corpus (${corpus.reason})`);
  // Said once: vitest reads this file again for each project.
  const noted = globalThis as { tritoncCorpusNoted?: boolean };
  if (!noted.tritoncCorpusNoted)
    console.log(
      `tritonc: conformance suites (test/conformance/) skipped: ${corpus.reason}; run them with TRITONC_CORPUS=<dir of MANIFEST.tsv> npm run test:heavy`,
    );
  noted.tritoncCorpusNoted = true;
}

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-temp.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    // Bounds on a hang, never a measure of speed: a test's verdict must not depend on the machine's load.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once even on two cores (vitest's default leaves one core idle): most tests wait on
    // a process they started or on the disk part of the time, and none is timed.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'fast', include: [TEST_GLOB], exclude: heavy } },
      // One file at a time: each starts a real tritonserver, a container or a package install of its own.
      { extends: true, test: { name: 'heavy', include: heavy, exclude: corpus.found ? [] : ['test/conformance/**'], maxWorkers: 1 } },
    ],
  },
});

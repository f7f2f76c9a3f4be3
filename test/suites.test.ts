// The two test commands split the test files between them (test/support/suites.ts): every test file
// is in exactly one of vitest's projects, `fast` (npm test) or `heavy` (npm run test:heavy), as vitest
// itself resolves them from vitest.config.ts; a file that drives the real tritonserver is heavy
// wherever it lives; and every place named heavy still holds a test.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { locateCorpus } from './support/corpus-location.js';
import { HEAVY_GLOBS, realTritonFiles, testFiles } from './support/suites.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Each test file vitest would run, with the projects it is in. */
async function projectsOfFiles(): Promise<Map<string, string[]>> {
  const vitest = await createVitest('test', { root: ROOT, config: join(ROOT, 'vitest.config.ts'), watch: false });
  try {
    const found = new Map<string, string[]>();
    for (const spec of await vitest.globTestSpecifications()) {
      const file = spec.moduleId.slice(ROOT.length);
      found.set(file, [...(found.get(file) ?? []), spec.project.name].sort());
    }
    return found;
  } finally {
    await vitest.close();
  }
}

describe('the fast and the heavy test commands', () => {
  it('every test file is in exactly one of them; a file that starts the real tritonserver is heavy', { timeout: 120_000 }, async () => {
    const found = await projectsOfFiles();
    // Any file named as a test, whatever its extension: one vitest would not pick up is in neither.
    const named = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(f))
      .map((f) => `test/${f.split('\\').join('/')}`);
    expect(named.sort()).toEqual(testFiles());
    // Without the corpus the conformance suites are left out of both (vitest.config.ts says so).
    const leftOut = (f: string): boolean => !locateCorpus().found && f.startsWith('test/conformance/');
    const wrong = named.filter((f) => (found.get(f) ?? []).length !== (leftOut(f) ? 0 : 1));
    expect(wrong.map((f) => [f, found.get(f) ?? []])).toEqual([]);
    for (const f of realTritonFiles().filter((f) => !leftOut(f))) expect([f, found.get(f)]).toEqual([f, ['heavy']]);
    // The fast command holds most of the suite: the heavy one is what needs a real thing outside the repository.
    expect([...found.values()].filter((p) => p[0] === 'fast').length).toBeGreaterThan(found.size / 2);
  });

  it('every place named heavy holds a test file', () => {
    for (const glob of HEAVY_GLOBS) {
      // A folder's test files, or one file: the two shapes the list takes.
      const folder = /^(test\/.+)\/\*\*\/\*\.test\.ts$/.exec(glob)?.[1];
      if (folder) expect([glob, testFiles().some((f) => f.startsWith(`${folder}/`))]).toEqual([glob, true]);
      else expect([glob, testFiles().includes(glob)]).toEqual([glob, true]);
    }
  });
});

// npm 12 runs a dependency's install script only where package.json's allowScripts says so, and lists
// every other one as blocked on each `npm ci` (npm 11.16+ advises the same): each dependency the lock
// marks as having one (package-lock.json's hasInstallScript) is decided there, run or not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/snapshot.js';

const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe('allowScripts', () => {
  it('decides every locked dependency that has an install script', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const decided = Object.keys(read('package.json').allowScripts ?? {});
    expect(withScripts.filter((name) => !decided.includes(name))).toEqual([]);
  });
});

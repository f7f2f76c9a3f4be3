// The library's surface is what docs/api.md documents: no more, no less.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as cli from '../src/cli/index.js';

const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
/** The names the page documents: `### name` headings, per section (`## tritonc`, `## tritonc/cli`). */
function documented(section: string): string[] {
  const start = doc.indexOf(`\n## ${section}\n`);
  const end = doc.indexOf('\n## ', start + 4);
  return [...doc.slice(start, end < 0 ? undefined : end).matchAll(/^### `?(\w+)/gm)].map((m) => m[1]!).sort();
}

describe('public API (docs/api.md)', () => {
  it('exports exactly the values docs/api.md documents', () => expect(Object.keys(api).sort()).toEqual(documented('`tritonc`')));
  it('tritonc/cli exports exactly runCli', () => expect(Object.keys(cli).sort()).toEqual(documented('`tritonc/cli`')));
});

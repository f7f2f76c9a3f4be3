// `f(...items)` passes every element as an argument, and V8 refuses more than about 120,000 of them
// ("Maximum call stack size exceeded"): `tune pick` overflowed so on 150,000 rows. No call in src/
// spreads an array into its arguments; util/arrays.ts's append, maxOf and minOf hold for any length.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { append, maxOf, minOf } from '../src/util/arrays.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

/** Every call or `new` in `file` with a spread argument, as file:line and its text. */
function spreadCalls(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isCallExpression(n) || ts.isNewExpression(n)) && n.arguments?.some(ts.isSpreadElement)) {
      found.push(`${relative(SRC, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().slice(0, 80)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('no unbounded spread', () => {
  it('finds a spread argument where there is one (the check itself)', () => {
    const sf = ts.createSourceFile('x.ts', 'Math.max(...rows); a.push(...b); f([...c]);', ts.ScriptTarget.Latest, true);
    let n = 0;
    const visit = (x: ts.Node): void => {
      if (ts.isCallExpression(x) && x.arguments.some(ts.isSpreadElement)) n++;
      ts.forEachChild(x, visit);
    };
    visit(sf);
    expect(n).toBe(2);
  });

  it('no call in src/ spreads an array into its arguments', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(spreadCalls)).toEqual([]);
  });

  it('the helpers hold at 300,000 elements, where a spread overflows the stack', () => {
    const big = Array.from({ length: 300_000 }, (_, i) => i);
    expect(() => Math.max(...big)).toThrow(RangeError);
    expect(maxOf(big)).toBe(299_999);
    expect(minOf(big)).toBe(0);
    expect(append([], big)).toHaveLength(300_000);
  });
});

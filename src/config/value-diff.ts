// Where two config values differ: the check that an edit changed only what it meant to (lint --fix,
// tune --write).
import type { PathSegment } from '../diagnostics.js';
import { append } from '../util/arrays.js';

/** The value paths where two config values differ (the shallowest differing path of each branch). */
export function valueDifferences(a: unknown, b: unknown, path: PathSegment[] = []): PathSegment[][] {
  if (Object.is(a, b)) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return [path];
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    const out: PathSegment[][] = [];
    if (a.length === bb.length) {
      for (let i = 0; i < a.length; i++) append(out, valueDifferences(a[i], bb[i], [...path, i]));
      return out;
    }
    // Elements removed or inserted: what is the same at both ends stays the same, though it moved.
    // The difference is the run between (removing dims[0] of [ -1, 3, 224, 224 ] changes dims[0],
    // not dims[1] to dims[3]).
    const same = (x: unknown, y: unknown): boolean => valueDifferences(x, y).length === 0;
    const shorter = Math.min(a.length, bb.length);
    let head = 0;
    while (head < shorter && same(a[head], bb[head])) head++;
    let tail = 0;
    while (tail < shorter - head && same(a[a.length - 1 - tail], bb[bb.length - 1 - tail])) tail++;
    for (let i = head; i < Math.max(a.length, bb.length) - tail; i++) out.push([...path, i]);
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => valueDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k]));
}

/** Whether one path lies on the other's branch (either is a prefix of the other). */
export const onSameBranch = (a: readonly PathSegment[], b: readonly PathSegment[]): boolean =>
  a.slice(0, Math.min(a.length, b.length)).every((s, i) => s === b[i]);

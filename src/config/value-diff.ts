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
    for (let i = 0; i < Math.max(a.length, bb.length); i++) append(out, valueDifferences(a[i], bb[i], [...path, i]));
    return out;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b as object)]);
  return [...keys].flatMap((k) => valueDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], [...path, k]));
}

/** Whether one path lies on the other's branch (either is a prefix of the other). */
export const onSameBranch = (a: readonly PathSegment[], b: readonly PathSegment[]): boolean => a.slice(0, Math.min(a.length, b.length)).every((s, i) => s === b[i]);

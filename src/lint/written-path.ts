// Reading a config value by path, to tell whether something is written in the file (and so has a
// token to point at) before reporting on it.
import type { PathSegment } from '../diagnostics.js';
import { valueAt } from '../config/value-path.js';

/** The first of `paths` whose value is written; `fallback` when none is. */
export function firstWritten(root: unknown, paths: readonly PathSegment[][], fallback: PathSegment[] = []): PathSegment[] {
  return paths.find((p) => valueAt(root, p) !== undefined) ?? fallback;
}

// A config value's part at a value path (['input', 0, 'dims']): what rules, fixes and the editor read.
import type { PathSegment } from '../diagnostics.js';

export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

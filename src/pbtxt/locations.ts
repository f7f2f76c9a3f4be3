// Maps value paths (['input', 0, 'dims', 1]) to where they are written, so a check on the value can
// point at the exact token.
import type { PathSegment, Range } from '../diagnostics.js';

export interface Location {
  /** The value (or the element, block or map value) at the path. */
  value: Range;
  /** The field name (or map key) that introduces it, when there is one. */
  name?: Range;
}

const keyOf = (path: readonly PathSegment[]): string => path.join('\u0000');

export class LocationIndex {
  private readonly byPath = new Map<string, Location>();

  add(path: readonly PathSegment[], value: Range, name: Range | undefined): void {
    this.byPath.set(keyOf(path), name ? { value, name } : { value });
  }

  /** Records the first place a repeated or map field is named, for diagnostics about the whole field. */
  addField(path: readonly PathSegment[], name: Range): void {
    const key = keyOf(path);
    if (!this.byPath.has(key)) this.byPath.set(key, { value: name, name });
  }

  get(path: readonly PathSegment[]): Location | undefined {
    return this.byPath.get(keyOf(path));
  }

  /** The most precise location at or above the path: a missing child falls back to its parent. */
  nearest(path: readonly PathSegment[]): Location | undefined {
    for (let n = path.length; n > 0; n--) {
      const loc = this.byPath.get(keyOf(path.slice(0, n)));
      if (loc) return loc;
    }
    return undefined;
  }

  /** Moves every location under `from` to under `to` (used once a map entry's key is known). */
  rehome(from: readonly PathSegment[], to: readonly PathSegment[]): void {
    const prefix = keyOf(from);
    for (const [key, loc] of [...this.byPath]) {
      if (key === prefix || key.startsWith(`${prefix}\u0000`)) {
        this.byPath.delete(key);
        this.byPath.set(keyOf(to) + key.slice(prefix.length), loc);
      }
    }
  }

  drop(prefix: readonly PathSegment[]): void {
    const p = keyOf(prefix);
    for (const key of [...this.byPath.keys()]) if (key === p || key.startsWith(`${p}\u0000`)) this.byPath.delete(key);
  }

  merge(other: LocationIndex): void {
    for (const [key, loc] of other.byPath) this.byPath.set(key, loc);
  }
}

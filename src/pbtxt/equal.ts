// Structural equality of plain config values, used to prove that formatting kept a file's meaning.
// Numbers compare with Object.is (NaN equals NaN, -0 differs from 0), key order does not matter.
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => valuesEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && valuesEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

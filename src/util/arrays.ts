// Array helpers that hold for any length. `a.push(...b)` and `Math.max(...b)` pass every element as an
// argument, and V8 refuses more than about 120,000 of them ("Maximum call stack size exceeded"): a
// config with a 200,000-element dims list, or a model with 200,000 inputs, must still print.

/** Appends `items` to `target` one by one; returns `target`. */
export function append<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let max = empty;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The smallest of `values`, or `empty` when there are none. */
export function minOf(values: Iterable<number>, empty = Infinity): number {
  let min = empty;
  for (const v of values) if (v < min) min = v;
  return min;
}

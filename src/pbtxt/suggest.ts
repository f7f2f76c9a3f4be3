// "Did you mean" for unknown field and enum names: exact match ignoring case and `_`, then the
// closest name by edit distance within a bound that grows with the name's length.

const squash = (s: string): string => s.replace(/_/g, '').toLowerCase();

export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const key = squash(name);
  const loose = list.find((c) => squash(c) === key);
  if (loose) return loose;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of list) {
    const d = editDistance(name.toLowerCase(), c.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // A suffix or prefix match ("FP32" -> "TYPE_FP32") when no close spelling exists.
  return best ?? list.find((c) => c.length > name.length && name.length >= 3 && (c.endsWith(`_${name}`) || c.startsWith(`${name}_`)));
}

/** Levenshtein distance, stopping early once every path exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= limit) return limit;
    prev = cur;
  }
  return prev[b.length]!;
}

// A small unified-style line diff for showing how a file on disk differs from what tritonc would
// write. Configs are small, so a plain LCS table is fine; very long inputs fall back to a summary.
const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string, context = 2): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > MAX_CELLS) return [`(${a.length} lines on disk, ${b.length} generated)`];
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: { op: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    // What goes before what comes, as diff prints it: a changed line shows as - then +.
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: ' ', text: a[i++]! });
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ op: '-', text: a[i++]! });
    else ops.push({ op: '+', text: b[j++]! });
  }
  const keep = ops.map((o, k) => o.op !== ' ' || ops.slice(Math.max(0, k - context), k + context + 1).some((x) => x.op !== ' '));
  const out: string[] = [];
  ops.forEach((o, k) => {
    if (keep[k]) out.push(`${o.op} ${o.text}`);
    else if (k === 0 || keep[k - 1]) out.push('  ...');
  });
  return out;
}

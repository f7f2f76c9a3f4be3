// The fastest of `n` passes of `fn` after a warm-up (a second, in which the JIT settles and the heap
// grows to its steady-state size; one pass where `n` is 2 or less, for the large inputs): the pass
// least disturbed by other work on the machine. Shared by the in-process benches.
export function fastest(fn, n) {
  const warmUntil = performance.now() + 1000;
  do fn();
  while (performance.now() < warmUntil && n > 2);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

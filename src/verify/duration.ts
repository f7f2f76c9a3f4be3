// `--timeout 120s`: a duration for a wait measured in seconds or minutes (unlike generate's
// --max-queue-delay, a bare number here means seconds).

/** Milliseconds for `120`, `120s`, `2m`, `1.5m`, `500ms`; undefined for anything else or zero. */
export function parseTimeout(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min)?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const scale = m[2] === 'ms' ? 1 : m[2] === 'm' || m[2] === 'min' ? 60_000 : 1000;
  const ms = Math.round(n * scale);
  return ms > 0 ? ms : undefined;
}

export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

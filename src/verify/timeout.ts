// `--timeout 120s`: a wait, measured in seconds or minutes: a bare number is seconds (util/duration.ts).
import { parseDuration } from '../util/duration.js';

/** Milliseconds for `120`, `120s`, `2m`, `1.5m`, `500ms`; undefined for anything else or zero. */
export function parseTimeout(text: string): number | undefined {
  const us = parseDuration(text, 'seconds');
  const ms = us === undefined ? 0 : Math.round(us / 1000);
  return ms > 0 ? ms : undefined;
}

export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

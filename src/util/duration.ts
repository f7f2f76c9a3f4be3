// Durations as people write them in flags and settings ("500us", "5ms", "0.5s", "2m"), in microseconds,
// Triton's unit. One parser, one set of units; what a bare number means is the caller's to say, as each
// flag's --help does: Triton's microseconds (max_queue_delay_microseconds, settings), a wait's seconds
// (--timeout), or nothing (refused where 5 could as well mean 5us as 5ms).

/** What a number without a unit means. */
export type BareNumber = 'microseconds' | 'seconds' | 'refused';

const UNIT_US: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000, m: 60_000_000, min: 60_000_000 };
const BARE_US: Record<BareNumber, number | undefined> = { microseconds: 1, seconds: 1_000_000, refused: undefined };

/** Microseconds for a duration (not rounded), or undefined when it is not one. */
export function parseDuration(text: string, bare: BareNumber): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(us|\u00b5s|ms|s|min|m)?\s*$/i.exec(text);
  if (!m) return undefined;
  const scale = m[2] === undefined ? BARE_US[bare] : UNIT_US[m[2].toLowerCase()];
  return scale === undefined ? undefined : Number(m[1]) * scale;
}

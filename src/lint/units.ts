// Sizes ("24GiB", "512 MB") and durations ("5ms", "500us") as people write them in settings and flags.
import { parseDuration } from '../util/duration.js';

// Binary units (KiB, MiB, GiB, TiB) are powers of 1024 and decimal ones (KB, MB, GB, TB) powers of
// 1000, as on a GPU's data sheet versus nvidia-smi; a bare number is bytes (sizes) or microseconds
// (durations, Triton's own unit).

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  k: 1024,
  m: 1024 ** 2,
  g: 1024 ** 3,
  t: 1024 ** 4,
};

/** Bytes for a size, or undefined when it is not one. */
export function parseSize(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = SIZE_UNITS[(m[2] || 'b').toLowerCase()];
  return unit === undefined ? undefined : Math.round(Number(m[1]) * unit);
}

/** Microseconds for a duration in settings: a number, or text whose bare number is microseconds (util/duration.ts). */
export function parseMicroseconds(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  return parseDuration(value, 'microseconds');
}

/** 25769803776 -> "24 GiB", 1536 -> "1.5 KiB": binary units, up to 3 significant digits. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const text = i === 0 ? String(Math.round(v)) : Number(v.toPrecision(3)).toString();
  return `${text} ${units[i]}`;
}

/** 50000 -> "50 ms", 2500 -> "2.5 ms", 800 -> "800 us". */
export function formatMicroseconds(us: number): string {
  if (us >= 1_000_000) return `${Number((us / 1_000_000).toPrecision(4))} s`;
  if (us >= 1000) return `${Number((us / 1000).toPrecision(4))} ms`;
  return `${us} us`;
}

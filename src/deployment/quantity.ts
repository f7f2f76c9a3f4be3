// Kubernetes resource quantities (apimachinery pkg/api/resource/quantity.go): a number with a binary
// suffix (Ki Mi Gi Ti Pi Ei), a decimal one (k M G T P E, m for milli) or an exponent (1e9).
const BINARY: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Readonly<Record<string, number>> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** The quantity as a number (bytes, for memory); undefined when it is not one. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const m = /^\+?(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([eE][+-]?\d+)|(m|k|M|G|T|P|E)?)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (m[2]) return n * BINARY[m[2]]!;
  if (m[3]) return Number(`${m[1]}${m[3]}`);
  return n * DECIMAL[m[4] ?? '']!;
}

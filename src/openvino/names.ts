// What the OpenVINO backend makes of an IR's names, layouts and partial shapes: pure functions, shared
// by the reader and by tritonc's copy of the backend's checks (src/triton, src/lint).
import type { Dim } from '../model-file/signature.js';

/** A port's `names`: split at commas that are not escaped ('\,' is a comma inside a name). */
export function splitNames(names: string | undefined): string[] {
  if (names === undefined) return [];
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < names.length; i++) {
    const c = names[i]!;
    if (c === '\\' && names[i + 1] === ',') {
      cur += ',';
      i++;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((n) => n.trim()).filter((n) => n !== '');
}

/** ov::descriptor::Tensor::get_any_name: the smallest name in byte order (std::set<std::string>). */
export function anyName(names: readonly string[]): string {
  let best = names[0]!;
  for (const n of names) if (Buffer.compare(Buffer.from(n), Buffer.from(best)) < 0) best = n;
  return best;
}

/** ov::layout::has_batch: the layout names a dimension N ("[N,H]", "NCHW", "N..."). */
export function hasBatch(layout: string | undefined): boolean {
  if (layout === undefined) return false;
  const l = layout.trim();
  if (l.startsWith('[') && l.endsWith(']'))
    return l
      .slice(1, -1)
      .split(',')
      .some((d) => d.trim().toUpperCase() === 'N');
  return /n/i.test(l.replace(/\.\.\./g, ''));
}

/** The bounds of a dimension as the backend's doesMatch reads them (openvino_utils.cc); null when unbounded above. */
export function dimBounds(d: Dim): { min: number; max: number | null } | 'static' {
  if (typeof d === 'number' && d >= 0) return 'static';
  if (typeof d === 'string') {
    const m = /^(\d*)\.\.(\d*)$/.exec(d);
    if (m) return { min: m[1] ? Number(m[1]) : 0, max: m[2] ? Number(m[2]) : null };
  }
  return { min: 0, max: null };
}

/** openvino_backend src/openvino_utils.cc doesMatch(ov_dim, config_dim): a static dim only itself, an unbounded one anything, a range only sizes strictly inside it. */
export function doesMatch(d: Dim, value: number): boolean {
  const bounds = dimBounds(d);
  if (bounds === 'static') return d === value;
  if (bounds.max === null) return true;
  return value < bounds.max && value > bounds.min;
}

/**
 * CompareDimsSupported (openvino_utils.cc) of config `dims` against the model's `shape`: the index of the
 * first dim that fails (in the complete shape: [max_batch_size] + dims when batching), -1 for a rank
 * that differs, undefined when it passes. `output`: compare_exact, after ov::set_batch made the first
 * dim max_batch_size (so that one always matches); an input's -1 is not compared when batching.
 */
export function compareDims(shape: readonly Dim[], dims: readonly number[], maxBatchSize: number, output: boolean): number | undefined {
  const full = maxBatchSize > 0 ? [maxBatchSize, ...dims] : [...dims];
  if (full.length !== shape.length) return -1;
  for (let i = maxBatchSize > 0 ? 1 : 0; i < full.length; i++) {
    if (maxBatchSize > 0 && !output && full[i] === -1) continue;
    if (!doesMatch(shape[i]!, full[i]!)) return i;
  }
  return undefined;
}

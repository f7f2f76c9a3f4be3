// The seed tutorial's last steps, as arithmetic over measured rows: for each variant, the load with the
// highest throughput whose latency at the chosen percentile stays within the budget (that throughput is
// what the variant is worth: a higher load can serve less, on a machine that thrashes), and the knee,
// where latency starts to grow much faster than throughput. Variants are ranked by throughput within
// the budget, never by throughput beyond it. A load perf_analyzer found no stable measurement for is
// never chosen, and is named in the result.
import type { PerfRow, PerfTable } from './perf-csv.js';
import { minOf } from '../util/arrays.js';

export interface VariantSettings {
  /** dynamic_batching.max_queue_delay_microseconds, when the variant batches dynamically. */
  delayUs?: number;
  preferred?: number[];
  /** Instances per group (the first group's count; undefined: Triton's default). */
  instances?: number;
}

export interface VariantResult {
  variant: string;
  settings: VariantSettings;
  /** The load with the highest throughput within the budget, and the numbers there; undefined when none is. */
  chosen?: { load: number; throughput: number; latencyUs: number; row: PerfRow };
  /** The load after which latency grows more than twice as fast as throughput. */
  knee?: number;
  /** The lowest latency measured (for "which came closest"); Infinity when nothing was. */
  bestLatencyUs: number;
  rows: PerfRow[];
  /** The loads perf_analyzer found no stable measurement for: never chosen. */
  unstable: number[];
}

export interface PickResult {
  percentile: string;
  budgetUs: number;
  load: PerfTable['load'];
  best?: VariantResult;
  /** Best first: within the budget by throughput there, then the rest by their lowest latency. */
  variants: VariantResult[];
  /** Why the best one wins, in the tutorial's terms. */
  explanation: string[];
}

/** The first load where latency grows (relative) more than twice as fast as throughput, and by 20% or more. */
export function kneeOf(rows: readonly PerfRow[], percentile: string): number | undefined {
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [rows[i - 1]!, rows[i]!];
    const la = a.latencyUs[percentile]!;
    const lb = b.latencyUs[percentile]!;
    const dl = la > 0 ? (lb - la) / la : 0;
    const dt = a.throughput > 0 ? (b.throughput - a.throughput) / a.throughput : 0;
    if (dl >= 0.2 && dl > 2 * Math.max(dt, 0)) return a.load;
  }
  return undefined;
}

export function pick(tables: ReadonlyMap<string, { table: PerfTable; settings: VariantSettings }>, percentile: string, budgetUs: number): PickResult {
  const results: VariantResult[] = [];
  let load: PerfTable['load'] = 'concurrency';
  for (const [variant, { table, settings }] of tables) {
    load = table.load;
    const unstable = [...new Set(table.unstable ?? [])].sort((a, b) => a - b);
    const rows = table.rows.filter((r) => r.latencyUs[percentile] !== undefined && !unstable.includes(r.load));
    const within = rows.filter((r) => r.latencyUs[percentile]! <= budgetUs);
    // The best throughput within the budget; of equal ones, the lowest load.
    let top: PerfRow | undefined;
    for (const r of within) if (!top || r.throughput > top.throughput) top = r;
    const knee = kneeOf(rows, percentile);
    results.push({
      variant,
      settings,
      ...(top ? { chosen: { load: top.load, throughput: top.throughput, latencyUs: top.latencyUs[percentile]!, row: top } } : {}),
      ...(knee !== undefined ? { knee } : {}),
      bestLatencyUs: rows.length ? minOf(rows.map((r) => r.latencyUs[percentile]!)) : Infinity,
      rows,
      unstable,
    });
  }
  results.sort((a, b) =>
    a.chosen && b.chosen
      ? b.chosen.throughput - a.chosen.throughput
      : a.chosen
        ? -1
        : b.chosen
          ? 1
          : a.bestLatencyUs === b.bestLatencyUs
            ? 0
            : a.bestLatencyUs < b.bestLatencyUs
              ? -1
              : 1,
  );
  const best = results[0]?.chosen ? results[0] : undefined;
  return { percentile, budgetUs, load, ...(best ? { best } : {}), variants: results, explanation: best ? explain(best, results, percentile, load) : [] };
}

const ms = (us: number): string => `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;

function settingsText(s: VariantSettings): string {
  const parts = [
    s.instances !== undefined ? `${s.instances} instance${s.instances === 1 ? '' : 's'}` : 'the default instances',
    s.delayUs !== undefined ? `max_queue_delay_microseconds ${s.delayUs}` : 'no dynamic batching delay',
    ...(s.preferred?.length ? [`preferred_batch_size [${s.preferred.join(', ')}]`] : []),
  ];
  return parts.join(', ');
}

function explain(best: VariantResult, all: readonly VariantResult[], percentile: string, load: PerfTable['load']): string[] {
  const c = best.chosen!;
  const lines = [
    `${best.variant} (${settingsText(best.settings)}) serves ${c.throughput.toFixed(1)} infer/sec at ${load} ${c.load}, with ${percentile} latency ${ms(c.latencyUs)}.`,
  ];
  const second = all[1];
  if (second?.chosen)
    lines.push(`The next best, ${second.variant}, serves ${second.chosen.throughput.toFixed(1)} infer/sec within the budget (${load} ${second.chosen.load}).`);
  if (best.knee !== undefined) lines.push(`Its latency knees after ${load} ${best.knee}: beyond it, latency grows much faster than throughput.`);
  const unstable = all.filter((v) => v.unstable.length);
  if (unstable.length) {
    lines.push(
      `Not counted: perf_analyzer found no stable measurement for ${unstable.map((v) => `${v.variant} at ${load} ${v.unstable.join(', ')}`).join('; ')}. Measure again with a longer --measurement-interval (or a larger --stability-percentage) before trusting the ranking there.`,
    );
  }
  const s = c.row.server;
  if (!s) {
    lines.push(
      "The CSV has no server-side columns (perf_analyzer reads them from Triton's statistics extension), so the split between queue and compute time is unknown.",
    );
    return lines;
  }
  const compute = s.computeInputUs + s.computeInferUs + s.computeOutputUs;
  if (s.queueUs > compute) {
    lines.push(
      `At that point requests wait ${ms(s.queueUs)} in the queue for ${ms(compute)} of compute: the instances cannot keep up. Raise the instance count (if the GPU has memory and compute to spare), or shorten max_queue_delay_microseconds${best.settings.delayUs ? ` (now ${best.settings.delayUs})` : ''}.`,
    );
  } else {
    lines.push(
      `At that point compute (${ms(compute)}) outweighs queueing (${ms(s.queueUs)}): more instances help only while the device running them (GPU, or CPU cores) has headroom; larger batches (preferred_batch_size, a longer delay) or a faster engine (TensorRT, FP16) shorten it.`,
    );
  }
  return lines;
}

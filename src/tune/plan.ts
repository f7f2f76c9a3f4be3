// `tune plan`: one variant of a model per combination of queue delay, instance count and preferred
// batch sizes, each a model directory Triton can load (its config.pbtxt edited with comments kept, the
// rest of the model directory linked), with the perf_analyzer command that measures it, and a script
// that loads each variant on a server started with --model-control-mode explicit and runs them in turn.
import type { PathSegment } from '../diagnostics.js';
import type { ModelConfig } from '../config/model-config.js';
import type { FieldChange } from '../config/set-fields.js';
import { shellComment, shellLine, shellQuote } from '../util/shell.js';
import type { VariantSettings } from './pick.js';

export interface MeasureOptions {
  /** The server perf_analyzer talks to (-u), and the protocol (-i). */
  url: string;
  protocol: 'grpc' | 'http';
  /** perf_analyzer --concurrency-range start:end:step. */
  concurrencyRange: string;
  /** --measurement-interval, in milliseconds. */
  measurementIntervalMs: number;
  /** --percentile: the latency perf_analyzer stabilizes on, and tune pick reads. */
  percentile: number;
  /** perf_analyzer --stability-percentage (its default, 10, when absent). */
  stabilityPercentage?: number;
  /** perf_analyzer --shared-memory (absent: none, the tensors in the request). */
  sharedMemory?: 'system' | 'cuda';
}

export interface PlanAxes {
  delaysUs: number[];
  instances: number[];
  /** Preferred batch size lists to try ([]: no preferred_batch_size; undefined: the config's own); absent: defaultPreferred's. */
  preferred?: (number[] | undefined)[];
}

/**
 * The preferred_batch_size lists tried when none are given, as the tutorial tunes them: the config's
 * own (kept as written), none (the batcher forms the largest batch it can), and the upper half of the
 * powers of two up to max_batch_size (for 32: 8, 16 and 32, the tutorial's list), each once.
 */
export function defaultPreferred(config: ModelConfig, maxBatchSize: number): (number[] | undefined)[] {
  const own = (config.dynamic_batching?.preferred_batch_size ?? []).map(Number);
  const powers: number[] = [];
  for (let p = 1; p <= maxBatchSize; p *= 2) powers.push(p);
  if (powers[powers.length - 1] !== maxBatchSize) powers.push(maxBatchSize);
  const upper = powers.slice(Math.floor(powers.length / 2)).filter((p) => p > 1);
  const lists: (number[] | undefined)[] = [undefined];
  const same = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  if (own.length) lists.push([]);
  if (upper.length && !same(upper, own)) lists.push(upper);
  return lists;
}

export interface Variant {
  name: string;
  settings: VariantSettings;
  changes: FieldChange[];
}

export interface PlannedVariants {
  variants: Variant[];
  notes: string[];
}

/** The variants of `config` (as written) for a model Triton runs as `effective`. */
export function planVariants(model: string, config: ModelConfig, effective: ModelConfig, axes: PlanAxes): PlannedVariants {
  const notes: string[] = [];
  const batching = (effective.max_batch_size ?? 0) > 0;
  let delays: (number | undefined)[] = axes.delaysUs;
  let preferred: (number[] | undefined)[] = axes.preferred ?? defaultPreferred(config, effective.max_batch_size ?? 0);
  if (!batching) {
    if (axes.delaysUs.length > 1 || axes.preferred?.length)
      notes.push(`${model} does not batch (max_batch_size 0): the queue delay and preferred batch sizes do nothing, so only the instance count varies`);
    delays = [undefined];
    preferred = [undefined];
  } else if (effective.sequence_batching) {
    notes.push(`${model} uses the sequence batcher: the dynamic batcher's settings do not apply, so only the instance count varies`);
    delays = [undefined];
    preferred = [undefined];
  }
  const groups = config.instance_group?.length ?? 0;
  const variants: Variant[] = [];
  for (const d of delays) {
    for (const n of axes.instances) {
      for (const p of preferred) {
        const name = [model, ...(d !== undefined ? [`d${d}`] : []), `i${n}`, ...(p !== undefined ? [p.length ? `p${p.join('-')}` : 'pnone'] : [])].join('_');
        const changes: FieldChange[] = [{ path: ['name'], text: JSON.stringify(name), value: name }];
        if (d !== undefined) changes.push({ path: ['dynamic_batching', 'max_queue_delay_microseconds'], text: String(d), value: d });
        if (p !== undefined) {
          const path: PathSegment[] = ['dynamic_batching', 'preferred_batch_size'];
          changes.push(p.length ? { path, text: `[ ${p.join(', ')} ]`, value: p } : { path, text: undefined, value: undefined });
        }
        // Every group gets the count (a model without instance_group gets one group, of the default kind).
        for (let g = 0; g < Math.max(groups, 1); g++) changes.push({ path: ['instance_group', g, 'count'], text: String(n), value: n });
        variants.push({ name, changes, settings: { ...(d !== undefined ? { delayUs: d } : {}), ...(p !== undefined ? { preferred: p } : {}), instances: n } });
      }
    }
  }
  return { variants, notes };
}

/** The perf_analyzer command that measures a variant, run from the variant's directory. */
export function perfAnalyzerCommand(variant: string, decoupled: boolean, m: MeasureOptions): string[] {
  return [
    'perf_analyzer',
    '-m',
    variant,
    '-u',
    m.url,
    '-i',
    m.protocol,
    `--concurrency-range=${m.concurrencyRange}`,
    `--measurement-interval=${m.measurementIntervalMs}`,
    // A bare file name: perf_analyzer names an ensemble's per-model files "<model>_v<version>.<-f>"
    // (src/report_writer.cc, ReportWriter::GenerateReport), which a directory in -f would break.
    '-f',
    'perf.csv',
    `--percentile=${m.percentile}`,
    ...(m.stabilityPercentage !== undefined ? [`--stability-percentage=${m.stabilityPercentage}`] : []),
    ...(m.sharedMemory !== undefined ? [`--shared-memory=${m.sharedMemory}`] : []),
    // A decoupled model answers over gRPC streaming only.
    ...(decoupled ? ['--streaming'] : []),
  ];
}

/** perf_analyzer.sh: the variant's command, run from its directory. */
export function measureScript(variant: string, command: readonly string[]): string {
  return `#!/usr/bin/env bash
${shellComment(`Measures ${variant}; run from this directory (run.sh does), it writes perf.csv here.`)}
set -euo pipefail
cd "$(dirname "$0")"
${shellLine(command)}
`;
}

/**
 * run.sh: load each variant, measure it, unload it (Triton's model repository API, explicit model
 * control). `httpUrl` is host:port (checked by the caller); like every value it is one quoted word.
 */
export function runScript(variants: readonly string[], httpUrl: string): string {
  return `#!/usr/bin/env bash
# Measures every variant of this plan in turn. Start Triton on this directory first:
#   tritonserver --model-repository "$(pwd)" --model-control-mode explicit
# Each variant is loaded (POST /v2/repository/models/<variant>/load), measured with the perf_analyzer
# command in its directory (writing <variant>/perf.csv, and its output to <variant>/perf_analyzer.log),
# and unloaded, so only one holds the GPU at a time.
# A variant perf_analyzer fails on (no stable measurement on a busy machine, say) is unloaded all the
# same and has no perf.csv; the others are still measured, and the failed ones are named at the end.
# Then: tritonc tune pick "$(pwd)" --latency-budget <your p99 budget>
set -euo pipefail
cd "$(dirname "$0")"
default_http=${shellQuote(httpUrl)}
TRITON_HTTP="\${TRITON_HTTP:-$default_http}"
failed=()
# $1: the variant's directory and model name; $2: the name as it stands in a URL.
measure() {
  printf '== %q\\n' "$1"
  rm -f -- "$1/perf.csv" "$1/perf_analyzer.log"
  curl -sSf -X POST "http://$TRITON_HTTP/v2/repository/models/$2/load" > /dev/null
  # Its output is kept: tune pick reads the levels it calls unstable there.
  if ! (cd -- "$1" && bash perf_analyzer.sh 2>&1 | tee perf_analyzer.log); then
    failed+=("$1")
    rm -f -- "$1/perf.csv"
  fi
  curl -sSf -X POST "http://$TRITON_HTTP/v2/repository/models/$2/unload" > /dev/null
}
${variants.map((v) => shellLine(['measure', v, encodeURIComponent(v)])).join('\n')}
if [ \${#failed[@]} -gt 0 ]; then
  printf 'perf_analyzer failed on:' >&2
  printf ' %q' "\${failed[@]}" >&2
  printf ' (its output is above); the other variants were measured\\n' >&2
  exit 1
fi
`;
}

// `tritonc tune run MODEL_DIR --latency-budget 20ms`: the load test on a server tritonc starts (or a
// running one, put back as it was), then the pick. `tritonc tune plan MODEL_DIR --out DIR` and
// `tritonc tune pick DIR --latency-budget 20ms`: the same in steps. plan writes one loadable variant
// per combination of queue delay, instances and preferred batch sizes, each with its perf_analyzer
// command, and a script that runs them; pick reads what perf_analyzer (or Model Analyzer) measured,
// finds for every variant the best throughput within the latency budget, ranks them by it, explains
// the winner, and with --write applies its settings to the model's config (comments kept, atomic,
// meaning-checked).
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseConfig, hasErrors } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { errorsOnly } from '../lint/results.js';
import { parseDuration } from '../util/duration.js';
import { formatStylish } from '../report/stylish.js';
import { CsvError } from '../tune/csv.js';
import { parseModelAnalyzerCsv } from '../tune/model-analyzer-csv.js';
import { parsePerfCsv, type PerfTable } from '../tune/perf-csv.js';
import { pick, type PickResult, type VariantSettings } from '../tune/pick.js';
import type { MeasureOptions } from '../tune/plan.js';
import { planModel, TunePlanError, writeTunePlan, type KubernetesJobsRequest, type PlannedModel, type PlanOutcome } from '../tune/write-plan.js';
import { JOBS_FILE } from '../tune/kubernetes-jobs.js';
import { isRemoteUrl, parseRemoteUrl, RemoteUrlError, type RemoteLocation } from '../remote/url.js';
import { applyServerFlags } from '../triton/server-options.js';
import { resolveOptionsOf } from '../lint/settings.js';
import { quoted } from '../util/terminal-text.js';
import { TuneWriteError, writeWinner, type WinnerWrite } from '../tune/write-winner.js';
import { plotSvg } from '../tune/svg.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { lineDiff } from '../util/line-diff.js';
import { checkHostPort } from '../util/shell.js';
import { describeFsError, readText } from '../util/read-text.js';
import { escapeControl, escapeControlKeepingLines } from '../util/terminal-text.js';
import { setFields } from '../config/set-fields.js';
import { runLoadTest, type LoadTestResult, type LoadTestVariant, type Runtime } from '../tune/load-test.js';
import { findPerfAnalyzer } from '../tune/perf-analyzer.js';
import { unstableLoads } from '../tune/perf-log.js';
import { CannotRun, Interrupted, signalExitCode } from '../verify/errors.js';
import { normalizeServerUrl } from '../verify/kserve-client.js';
import { prepareVerify, type VerifyPlan } from '../verify/plan.js';
import type { Argv } from 'yargs';
import { z } from 'zod';
import { defineCommand, repeatable, type FlagsOf } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { append, maxOf } from '../util/arrays.js';
import { serverArgsFor, sharedMemoryRefusal, type SharedMemory } from '../tune/client-shm.js';
import { serverFlagsFromArgs, withTritonVersion } from './server-flags.js';
import { settingsNear } from './resolve.js';
import type { ServerOptions } from '../triton/server-options.js';
import type { TritonTarget } from '../triton/releases/target.js';

/** A comma list flag's items (`--delays 0,100us,1ms`), blanks dropped. */
const list = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const tuneFlags = (y: Argv) =>
  withTritonVersion(y)
    .positional('action', {
      choices: ['plan', 'pick', 'run'] as const,
      demandOption: true,
      describe: 'plan: write the variants; pick: read their results; run: load and measure each variant on a server, and pick',
    })
    .positional('dir', {
      type: 'string',
      demandOption: true,
      describe: 'plan and run: the model directory; pick: the plan directory (or a Model Analyzer export directory)',
    })
    .option('runtime', {
      choices: ['local', 'server'] as const,
      default: 'local' as const,
      describe: 'run: start tritonserver here (local) or use a running one (server, at --server)',
    })
    .option('server', {
      type: 'string',
      describe: "run --runtime server: the server's HTTP endpoint (http://host:port), started with --model-control-mode explicit",
    })
    .option('tritonserver', { type: 'string', describe: "run --runtime local: the tritonserver binary (default: on PATH, then NVIDIA's container's)" })
    .option('perf-analyzer', { type: 'string', describe: 'run: the perf_analyzer binary (default: on PATH)' })
    .option('timeout', {
      type: 'string',
      default: '120s',
      describe: "run: how long the server's start and each variant's load may take, e.g. 120s or 10m; a bare number is seconds, as verify --timeout",
    })
    .option('max-trials', {
      type: 'string',
      describe: 'run: perf_analyzer --max-trials, the measurement windows it tries per concurrency before calling it unstable (its default: 10)',
    })
    .option('out', { type: 'string', describe: 'plan: the directory to write the variants to (must not exist, or be empty)' })
    .option('delays', {
      type: 'string',
      default: '0,100us,500us,1ms,5ms',
      describe: "plan and run: max_queue_delay_microseconds values to try (durations; a bare number is microseconds, Triton's unit)",
    })
    .option('instances', { type: 'string', default: '1,2', describe: 'plan and run: instance counts to try' })
    .option('preferred', {
      ...repeatable(
        "plan and run: preferred_batch_size lists to try, e.g. --preferred 4,8 --preferred none --preferred keep (the config's own); default: the config's own, none, and the upper half of the powers of two up to max_batch_size",
      ),
    })
    .option('url', { type: 'string', default: 'localhost:8001', describe: 'plan: the server perf_analyzer measures (-u)' })
    .option('protocol', { choices: ['grpc', 'http'] as const, default: 'grpc' as const, describe: 'plan: the protocol perf_analyzer measures with (its -i)' })
    .option('http-url', {
      type: 'string',
      default: 'localhost:8000',
      describe: "plan: the server's HTTP endpoint, where run.sh loads and unloads the variants",
    })
    .option('kubernetes-jobs', {
      type: 'boolean',
      describe: `plan: also write ${JOBS_FILE}, one Kubernetes Job per variant (tritonserver, perf_analyzer, an upload of the results); needs --repository-uri and --results-uri`,
    })
    .option('repository-uri', {
      type: 'string',
      describe: "plan --kubernetes-jobs: where you copy the plan directory (s3://, gs://, as://), which each Job's server reads as its repository",
    })
    .option('results-uri', {
      type: 'string',
      describe: 'plan --kubernetes-jobs: where each Job uploads its perf.csv and perf_analyzer.log, under <uri>/<variant>/ (s3://, gs://, as://)',
    })
    .option('concurrency-range', { type: 'string', default: '1:16:2', describe: 'plan and run: perf_analyzer --concurrency-range start:end:step' })
    .option('measurement-interval', { type: 'string', default: '5000', describe: 'plan and run: perf_analyzer --measurement-interval, in ms' })
    .option('stability-percentage', {
      type: 'string',
      describe: 'plan and run: perf_analyzer --stability-percentage, how far 3 measurements in a row may differ and count as stable (its default: 10)',
    })
    .option('shared-memory', {
      choices: ['none', 'system', 'cuda'] as const,
      default: 'none' as const,
      describe:
        'plan and run: perf_analyzer --shared-memory, how it passes tensors (none: in the request). From Triton 26.04 on the server refuses client shared memory unless started with --allow-client-shm=true',
    })
    .option('allow-client-shm', {
      type: 'boolean',
      describe:
        'plan and run --runtime server: the server was started with --allow-client-shm=true, so --shared-memory works on Triton 26.04 and later (run --runtime local starts it so itself)',
    })
    .option('latency-budget', {
      type: 'string',
      describe: "pick and run: the latency the chosen point must stay within (e.g. 20ms; a bare number is microseconds, Triton's unit)",
    })
    .option('percentile', {
      type: 'string',
      default: 'p99',
      describe: 'pick and run: the latency to hold to the budget (p50, p90, p95, p99, avg); plan and run: the --percentile perf_analyzer stabilizes on',
    })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'pick and run: the report as text for a person, or JSON' })
    .option('write', {
      type: 'string',
      describe:
        "pick: apply the winner's batching and instance settings to this model directory's config.pbtxt; run: --write (no value; put it after the model directory) applies them to the model measured",
    })
    .option('plot', { type: 'string', describe: 'pick: draw latency against throughput for every variant to this .svg file' })
    .option('model-analyzer-repository', {
      type: 'string',
      describe: "pick: Model Analyzer's output model repository (default: <dir>/output_model_repository)",
    });

/** tune's flags, parsed. */
type TuneArgs = FlagsOf<typeof tuneFlags>;

export const tuneCommand = defineCommand({
  command: 'tune <action> <dir>',
  describe:
    'Load-test variants of a model with perf_analyzer and pick the best throughput within a latency budget (tune run MODEL_DIR --latency-budget 20ms), or in steps: tune plan MODEL_DIR --out DIR, then tune pick DIR --latency-budget 20ms',
  builder: tuneFlags,
  run: (a, io) => (a.action === 'plan' ? runPlan(a, io) : a.action === 'run' ? runLoadTestCommand(a, io) : runPick(a, io)),
});

// ---- plan -----------------------------------------------------------------------------------------

/** The plan's axes and perf_analyzer's settings from the flags, every value checked. */
function planFlags(a: TuneArgs): {
  delaysUs: number[];
  instances: number[];
  preferred?: (number[] | undefined)[];
  percentile: number;
  interval: number;
  stability?: number;
} {
  const delaysUs = list(a.delays).map((d) => {
    const us = parseDuration(d, 'microseconds');
    if (us === undefined || !Number.isInteger(us)) throw new UsageError(`--delays: "${d}" is not a duration in whole microseconds (0, 100us, 1ms)`);
    return us;
  });
  const instances = list(a.instances).map((n) => {
    if (!/^[1-9]\d*$/.test(n)) throw new UsageError(`--instances: "${n}" is not a count of 1 or more`);
    return Number(n);
  });
  const preferred =
    a.preferred === undefined
      ? undefined
      : a.preferred.map((p) => {
          if (p.trim() === 'none') return [];
          if (p.trim() === 'keep') return undefined;
          const sizes = p.split(',').map((s) => s.trim());
          if (!sizes.every((s) => /^[1-9]\d*$/.test(s))) throw new UsageError(`--preferred: "${p}" is not a comma list of batch sizes, none, or keep`);
          return sizes.map(Number);
        });
  const percentile = /^p?(\d+)$/.exec(a.percentile);
  if (!percentile || Number(percentile[1]) < 1 || Number(percentile[1]) > 99)
    throw new UsageError(`--percentile: "${a.percentile}" is not a percentile perf_analyzer takes (1 to 99, e.g. p99)`);
  if (!/^\d+(:\d+(:\d+)?)?$/.test(a['concurrency-range'])) throw new UsageError(`--concurrency-range: "${a['concurrency-range']}" is not start[:end[:step]]`);
  const interval = /^[1-9]\d*$/.test(a['measurement-interval']) ? parseInt(a['measurement-interval'], 10) : undefined;
  if (interval === undefined)
    throw new UsageError(`--measurement-interval: ${JSON.stringify(a['measurement-interval'])} is not a whole number of milliseconds`);
  const stability = a['stability-percentage'];
  if (stability !== undefined && !/^[1-9]\d*$/.test(stability))
    throw new UsageError(`--stability-percentage: ${JSON.stringify(stability)} is not a whole percentage of 1 or more`);
  return {
    delaysUs,
    instances,
    ...(preferred ? { preferred } : {}),
    percentile: Number(percentile[1]),
    interval,
    ...(stability !== undefined ? { stability: Number(stability) } : {}),
  };
}

/** The Triton the variants are for (--triton-version over the settings near the model) and the server options they are linted with. */
function tuneTarget(a: TuneArgs, modelDir: string, io: CliIO): { server: Partial<ServerOptions>; target: TritonTarget } {
  const server = serverFlagsFromArgs(a, io.cwd);
  return { server, target: server.target ?? settingsNear(modelDir).server.target };
}

async function runPlan(a: TuneArgs, io: CliIO): Promise<number> {
  const modelDir = resolve(io.cwd, a.dir);
  if (a.out === undefined) throw new UsageError('give --out DIR, where the variants are written');
  const out = resolve(io.cwd, a.out);
  const shown = (p: string) => displayPath(p, io.cwd);
  const { delaysUs, instances, preferred, percentile, interval, stability } = planFlags(a);
  // Both addresses reach the generated scripts: each is host:port, and nothing else.
  for (const flag of ['url', 'http-url'] as const) {
    const checked = checkHostPort(a[flag]);
    if (!checked.ok) throw new UsageError(`--${flag}: ${JSON.stringify(a[flag])} ${checked.why}`);
  }
  const measure: MeasureOptions = {
    url: a.url,
    protocol: a.protocol,
    concurrencyRange: a['concurrency-range'],
    measurementIntervalMs: interval,
    percentile,
    ...(stability !== undefined ? { stabilityPercentage: stability } : {}),
    ...(a['shared-memory'] !== 'none' ? { sharedMemory: a['shared-memory'] } : {}),
  };
  // The plan's scripts run against a server tritonc does not start: it must allow shared memory.
  const { server, target } = tuneTarget(a, modelDir, io);
  const refusal = sharedMemoryRefusal(target, a['shared-memory'], a['allow-client-shm'] === true);
  if (refusal) throw new UsageError(refusal);
  const kubernetes = kubernetesJobsFlags(a, modelDir, out, server, io);

  let planned: PlanOutcome;
  try {
    planned = writeTunePlan({
      modelDir,
      out,
      delaysUs,
      instances,
      ...(preferred ? { preferred } : {}),
      measure,
      httpUrl: a['http-url'],
      cwd: io.cwd,
      shown,
      server,
      ...(kubernetes ? { kubernetes } : {}),
    });
  } catch (e) {
    if (e instanceof TunePlanError) throw new UsageError(e.message);
    throw e;
  }
  if (planned.kind !== 'written') {
    io.stderr(formatStylish(errorsOnly(planned.lint), { cwd: io.cwd }));
    io.stderr(
      planned.kind === 'model-refused'
        ? `tritonc tune: Triton would not load ${shown(modelDir)} (above); fix it first. Nothing written\n`
        : `tritonc tune: the variants would not load (above); nothing written\n`,
    );
    return EXIT.problems;
  }
  const model = planned.model;
  for (const n of planned.notes) io.stderr(`tritonc tune: ${n}\n`);
  io.stdout(`wrote ${planned.variants.length} variant${planned.variants.length === 1 ? '' : 's'} of ${model} to ${shown(out)}:\n`);
  for (const v of planned.variants) io.stdout(`  ${v.name}\n`);
  io.stdout(
    `\nStart Triton on it:  tritonserver --model-repository ${shown(out)} --model-control-mode explicit${serverArgsFor(target, a['shared-memory'])
      .map((f) => ` ${f}`)
      .join('')}\nMeasure every variant:  bash ${shown(join(out, 'run.sh'))}\nThen:  tritonc tune pick ${shown(out)} --latency-budget <budget>\n`,
  );
  if (kubernetes)
    io.stdout(
      `\nOr on a cluster, one Job per variant: ${shown(join(out, JOBS_FILE))} (its first lines say how to copy the plan, run the Jobs and fetch the results)\n`,
    );
  return EXIT.ok;
}

/** --kubernetes-jobs with its two URLs, checked: stores Triton reads and whose CLI tritonc writes uploads with. */
function kubernetesJobsFlags(a: TuneArgs, modelDir: string, out: string, server: Partial<ServerOptions>, io: CliIO): KubernetesJobsRequest | undefined {
  const urls = { 'repository-uri': a['repository-uri'], 'results-uri': a['results-uri'] } as const;
  if (!a['kubernetes-jobs']) {
    const given = Object.entries(urls).find(([, v]) => v !== undefined);
    if (given) throw new UsageError(`--${given[0]} is for --kubernetes-jobs: add it, or leave --${given[0]} out`);
    return undefined;
  }
  if (a['shared-memory'] !== 'none')
    throw new UsageError(
      `--kubernetes-jobs measures from perf_analyzer's own container: leave --shared-memory out (${a['shared-memory']} needs the server's memory)`,
    );
  const checked = {} as Record<keyof typeof urls, RemoteLocation>;
  for (const [flag, value] of Object.entries(urls) as [keyof typeof urls, string | undefined][]) {
    const example = flag === 'repository-uri' ? 's3://BUCKET/tune/PLAN' : 's3://BUCKET/tune/PLAN-results';
    if (value === undefined) throw new UsageError(`--kubernetes-jobs needs --${flag} (s3://, gs:// or as://), e.g. --${flag} ${example}`);
    if (/[\s\p{Cc}]/u.test(value)) throw new UsageError(`--${flag} ${quoted(value)}: a URL has no spaces or control characters`);
    if (!isRemoteUrl(value))
      throw new UsageError(
        `--${flag} ${quoted(value)}: the Jobs read and write object storage that Triton and the stores' CLIs both reach: give s3://, gs:// or as:// (e.g. --${flag} ${example})`,
      );
    try {
      checked[flag] = parseRemoteUrl(value);
    } catch (e) {
      if (e instanceof RemoteUrlError) throw new UsageError(`--${flag} ${e.message}`);
      throw e;
    }
  }
  const settings = settingsNear(modelDir);
  const full = applyServerFlags(settings.server, server);
  return {
    repository: checked['repository-uri'],
    results: checked['results-uri'],
    planDir: displayPath(out, io.cwd),
    server: full,
    resolve: resolveOptionsOf({ ...settings, server: full }),
  };
}

// ---- pick -----------------------------------------------------------------------------------------

function settingsOf(config: ModelConfig): VariantSettings {
  const delay = config.dynamic_batching?.max_queue_delay_microseconds;
  const preferred = config.dynamic_batching?.preferred_batch_size;
  const count = config.instance_group?.[0]?.count;
  return {
    ...(config.dynamic_batching ? { delayUs: Number(delay ?? 0) } : {}),
    ...(preferred?.length ? { preferred: preferred.map(Number) } : {}),
    ...(count !== undefined ? { instances: Number(count) } : {}),
  };
}

interface Measured {
  table: PerfTable;
  settings: VariantSettings;
  config: ModelConfig;
}

function readVariantConfig(file: string, shown: (p: string) => string): ModelConfig {
  const r = readText(file);
  if (r.kind !== 'text') throw new UsageError(`${shown(file)}: ${r.kind === 'missing' ? 'no such file' : r.reason}`);
  const doc = parseConfig(r.text, file);
  if (hasErrors(doc.diagnostics))
    throw new UsageError(`${shown(file)}:${doc.diagnostics[0]!.range.start.line}:${doc.diagnostics[0]!.range.start.column}: ${doc.diagnostics[0]!.message}`);
  return doc.value;
}

/** A measurement file (perf_analyzer's CSV and log, Model Analyzer's CSV) is kilobytes; anything past this is not one. */
const MEASUREMENT_BYTES = 64 * 1024 * 1024;

function readMeasurements(dir: string, a: TuneArgs, io: CliIO): Map<string, Measured> {
  const shown = (p: string) => displayPath(p, io.cwd);
  const measured = new Map<string, Measured>();
  const csvError = (e: unknown): never => {
    if (e instanceof CsvError) throw new UsageError(`${shown(e.file)}:${e.line}:${e.column}: ${e.problem}`);
    throw e;
  };
  const maCsv = [join(dir, 'results', 'metrics-model-inference.csv'), join(dir, 'metrics-model-inference.csv')].find((f) => existsSync(f));
  if (maCsv) {
    const repo = a.modelAnalyzerRepository ? resolve(io.cwd, a.modelAnalyzerRepository) : join(dir, 'output_model_repository');
    const read = readText(maCsv, MEASUREMENT_BYTES);
    if (read.kind !== 'text') throw new UsageError(`${shown(maCsv)}: ${read.kind === 'missing' ? 'no such file' : read.reason}`);
    let tables: Map<string, PerfTable>;
    try {
      tables = parseModelAnalyzerCsv(read.text, maCsv);
    } catch (e) {
      return csvError(e);
    }
    for (const [variant, table] of tables) {
      const config = readVariantConfig(join(repo, variant, 'config.pbtxt'), shown);
      measured.set(variant, { table, settings: settingsOf(config), config });
    }
    return measured;
  }
  const entries = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];
  for (const name of entries) {
    const csv = join(dir, name, 'perf.csv');
    const read = readText(csv, MEASUREMENT_BYTES);
    // run.sh keeps perf_analyzer's output: the levels it found no stable measurement for are marked.
    const log = readText(join(dir, name, 'perf_analyzer.log'), MEASUREMENT_BYTES);
    const unstable = log.kind === 'text' ? unstableLoads(log.text).map((u) => u.load) : [];
    if (read.kind === 'missing') {
      // A variant not measured (run.sh stopped early, it failed to load, or perf_analyzer gave up): said, and left out.
      if (!existsSync(join(dir, name, 'config.pbtxt'))) continue;
      if (unstable.length) {
        io.stderr(
          `tritonc tune: ${escapeControl(name)}: perf_analyzer found no stable measurement at concurrency ${unstable.join(', ')} (its perf_analyzer.log) and wrote no perf.csv: left out\n`,
        );
        const config = readVariantConfig(join(dir, name, 'config.pbtxt'), shown);
        measured.set(name, { table: { file: csv, load: 'concurrency', rows: [], latencies: [], unstable }, settings: settingsOf(config), config });
      } else io.stderr(`tritonc tune: ${escapeControl(name)} has no perf.csv (not measured): left out\n`);
      continue;
    }
    if (read.kind !== 'text') throw new UsageError(`${shown(csv)}: ${read.reason}`);
    let table: PerfTable;
    try {
      table = parsePerfCsv(read.text, csv);
    } catch (e) {
      return csvError(e);
    }
    if (unstable.length) table.unstable = unstable;
    const config = readVariantConfig(join(dir, name, 'config.pbtxt'), shown);
    measured.set(name, { table, settings: settingsOf(config), config });
  }
  if (!measured.size)
    throw new UsageError(
      `no results under ${shown(dir)}: expected <variant>/perf.csv (run the plan's run.sh) or Model Analyzer's results/metrics-model-inference.csv`,
    );
  return measured;
}

/** --latency-budget and --percentile, checked. */
function budgetFlags(a: TuneArgs): { budgetUs: number; percentile: string } {
  if (a['latency-budget'] === undefined) throw new UsageError('give --latency-budget (e.g. 20ms): the latency the chosen point must stay within');
  const budgetUs = parseDuration(a['latency-budget'], 'microseconds');
  if (budgetUs === undefined || budgetUs <= 0) throw new UsageError(`--latency-budget: "${a['latency-budget']}" is not a duration (20ms, 500us, 1s)`);
  return { budgetUs, percentile: a.percentile.toLowerCase().replace(/^(\d+)$/, 'p$1') };
}

async function runPick(a: TuneArgs, io: CliIO): Promise<number> {
  const dir = resolve(io.cwd, a.dir);
  const shown = (p: string) => displayPath(p, io.cwd);
  const { budgetUs, percentile } = budgetFlags(a);
  const measured = readMeasurements(dir, a, io);
  for (const [variant, m] of measured) {
    if (m.table.rows.length && !m.table.latencies.includes(percentile))
      throw new UsageError(
        `${shown(m.table.file)} (${variant}) has no ${percentile} latency; it has ${m.table.latencies.join(', ')}: choose one with --percentile`,
      );
  }
  return reportPick(measured, percentile, budgetUs, a, io, a.write === undefined ? undefined : resolve(io.cwd, a.write));
}

/** The ranking as text or JSON, the plot, and with `writeTo` the winner's settings written there. */
function reportPick(measured: Map<string, Measured>, percentile: string, budgetUs: number, a: TuneArgs, io: CliIO, writeTo: string | undefined): number {
  const shown = (p: string) => displayPath(p, io.cwd);
  const result = pick(measured, percentile, budgetUs);
  if (a.plot !== undefined) {
    const file = resolve(io.cwd, a.plot);
    try {
      writeFileAtomic(file, plotSvg(result));
    } catch (e) {
      throw new UsageError(`cannot write ${shown(file)}: ${describeFsError(e)}`);
    }
  }
  io.stdout(a.format === 'json' ? `${JSON.stringify(pickJson(result), null, 2)}\n` : pickText(result));
  if (!result.best && !result.variants.some((v) => v.rows.length)) {
    io.stderr(
      `tritonc tune: perf_analyzer found no stable measurement for any variant: measure again with a longer --measurement-interval, a larger --stability-percentage or more --max-trials\n`,
    );
    return EXIT.problems;
  }
  if (!result.best) {
    const closest = result.variants.find((v) => Number.isFinite(v.bestLatencyUs));
    io.stderr(
      `tritonc tune: no variant stays within ${a['latency-budget']} at ${percentile}${closest ? `; the closest is ${closest.variant}, whose lowest ${percentile} is ${(closest.bestLatencyUs / 1000).toFixed(2)} ms` : ''}\n`,
    );
    return EXIT.problems;
  }
  if (writeTo !== undefined) return printWinnerWrite(writeTo, result.best.variant, measured.get(result.best.variant)!, io, a.format === 'json');
  return EXIT.ok;
}

// ---- run ------------------------------------------------------------------------------------------

interface ToMeasure {
  plan: VerifyPlan;
  model: string;
  variants: LoadTestVariant[];
}

const prepare = (modelDir: string, io: CliIO): VerifyPlan => {
  try {
    return prepareVerify(modelDir, io.cwd);
  } catch (e) {
    if (e instanceof CannotRun) throw new UsageError(e.message);
    throw e;
  }
};

/** The variants of a model directory, planned from the flags; an exit code when the model would not load. */
function variantsOfModel(modelDir: string, flags: ReturnType<typeof planFlags>, server: Partial<ServerOptions>, io: CliIO): ToMeasure | number {
  const shown = (p: string) => displayPath(p, io.cwd);
  const plan = prepare(modelDir, io);
  let read: PlannedModel;
  try {
    read = planModel(plan.modelDir, flags, io.cwd, shown, server);
  } catch (e) {
    if (e instanceof TunePlanError) throw new UsageError(e.message);
    throw e;
  }
  if (read.kind === 'model-refused') {
    io.stderr(formatStylish(errorsOnly(read.lint), { cwd: io.cwd }));
    io.stderr(`tritonc tune: Triton would not load ${shown(modelDir)} (above); fix it first. Nothing measured\n`);
    return EXIT.problems;
  }
  if (read.decoupled) throw new UsageError(DECOUPLED);
  for (const n of read.planned.notes) io.stderr(`tritonc tune: ${n}\n`);
  // Each variant's config, named as the model: the load's override replaces the served config.
  const variants = read.planned.variants.map((v): LoadTestVariant => {
    const edited = setFields(
      read.source,
      read.configFile,
      v.changes.filter((c) => c.path[0] !== 'name'),
    );
    if (!edited.ok) throw new UsageError(`${v.name}: ${edited.problem}`);
    return { name: v.name, settings: v.settings, config: parseConfig(edited.text, read.configFile).value };
  });
  return { plan, model: read.model, variants };
}

const DECOUPLED =
  'the model is decoupled: perf_analyzer measures a decoupled model over gRPC streaming, which tune run does not; use tune plan --protocol grpc and run.sh';

/** The variants a plan directory holds (tune plan's tune-plan.json names them and the model). */
function variantsOfPlan(dir: string, io: CliIO): ToMeasure {
  const shown = (p: string) => displayPath(p, io.cwd);
  const file = join(dir, 'tune-plan.json');
  // tune plan writes a few kilobytes.
  const read = readText(file, 4 * 1024 * 1024);
  if (read.kind !== 'text') throw new UsageError(`${shown(file)}: ${read.kind === 'missing' ? 'no such file' : read.reason}`);
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (e) {
    throw new UsageError(`${shown(file)}: not JSON (${(e as Error).message}); write the plan again with tritonc tune plan`);
  }
  const parsed = z
    .object({
      model: z.string(),
      modelDir: z.string(),
      variants: z
        .array(z.object({ name: z.string() }))
        .min(1)
        .max(10_000),
    })
    .safeParse(json);
  if (!parsed.success)
    throw new UsageError(`${shown(file)}: not a plan tune plan wrote (${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message})`);
  const plan = prepare(resolve(dir, parsed.data.modelDir), io);
  if (plan.config.model_transaction_policy?.decoupled === true) throw new UsageError(DECOUPLED);
  const variants = parsed.data.variants.map(({ name }): LoadTestVariant => {
    // One directory of the plan, nothing else: a name is a single path segment.
    if (!name || name === '.' || name === '..' || /[\\/\0]/.test(name))
      throw new UsageError(`${shown(file)}: ${JSON.stringify(name)} is not a variant directory's name`);
    const config = readVariantConfig(join(dir, name, 'config.pbtxt'), shown);
    return { name, settings: settingsOf(config), config: { ...config, name: plan.modelName } };
  });
  io.stderr(`tritonc tune: the variants of ${shown(dir)}, loaded onto ${shown(plan.modelDir)}\n`);
  return { plan, model: plan.modelName, variants };
}

async function runLoadTestCommand(a: TuneArgs, io: CliIO): Promise<number> {
  const { budgetUs, percentile } = budgetFlags(a);
  const flags = planFlags(a);
  const range = /^(\d+)(?::(\d+)(?::(\d+))?)?$/.exec(a['concurrency-range'])!;
  const [start, end, step] = [Number(range[1]), Number(range[2] ?? range[1]), Number(range[3] ?? 1)];
  if (start < 1 || end < start || step < 1)
    throw new UsageError(`--concurrency-range: "${a['concurrency-range']}" must go from 1 or more up, by a step of 1 or more`);
  const concurrency: number[] = [];
  if (Math.floor((end - start) / step) + 1 > 64)
    throw new UsageError(
      `--concurrency-range: "${a['concurrency-range']}" is more than 64 levels; tune run measures each level on its own, so give a larger step`,
    );
  for (let c = start; c <= end; c += step) concurrency.push(c);
  const timeoutUs = parseDuration(a.timeout, 'seconds');
  if (timeoutUs === undefined || timeoutUs < 1_000_000) throw new UsageError(`--timeout: "${a.timeout}" is not a duration of 1s or more (e.g. 120s)`);
  const maxTrials = a['max-trials'];
  if (maxTrials !== undefined && !/^[1-9]\d{0,3}$/.test(maxTrials))
    throw new UsageError(`--max-trials: ${JSON.stringify(maxTrials)} is not a whole number of 1 or more`);
  let runtime: Runtime;
  if (a.runtime === 'server') {
    const url = a.server === undefined ? undefined : normalizeServerUrl(a.server);
    if (!url)
      throw new UsageError(
        `--runtime server needs --server http://host:port (the server's HTTP endpoint)${a.server === undefined ? '' : `; got ${JSON.stringify(a.server)}`}`,
      );
    // perf_analyzer is given host:port (its -u): nothing else may reach its arguments.
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' || (parsed.pathname !== '/' && parsed.pathname !== '') || !checkHostPort(parsed.host).ok)
      throw new UsageError(`--server: tune run measures over plain HTTP at host:port; ${JSON.stringify(a.server)} is not http://host:port`);
    runtime = { kind: 'server', url: `http://${parsed.host}` };
  } else {
    if (a.server !== undefined) throw new UsageError('--server goes with --runtime server');
    runtime = { kind: 'local', ...(a.tritonserver !== undefined ? { tritonserver: a.tritonserver } : {}) };
  }
  const given = resolve(io.cwd, a.dir);
  const { server, target } = tuneTarget(a, given, io);
  const sharedMemory: SharedMemory = a['shared-memory'];
  // A server tritonc starts is started allowing what it measures with; a running one must have been.
  if (runtime.kind === 'server') {
    const refusal = sharedMemoryRefusal(target, sharedMemory, a['allow-client-shm'] === true);
    if (refusal) throw new UsageError(refusal);
  } else if (serverArgsFor(target, sharedMemory).length) runtime = { ...runtime, serverArgs: serverArgsFor(target, sharedMemory) };
  const perfAnalyzer = findPerfAnalyzer(a['perf-analyzer'], io.cwd);
  if (!perfAnalyzer.ok) throw new UsageError(perfAnalyzer.why);

  const chosen = existsSync(join(given, 'tune-plan.json')) ? variantsOfPlan(given, io) : variantsOfModel(given, flags, server, io);
  if (typeof chosen === 'number') return chosen;
  const { plan, model, variants } = chosen;
  io.stderr(`tritonc tune: measuring ${variants.length} variant${variants.length === 1 ? '' : 's'} of ${model} at concurrency ${concurrency.join(', ')}\n`);
  let done: LoadTestResult;
  try {
    done = await runLoadTest({
      plan,
      variants,
      runtime,
      perfAnalyzer: perfAnalyzer.file,
      concurrency,
      measurementIntervalMs: flags.interval,
      percentile: flags.percentile,
      ...(flags.stability !== undefined ? { stabilityPercentage: flags.stability } : {}),
      ...(maxTrials !== undefined ? { maxTrials: Number(maxTrials) } : {}),
      ...(sharedMemory !== 'none' ? { sharedMemory } : {}),
      timeoutMs: timeoutUs / 1000,
      cwd: io.cwd,
      progress: (line) => io.stderr(`tritonc tune: ${escapeControlKeepingLines(line)}\n`),
    });
  } catch (e) {
    if (e instanceof Interrupted) {
      io.stderr(`tritonc tune: interrupted${e.after ? `; ${escapeControlKeepingLines(e.after)}` : ''}\n`);
      return signalExitCode(e.signal);
    }
    if (e instanceof CannotRun) throw new UsageError(e.message);
    throw e;
  }
  // The server's and perf_analyzer's words are a remote party's text: escaped before the terminal.
  for (const n of done.notes) io.stderr(`tritonc tune: ${escapeControlKeepingLines(n)}\n`);
  for (const p of done.problems) io.stderr(`tritonc tune: error: ${escapeControlKeepingLines(p.message)}\n`);
  const measured = new Map<string, Measured>();
  for (const m of done.measured) {
    if (m.failed)
      io.stderr(
        `tritonc tune: ${escapeControl(m.name)}: ${escapeControlKeepingLines(m.failed)}${m.table.rows.length ? ' (the levels measured before count)' : ''}\n`,
      );
    if (m.table.rows.length || m.table.unstable?.length) measured.set(m.name, { table: m.table, settings: m.settings, config: m.config });
  }
  if (!measured.size) {
    io.stderr(`tritonc tune: no variant was measured (above)\n`);
    return done.problems.length ? EXIT.usage : EXIT.problems;
  }
  for (const [variant, m] of measured) {
    if (m.table.rows.length && !m.table.latencies.includes(percentile))
      throw new UsageError(
        `perf_analyzer reported no ${percentile} latency for ${variant}; it has ${m.table.latencies.join(', ')}: choose one with --percentile`,
      );
  }
  const code = reportPick(measured, percentile, budgetUs, a, io, a.write === undefined ? undefined : a.write === '' ? plan.modelDir : resolve(io.cwd, a.write));
  // The model could not be put back as it was: said above, and the run is not clean.
  return done.problems.length ? Math.max(code, EXIT.usage) : code;
}

function pickJson(r: PickResult): unknown {
  const key = r.load === 'concurrency' ? 'concurrency' : 'requestRate';
  const ms = (us: number) => Math.round(us) / 1000;
  const point = (v: PickResult['variants'][number]) =>
    v.chosen ? { [key]: v.chosen.load, throughput: v.chosen.throughput, latency: ms(v.chosen.latencyUs) } : {};
  return {
    percentile: r.percentile,
    latencyBudget: ms(r.budgetUs),
    latencyUnit: 'ms',
    best: r.best ? { variant: r.best.variant, ...point(r.best) } : null,
    variants: r.variants.map((v) => ({
      variant: v.variant,
      settings: v.settings,
      withinBudget: v.chosen !== undefined,
      ...point(v),
      ...(v.knee !== undefined ? { knee: v.knee } : {}),
      lowestLatency: Number.isFinite(v.bestLatencyUs) ? ms(v.bestLatencyUs) : null,
      unstable: v.unstable,
    })),
    explanation: r.explanation,
  };
}

function pickText(r: PickResult): string {
  const lines = [`${r.percentile} latency budget ${(r.budgetUs / 1000).toFixed(2)} ms; the best throughput within it, per variant:`, ''];
  const width = maxOf(
    r.variants.map((v) => v.variant.length),
    7,
  );
  lines.push(`  ${'variant'.padEnd(width)}  ${r.load.padEnd(12)}  ${'infer/sec'.padStart(10)}  ${`${r.percentile} ms`.padStart(9)}  knee`);
  for (const v of r.variants) {
    const c = v.chosen;
    const none = v.rows.length ? 'over budget' : 'unstable';
    lines.push(
      `  ${v.variant.padEnd(width)}  ${(c ? String(c.load) : '-').padEnd(12)}  ${(c ? c.throughput.toFixed(1) : none).padStart(10)}  ${(c ? (c.latencyUs / 1000).toFixed(2) : v.rows.length ? (v.bestLatencyUs / 1000).toFixed(2) : '-').padStart(9)}  ${v.knee ?? '-'}`,
    );
  }
  const unstable = r.variants.filter((v) => v.unstable.length);
  if (unstable.length)
    append(lines, [
      '',
      `Unstable (perf_analyzer found no stable measurement; not counted): ${unstable.map((v) => `${v.variant} at ${r.load} ${v.unstable.join(', ')}`).join('; ')}`,
    ]);
  if (r.best) append(lines, ['', `Best: ${r.best.variant}`, ...r.explanation.map((l) => `  ${l}`)]);
  return `${lines.join('\n')}\n`;
}

/** Applies the winner's batching and instance settings to MODEL_DIR's config.pbtxt, and prints the diff. */
function printWinnerWrite(modelDir: string, name: string, winner: Measured, io: CliIO, json: boolean): number {
  // With --format json, stdout is the JSON report alone: what was written goes to stderr.
  const say = json ? io.stderr : io.stdout;
  const shown = (p: string) => displayPath(p, io.cwd);
  let done: WinnerWrite;
  try {
    done = writeWinner(modelDir, winner.config, shown, io.cwd);
  } catch (e) {
    if (e instanceof TuneWriteError) throw new UsageError(`--write: ${e.message}`);
    throw e;
  }
  if (done.kind === 'unchanged') say(`${shown(done.file)} already has the settings of ${name}\n`);
  else {
    say(`\n${shown(done.file)}: ${name}'s settings\n${lineDiff(done.before, done.after).join('\n')}\n`);
    if (done.header?.regenerated)
      say(
        `${shown(done.file)} was written as tritonc generate writes it with these settings: its header records them, and tritonc generate --check accepts it\n`,
      );
    else if (done.header)
      say(`note: ${shown(done.file)} keeps its tritonc generate header, which tritonc generate --check already disagreed with (${done.header.why})\n`);
  }
  return EXIT.ok;
}

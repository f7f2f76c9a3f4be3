// `tritonc tune plan MODEL_DIR --out DIR` and `tritonc tune pick DIR --latency-budget 20ms`: from the
// load tests of the seed tutorial to the config. plan writes one loadable variant per combination of
// queue delay, instances and preferred batch sizes, each with its perf_analyzer command, and a script
// that runs them; pick reads what perf_analyzer (or Model Analyzer) measured, finds for every variant
// the highest load within the latency budget, ranks them by throughput there, explains the winner, and
// with --write applies its settings to the model's config (comments kept, atomic, meaning-checked).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseConfig, hasErrors } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { setFields, type FieldChange } from '../config/set-fields.js';
import { lintSync } from '../lint/engine.js';
import { errorsOnly } from '../lint/results.js';
import { parseDuration } from '../lint/units.js';
import { formatStylish } from '../report/stylish.js';
import { CsvError } from '../tune/csv.js';
import { parseModelAnalyzerCsv } from '../tune/model-analyzer-csv.js';
import { parsePerfCsv, type PerfTable } from '../tune/perf-csv.js';
import { pick, type PickResult, type VariantSettings } from '../tune/pick.js';
import { measureScript, perfAnalyzerCommand, planVariants, runScript, type MeasureOptions } from '../tune/plan.js';
import { plotSvg } from '../tune/svg.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { lineDiff } from '../util/line-diff.js';
import { checkHostPort, shellLine } from '../util/shell.js';
import { describeFsError, readText } from '../util/read-text.js';
import { Workspace } from '../workspace/workspace.js';
import { repeatable, type CommandSpec } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { append, maxOf } from '../util/arrays.js';

const list = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);

export const tuneCommand: CommandSpec = {
  command: 'tune <action> <dir>',
  describe: 'Plan load-test variants of a model (tune plan MODEL_DIR --out DIR), then pick the best within a latency budget from perf_analyzer\'s results (tune pick DIR --latency-budget 20ms)',
  builder: (y) =>
    y
      .positional('action', { choices: ['plan', 'pick'] as const, describe: 'plan: write the variants; pick: read their results' })
      .positional('dir', { type: 'string', describe: 'plan: the model directory; pick: the plan directory (or a Model Analyzer export directory)' })
      .option('out', { type: 'string', describe: 'plan: the directory to write the variants to (must not exist, or be empty)' })
      .option('delays', { type: 'string', default: '0,100us,500us,1ms,5ms', describe: 'plan: max_queue_delay_microseconds values to try (durations)' })
      .option('instances', { type: 'string', default: '1,2', describe: 'plan: instance counts to try' })
      .option('preferred', { ...repeatable('plan: preferred_batch_size lists to try, e.g. --preferred 4,8 --preferred none (default: the config\'s)') })
      .option('url', { type: 'string', default: 'localhost:8001', describe: 'plan: the server perf_analyzer measures (-u)' })
      .option('protocol', { choices: ['grpc', 'http'] as const, default: 'grpc' as const, describe: 'plan: the protocol perf_analyzer measures with (its -i)' })
      .option('http-url', { type: 'string', default: 'localhost:8000', describe: 'plan: the server\'s HTTP endpoint, where run.sh loads and unloads the variants' })
      .option('concurrency-range', { type: 'string', default: '1:16:2', describe: 'plan: perf_analyzer --concurrency-range start:end:step' })
      .option('measurement-interval', { type: 'string', default: '5000', describe: 'plan: perf_analyzer --measurement-interval, in ms' })
      .option('latency-budget', { type: 'string', describe: 'pick: the latency the chosen point must stay within (e.g. 20ms)' })
      .option('percentile', { type: 'string', default: 'p99', describe: 'pick: the latency to hold to the budget (p50, p90, p95, p99, avg); plan: the --percentile perf_analyzer stabilizes on' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'pick: the report as text for a person, or JSON' })
      .option('write', { type: 'string', describe: "pick: apply the winner's batching and instance settings to this model directory's config.pbtxt" })
      .option('plot', { type: 'string', describe: 'pick: draw latency against throughput for every variant to this .svg file' })
      .option('model-analyzer-repository', { type: 'string', describe: "pick: Model Analyzer's output model repository (default: <dir>/output_model_repository)" }),
  run: (a, io) => (a.action === 'plan' ? runPlan(a, io) : runPick(a, io)),
};

// ---- plan -----------------------------------------------------------------------------------------

async function runPlan(a: Record<string, unknown>, io: CliIO): Promise<number> {
  const modelDir = resolve(io.cwd, a.dir as string);
  if (a.out === undefined) throw new UsageError('give --out DIR, where the variants are written');
  const out = resolve(io.cwd, a.out as string);
  const shown = (p: string) => displayPath(p, io.cwd);
  const delaysUs = list(a.delays).map((d) => {
    const us = parseDuration(d);
    if (us === undefined || !Number.isInteger(us)) throw new UsageError(`--delays: "${d}" is not a duration in whole microseconds (0, 100us, 1ms)`);
    return us;
  });
  const instances = list(a.instances).map((n) => {
    if (!/^[1-9]\d*$/.test(n)) throw new UsageError(`--instances: "${n}" is not a count of 1 or more`);
    return Number(n);
  });
  const preferred = a.preferred === undefined ? undefined : (a.preferred as string[]).map((p) => {
    if (p.trim() === 'none') return [];
    const sizes = p.split(',').map((s) => s.trim());
    if (!sizes.every((s) => /^[1-9]\d*$/.test(s))) throw new UsageError(`--preferred: "${p}" is not a comma list of batch sizes, or none`);
    return sizes.map(Number);
  });
  const percentile = /^p?(\d+)$/.exec(String(a.percentile));
  if (!percentile || Number(percentile[1]) < 1 || Number(percentile[1]) > 99) throw new UsageError(`--percentile: "${String(a.percentile)}" is not a percentile perf_analyzer takes (1 to 99, e.g. p99)`);
  if (!/^\d+(:\d+(:\d+)?)?$/.test(String(a['concurrency-range']))) throw new UsageError(`--concurrency-range: "${String(a['concurrency-range'])}" is not start[:end[:step]]`);
  const interval = Number(a['measurement-interval']);
  if (!/^[1-9]\d*$/.test(String(a['measurement-interval']))) throw new UsageError(`--measurement-interval: ${JSON.stringify(String(a['measurement-interval']))} is not a whole number of milliseconds`);
  // Both addresses reach the generated scripts: each is host:port, and nothing else.
  for (const flag of ['url', 'http-url'] as const) {
    const checked = checkHostPort(String(a[flag]));
    if (!checked.ok) throw new UsageError(`--${flag}: ${JSON.stringify(String(a[flag]))} ${checked.why}`);
  }
  const measure: MeasureOptions = { url: String(a.url), protocol: a.protocol as 'grpc' | 'http', concurrencyRange: String(a['concurrency-range']), measurementIntervalMs: interval, percentile: Number(percentile[1]) };

  const ws = new Workspace();
  if (ws.tree.kind(modelDir) !== 'dir') throw new UsageError(`${shown(modelDir)}: not a model directory`);
  const effective = ws.model(modelDir).effective();
  if (effective.status !== 'ok') {
    const f = effective.failure;
    const why = effective.problems[0]?.message ?? (f && 'message' in f ? f.message : f ? `${f.file} has syntax errors` : 'it cannot be read');
    throw new UsageError(`Triton would not load ${shown(modelDir)} (${why}); fix it first (tritonc lint ${shown(modelDir)})`);
  }
  // Variants of a model Triton would refuse would be refused too: the model lints clean first.
  const own = lintSync([modelDir], { cwd: io.cwd });
  if (own.errorCount) {
    io.stderr(formatStylish(errorsOnly(own), { cwd: io.cwd }));
    io.stderr(`tritonc tune: Triton would not load ${shown(modelDir)} (above); fix it first. Nothing written\n`);
    return EXIT.problems;
  }
  const model = basename(modelDir);
  const configFile = effective.configFile ?? join(modelDir, 'config.pbtxt');
  const read = readText(configFile);
  const source = read.kind === 'text' ? read.text : '';
  const written = parseConfig(source, configFile);
  if (hasErrors(written.diagnostics)) throw new UsageError(`${shown(configFile)} does not parse; run tritonc lint on it first`);
  const planned = planVariants(model, written.value, effective.config!, { delaysUs, instances, ...(preferred ? { preferred } : {}) });
  const decoupled = effective.config!.model_transaction_policy?.decoupled === true;
  if (decoupled && measure.protocol === 'http') throw new UsageError('the model is decoupled, and perf_analyzer measures a decoupled model over gRPC streaming only: use --protocol grpc');

  if (existsSync(out) && readdirSync(out).length) throw new UsageError(`${shown(out)} exists and is not empty; give a new directory`);
  // Written beside the destination first, linted there, then moved into place: a failure leaves nothing.
  const tmp = `${out}.tritonc-${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    mkdirSync(tmp, { recursive: true });
    const commands: Record<string, string> = {};
    for (const v of planned.variants) {
      const edited = setFields(source, configFile, v.changes);
      if (!edited.ok) throw new UsageError(`${v.name}: ${edited.problem}`);
      const dir = join(tmp, v.name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'config.pbtxt'), edited.text);
      // The rest of the model directory (version directories, label files) is linked, not copied.
      for (const entry of readdirSync(modelDir)) {
        if (entry === 'config.pbtxt' || entry === 'configs') continue;
        symlinkSync(join(modelDir, entry), join(dir, entry));
      }
      const command = perfAnalyzerCommand(v.name, decoupled, measure);
      commands[v.name] = shellLine(command);
      writeFileSync(join(dir, 'perf_analyzer.sh'), measureScript(v.name, command));
    }
    writeFileSync(join(tmp, 'run.sh'), runScript(planned.variants.map((v) => v.name), String(a['http-url'])), { mode: 0o755 });
    writeFileSync(join(tmp, 'tune-plan.json'), `${JSON.stringify({ model, modelDir, percentile: `p${measure.percentile}`, variants: planned.variants.map((v) => ({ name: v.name, settings: v.settings, command: commands[v.name] })) }, null, 2)}\n`);
    const result = lintSync([tmp], { cwd: io.cwd });
    if (result.errorCount) {
      io.stderr(formatStylish(errorsOnly(result), { cwd: io.cwd }));
      io.stderr(`tritonc tune: the variants would not load (above); nothing written\n`);
      return EXIT.problems;
    }
    if (existsSync(out)) rmSync(out, { recursive: true });
    mkdirSync(dirname(out), { recursive: true });
    renameSync(tmp, out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const n of planned.notes) io.stderr(`tritonc tune: ${n}\n`);
  io.stdout(`wrote ${planned.variants.length} variant${planned.variants.length === 1 ? '' : 's'} of ${model} to ${shown(out)}:\n`);
  for (const v of planned.variants) io.stdout(`  ${v.name}\n`);
  io.stdout(`\nStart Triton on it:  tritonserver --model-repository ${shown(out)} --model-control-mode explicit\nMeasure every variant:  bash ${shown(join(out, 'run.sh'))}\nThen:  tritonc tune pick ${shown(out)} --latency-budget <budget>\n`);
  return EXIT.ok;
}

// ---- pick -----------------------------------------------------------------------------------------

function settingsOf(config: ModelConfig): VariantSettings {
  const delay = config.dynamic_batching?.max_queue_delay_microseconds;
  const preferred = config.dynamic_batching?.preferred_batch_size;
  const count = config.instance_group?.[0]?.count;
  return { ...(config.dynamic_batching ? { delayUs: Number(delay ?? 0) } : {}), ...(preferred?.length ? { preferred: preferred.map(Number) } : {}), ...(count !== undefined ? { instances: Number(count) } : {}) };
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
  if (hasErrors(doc.diagnostics)) throw new UsageError(`${shown(file)}:${doc.diagnostics[0]!.range.start.line}:${doc.diagnostics[0]!.range.start.column}: ${doc.diagnostics[0]!.message}`);
  return doc.value;
}

function readMeasurements(dir: string, a: Record<string, unknown>, io: CliIO): Map<string, Measured> {
  const shown = (p: string) => displayPath(p, io.cwd);
  const measured = new Map<string, Measured>();
  const csvError = (e: unknown): never => {
    if (e instanceof CsvError) throw new UsageError(`${shown(e.file)}:${e.line}:${e.column}: ${e.problem}`);
    throw e;
  };
  const maCsv = [join(dir, 'results', 'metrics-model-inference.csv'), join(dir, 'metrics-model-inference.csv')].find((f) => existsSync(f));
  if (maCsv) {
    const repo = a['model-analyzer-repository'] ? resolve(io.cwd, a['model-analyzer-repository'] as string) : join(dir, 'output_model_repository');
    const read = readText(maCsv);
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
  const entries = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
  for (const name of entries) {
    const csv = join(dir, name, 'perf.csv');
    const read = readText(csv);
    if (read.kind === 'missing') {
      // A variant not measured yet (run.sh stopped early, or it failed to load): said, and left out.
      if (existsSync(join(dir, name, 'config.pbtxt'))) io.stderr(`tritonc tune: ${name} has no perf.csv (not measured): left out\n`);
      continue;
    }
    if (read.kind !== 'text') throw new UsageError(`${shown(csv)}: ${read.reason}`);
    let table: PerfTable;
    try {
      table = parsePerfCsv(read.text, csv);
    } catch (e) {
      return csvError(e);
    }
    const config = readVariantConfig(join(dir, name, 'config.pbtxt'), shown);
    measured.set(name, { table, settings: settingsOf(config), config });
  }
  if (!measured.size) throw new UsageError(`no results under ${shown(dir)}: expected <variant>/perf.csv (run the plan's run.sh) or Model Analyzer's results/metrics-model-inference.csv`);
  return measured;
}

async function runPick(a: Record<string, unknown>, io: CliIO): Promise<number> {
  const dir = resolve(io.cwd, a.dir as string);
  const shown = (p: string) => displayPath(p, io.cwd);
  if (a['latency-budget'] === undefined) throw new UsageError('give --latency-budget (e.g. 20ms): the latency the chosen point must stay within');
  const budgetUs = parseDuration(String(a['latency-budget']));
  if (budgetUs === undefined || budgetUs <= 0) throw new UsageError(`--latency-budget: "${String(a['latency-budget'])}" is not a duration (20ms, 500us, 1s)`);
  const percentile = String(a.percentile).toLowerCase().replace(/^(\d+)$/, 'p$1');
  const measured = readMeasurements(dir, a, io);
  for (const [variant, m] of measured) {
    if (!m.table.latencies.includes(percentile)) throw new UsageError(`${shown(m.table.file)} (${variant}) has no ${percentile} latency; it has ${m.table.latencies.join(', ')}: choose one with --percentile`);
  }
  const result = pick(measured, percentile, budgetUs);

  if (a.plot !== undefined) {
    const file = resolve(io.cwd, a.plot as string);
    try {
      writeFileAtomic(file, plotSvg(result));
    } catch (e) {
      throw new UsageError(`cannot write ${shown(file)}: ${describeFsError(e)}`);
    }
  }
  io.stdout(a.format === 'json' ? `${JSON.stringify(pickJson(result), null, 2)}\n` : pickText(result));
  if (!result.best) {
    const closest = result.variants[0];
    io.stderr(`tritonc tune: no variant stays within ${String(a['latency-budget'])} at ${percentile}${closest ? `; the closest is ${closest.variant}, whose lowest ${percentile} is ${(closest.bestLatencyUs / 1000).toFixed(2)} ms` : ''}\n`);
    return EXIT.problems;
  }
  if (a.write !== undefined) return writeWinner(resolve(io.cwd, a.write as string), result.best.variant, measured.get(result.best.variant)!, io);
  return EXIT.ok;
}

function pickJson(r: PickResult): unknown {
  const key = r.load === 'concurrency' ? 'concurrency' : 'requestRate';
  const ms = (us: number) => Math.round(us) / 1000;
  const point = (v: PickResult['variants'][number]) => (v.chosen ? { [key]: v.chosen.load, throughput: v.chosen.throughput, latency: ms(v.chosen.latencyUs) } : {});
  return {
    percentile: r.percentile,
    latencyBudget: ms(r.budgetUs),
    latencyUnit: 'ms',
    best: r.best ? { variant: r.best.variant, ...point(r.best) } : null,
    variants: r.variants.map((v) => ({ variant: v.variant, settings: v.settings, withinBudget: v.chosen !== undefined, ...point(v), ...(v.knee !== undefined ? { knee: v.knee } : {}), lowestLatency: ms(v.bestLatencyUs) })),
    explanation: r.explanation,
  };
}

function pickText(r: PickResult): string {
  const lines = [`${r.percentile} latency budget ${(r.budgetUs / 1000).toFixed(2)} ms; the highest ${r.load} within it, per variant:`, ''];
  const width = maxOf(r.variants.map((v) => v.variant.length), 7);
  lines.push(`  ${'variant'.padEnd(width)}  ${r.load.padEnd(12)}  ${'infer/sec'.padStart(10)}  ${`${r.percentile} ms`.padStart(9)}  knee`);
  for (const v of r.variants) {
    const c = v.chosen;
    lines.push(`  ${v.variant.padEnd(width)}  ${(c ? String(c.load) : '-').padEnd(12)}  ${(c ? c.throughput.toFixed(1) : 'over budget').padStart(10)}  ${(c ? (c.latencyUs / 1000).toFixed(2) : (v.bestLatencyUs / 1000).toFixed(2)).padStart(9)}  ${v.knee ?? '-'}`);
  }
  if (r.best) append(lines, ['', `Best: ${r.best.variant}`, ...r.explanation.map((l) => `  ${l}`)]);
  return `${lines.join('\n')}\n`;
}

/** Applies the winner's batching and instance settings to MODEL_DIR's config.pbtxt, and prints the diff. */
function writeWinner(modelDir: string, name: string, winner: Measured, io: CliIO): number {
  const shown = (p: string) => displayPath(p, io.cwd);
  const file = join(modelDir, 'config.pbtxt');
  const read = readText(file);
  if (read.kind !== 'text') throw new UsageError(`--write: ${shown(file)}: ${read.kind === 'missing' ? 'no such file (tune writes into an existing config.pbtxt)' : read.reason}`);
  const current = parseConfig(read.text, file);
  if (hasErrors(current.diagnostics)) throw new UsageError(`--write: ${shown(file)} does not parse; fix it first`);
  const w = winner.config;
  const changes: FieldChange[] = [];
  if (w.dynamic_batching) {
    const d = Number(w.dynamic_batching.max_queue_delay_microseconds ?? 0);
    changes.push({ path: ['dynamic_batching', 'max_queue_delay_microseconds'], text: String(d), value: d });
    const p = (w.dynamic_batching.preferred_batch_size ?? []).map(Number);
    const path = ['dynamic_batching', 'preferred_batch_size'];
    if (p.length) changes.push({ path, text: `[ ${p.join(', ')} ]`, value: p });
    else if (current.value.dynamic_batching?.preferred_batch_size?.length) changes.push({ path, text: undefined, value: undefined });
  }
  const count = w.instance_group?.[0]?.count;
  if (count !== undefined) {
    const groups = Math.max(current.value.instance_group?.length ?? 0, 1);
    for (let g = 0; g < groups; g++) changes.push({ path: ['instance_group', g, 'count'], text: String(count), value: Number(count) });
  }
  const edited = setFields(read.text, file, changes);
  if (!edited.ok) throw new UsageError(`--write: ${edited.problem}`);
  if (edited.text === read.text) {
    io.stdout(`${shown(file)} already has the settings of ${name}\n`);
    return EXIT.ok;
  }
  try {
    writeFileAtomic(file, edited.text);
  } catch (e) {
    throw new UsageError(`--write: cannot write ${shown(file)}: ${describeFsError(e)}`);
  }
  io.stdout(`\n${shown(file)}: ${name}'s settings\n${lineDiff(read.text, edited.text).join('\n')}\n`);
  return EXIT.ok;
}

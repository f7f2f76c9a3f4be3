// `tune run`: the load test itself. Each variant's config is loaded onto the model through Triton's
// model-repository API (the config as the load's override, as verify --runtime server loads a
// candidate: the server's files are not touched), measured by perf_analyzer one concurrency level at
// a time (perf-analyzer.ts), and the model is put back as the server had it afterwards with verify's
// own restore (server-runner.ts), on every path: done, refused, timed out, Ctrl-C. With the local
// runtime the server is tritonc's own, started as verify --runtime local starts it (a read-only copy
// of the model, free loopback ports) and stopped with its process group at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { toProtoJson } from '../config/proto-json.js';
import { loadSchema } from '../config/schema.js';
import { CannotRun, Interrupted } from '../verify/errors.js';
import { heldSignalLine, Interruption, type SignalSource } from '../verify/interruption.js';
import { KServeClient, KServeError } from '../verify/kserve-client.js';
import { localServerArgs, removeSharedMemory, stageModel, stop, tritonserverCommand } from '../verify/local-runner.js';
import type { VerifyPlan } from '../verify/plan.js';
import { freePorts } from '../verify/ports.js';
import { execaRunner, type ProcessRunner, type RunningProcess } from '../verify/process-runner.js';
import { EXPLICIT_REFUSED, reach, restore, RESTORE_MIN_MS, whatTheServerHas } from '../verify/server-runner.js';
import { waitForModel } from '../verify/server-start.js';
import type { VerifyProblem } from '../verify/types.js';
import { randomHex } from '../util/random-hex.js';
import type { PerfRow, PerfTable } from './perf-csv.js';
import { measureLevel } from './perf-analyzer.js';
import type { VariantSettings } from './pick.js';

export interface LoadTestVariant {
  name: string;
  settings: VariantSettings;
  /** The variant's config, named as the model (what the load's override carries). */
  config: ModelConfig;
}

export type Runtime = { kind: 'local'; tritonserver?: string; launcher?: readonly string[]; serverArgs?: readonly string[] } | { kind: 'server'; url: string };

export interface LoadTestRequest {
  plan: VerifyPlan;
  variants: readonly LoadTestVariant[];
  runtime: Runtime;
  perfAnalyzer: string;
  concurrency: readonly number[];
  measurementIntervalMs: number;
  percentile: number;
  stabilityPercentage?: number;
  maxTrials?: number;
  /** perf_analyzer --shared-memory (absent: none). */
  sharedMemory?: 'system' | 'cuda';
  /** How long a server start or a variant's load may take. */
  timeoutMs: number;
  cwd: string;
  progress?: (line: string) => void;
  runner?: ProcessRunner;
  signals?: SignalSource;
}

export interface VariantMeasurement {
  name: string;
  settings: VariantSettings;
  config: ModelConfig;
  table: PerfTable;
  /** Why it was not (fully) measured: a refused load, a perf_analyzer failure or timeout. */
  failed?: string;
}

export interface LoadTestResult {
  engine: string;
  measured: VariantMeasurement[];
  /** How the model was put back (server runtime), or that tritonc's own server was stopped. */
  notes: string[];
  problems: VerifyProblem[];
}

/** The served config after a variant, in protobuf JSON (the load API's `config`). */
const configJson = (config: ModelConfig): object => toProtoJson(config as Record<string, unknown>, loadSchema().modelConfig);

/** Runs the load test. Throws CannotRun (exit 2) when it cannot, Interrupted on Ctrl-C, after the clean-up. */
export async function runLoadTest(req: LoadTestRequest): Promise<LoadTestResult> {
  const progress = req.progress ?? (() => {});
  const runner = req.runner ?? execaRunner;
  const interruption = new Interruption(req.signals ?? process);
  const csvDir = mkdtempSync(join(tmpdir(), 'tritonc-tune-'));
  const result: LoadTestResult = { engine: '', measured: [], notes: [], problems: [] };
  const name = req.plan.modelName;
  let proc: RunningProcess | undefined;
  let staged: ReturnType<typeof stageModel> | undefined;
  const shmPrefix = `tritonc_${randomHex(8)}_`;
  let client: KServeClient;
  let restoreState: { before: Awaited<ReturnType<typeof whatTheServerHas>>; pending: boolean } | undefined;
  let failure: unknown;
  try {
    if (req.runtime.kind === 'local') {
      const { command, args } = tritonserverCommand(req.runtime, req.cwd);
      staged = stageModel(req.plan);
      const [http, grpc] = await freePorts(2);
      progress(`starting ${command}; waiting up to ${Math.round(req.timeoutMs / 1000)} s for '${name}' to load`);
      proc = runner.start(command, [...args, ...localServerArgs(staged.repository, name, { http: http!, grpc: grpc! }, shmPrefix, req.runtime.serverArgs)], {
        env: { PYTHONDONTWRITEBYTECODE: '1', TMPDIR: staged.tmp, TMP: staged.tmp, TEMP: staged.tmp },
        group: true,
      });
      client = new KServeClient(`http://127.0.0.1:${http}`, { signal: interruption.signal, timeoutMs: 30_000 });
      const waited = await waitForModel(client, proc, name, Date.now() + req.timeoutMs, 250, interruption.signal);
      interruption.check();
      if (waited.kind !== 'ready') {
        if (waited.kind === 'exited' && (await proc.exited).notFound) throw new CannotRun(`${command}: not found`);
        const why =
          waited.kind === 'failed'
            ? waited.reason
            : waited.kind === 'exited'
              ? `it exited with ${waited.exitCode ?? 'a signal'}`
              : `not within ${Math.round(req.timeoutMs / 1000)} s`;
        throw new CannotRun(
          `tritonserver did not get '${name}' ready (${why}): ${proc.lines.slice(-3).join(' | ').slice(0, 1500)}; tritonc verify ${req.plan.shown(req.plan.modelDir)} --runtime local says why`,
        );
      }
      const meta = await client.serverMetadata().catch(() => undefined);
      result.engine = `${[command, ...args].join(' ')}${meta ? ` (Triton ${meta.version})` : ''}`;
    } else {
      client = new KServeClient(req.runtime.url, { signal: interruption.signal, timeoutMs: req.timeoutMs });
      result.engine = (await reach(client)).engine;
      restoreState = { before: await whatTheServerHas(client, name), pending: false };
    }
    const host = new URL(client.baseUrl).host;
    for (const v of req.variants) {
      interruption.check();
      result.measured.push(await measureVariant(v, client, host));
    }
  } catch (e) {
    failure = !(e instanceof Interrupted) && interruption.caught ? new Interrupted(interruption.caught) : e;
  } finally {
    interruption.cleaningUp((signal) =>
      progress(heldSignalLine(signal, req.runtime.kind === 'local' ? 'stopping tritonserver' : `putting '${name}' back as the server had it`)),
    );
    try {
      // Each step runs whatever the one before it threw: the staged copy and the CSVs go in any case.
      try {
        if (restoreState && req.runtime.kind === 'server') {
          const back = new KServeClient(req.runtime.url, { timeoutMs: 30_000 });
          await restore(back, name, restoreState.before, restoreState.pending, result, Math.max(req.timeoutMs, RESTORE_MIN_MS), progress);
        }
      } finally {
        try {
          if (proc) await stop(proc, 15_000, progress, result);
        } finally {
          try {
            if (req.runtime.kind === 'local') removeSharedMemory(shmPrefix, result);
          } finally {
            staged?.remove();
            rmSync(csvDir, { recursive: true, force: true });
          }
        }
      }
    } finally {
      interruption.dispose();
    }
  }
  if (failure) {
    const back = result.notes.concat(result.problems.map((p) => p.message)).join('; ');
    if (failure instanceof Interrupted) throw new Interrupted(failure.signal, back || undefined);
    if (failure instanceof CannotRun && back) throw new CannotRun(`${failure.message}; ${back}`);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the run threw, passed on as it was
    throw failure;
  }
  return result;

  async function measureVariant(v: LoadTestVariant, client: KServeClient, host: string): Promise<VariantMeasurement> {
    const table: PerfTable = { file: v.name, load: 'concurrency', rows: [], latencies: [], unstable: [] };
    const out: VariantMeasurement = { name: v.name, settings: v.settings, config: v.config, table };
    progress(`${v.name}: loading its config onto '${name}'`);
    try {
      if (restoreState) restoreState.pending = true;
      await client.loadModel(name, configJson(v.config), req.timeoutMs);
      if (restoreState) restoreState.pending = false;
    } catch (e) {
      if (e instanceof KServeError && e.kind === 'http') {
        if (restoreState) restoreState.pending = false;
        const message = (e.serverMessage ?? e.message).trim();
        // The server's mode refuses every variant alike: say so once, with the way to start it.
        if (EXPLICIT_REFUSED.test(message)) {
          throw new CannotRun(
            `the server refuses to load configs ("${message}"): it runs with --model-control-mode=none (the default) or poll, so no variant can be loaded onto '${name}'. ` +
              `Start Triton with --model-control-mode=explicit --load-model=${name}, or leave out --runtime server and tune starts its own tritonserver`,
          );
        }
        out.failed = `Triton refused its config: ${message}`;
        return out;
      }
      interruption.check();
      if (e instanceof KServeError && e.kind === 'timeout')
        throw new CannotRun(
          `loading ${v.name} did not finish within ${Math.round(req.timeoutMs / 1000)} s; Triton cannot cancel a load, so it goes on in the server; raise --timeout`,
        );
      throw e;
    }
    const rows: PerfRow[] = [];
    for (const c of req.concurrency) {
      interruption.check();
      progress(`${v.name}: perf_analyzer at concurrency ${c}`);
      const level = await measureLevel({
        perfAnalyzer: req.perfAnalyzer,
        model: name,
        url: host,
        concurrency: c,
        measurementIntervalMs: req.measurementIntervalMs,
        percentile: req.percentile,
        ...(req.stabilityPercentage !== undefined ? { stabilityPercentage: req.stabilityPercentage } : {}),
        ...(req.maxTrials !== undefined ? { maxTrials: req.maxTrials } : {}),
        ...(req.sharedMemory !== undefined ? { sharedMemory: req.sharedMemory } : {}),
        csvFile: join(csvDir, `${v.name}-c${c}.csv`),
        runner,
        signal: interruption.signal,
      });
      interruption.check();
      if (level.kind === 'measured') {
        rows.push(level.row);
        if (!table.latencies.length) table.latencies = Object.keys(level.row.latencyUs);
      } else if (level.kind === 'unstable') {
        table.unstable!.push(c);
        progress(`${v.name}: no stable measurement at concurrency ${c} within ${level.windows} windows: marked unstable`);
      } else {
        out.failed =
          level.kind === 'timeout'
            ? `perf_analyzer did not finish concurrency ${c} within ${Math.round(level.ms / 1000)} s`
            : `perf_analyzer at concurrency ${c}: ${level.why}`;
        break;
      }
    }
    table.rows = rows.sort((a, b) => a.load - b.load);
    return out;
  }
}

// `tritonc verify` as a library call: prepare the model directory, run the chosen runtime, and turn
// the outcome into a report with an exit code (0 ok, 1 problems, 2 could not run, 130/143 interrupted).
import { basename, resolve } from 'node:path';
import { DEFAULT_TRITON_IMAGE } from './docker-args.js';
import { describeDockerRun, runDocker, type SignalSource } from './docker-runner.js';
import { CannotRun, Interrupted, signalExitCode } from './errors.js';
import type { RequestDescription } from './kserve-client.js';
import type { OrtLoader } from './ort-loader.js';
import { graphOptimizationLevel, runOrt } from './ort-runner.js';
import { batchSizes, prepareVerify, type VerifyPlan } from './plan.js';
import type { PortFinder } from './ports.js';
import type { ProcessRunner } from './process-runner.js';
import { describeServerRun, runServer } from './server-runner.js';
import { requestShape } from './shapes.js';
import { EXIT_CODES, type Runtime, type VerifyReport } from './types.js';
import { lintSync } from '../lint/engine.js';
import { DEFAULT_SERVER_OPTIONS, tritonServerArgs, type ServerOptions } from '../triton/server-options.js';

export interface VerifyOptions {
  /** The model directory (<repository>/<model>). */
  modelDir: string;
  cwd?: string;
  runtime?: Runtime;
  /** docker: the Triton image (default DEFAULT_TRITON_IMAGE). */
  image?: string;
  /** server: the base URL of Triton's HTTP endpoint. */
  server?: string;
  /** docker: 'all', 'none' or a device list '0,1'. */
  gpus?: string;
  /**
   * The tritonserver flags: docker starts the server with them; for a running server they say how it
   * was started (the local lint that explains a refusal uses them).
   */
  tritonServer?: ServerOptions;
  /** server: headers every request carries (--header), for servers with restricted APIs. */
  headers?: Record<string, string>;
  /** How long to wait for the model to load (docker/server); default 120 s. */
  timeoutMs?: number;
  /** Item shapes for inputs with variable dims (--shape NAME:D1,D2), over the config's model_warmup. */
  shapes?: { name: string; dims: number[] }[];
  /** The size sent for a -1 dim other than the batch dim (default 1). */
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  /** Replaceable parts, for tests and embedding. */
  deps?: {
    ortLoader?: OrtLoader;
    runner?: ProcessRunner;
    fetch?: typeof fetch;
    ports?: PortFinder;
    signals?: SignalSource;
    nameSuffix?: string;
    pollMs?: number;
  };
}

export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The first error tritonc's lint finds in the candidate config under the server's flags: what a
 * server that answers only "failed to poll from model repository" most likely logged.
 */
function likelyRefusal(plan: VerifyPlan, cwd: string, server: ServerOptions | undefined): { ruleId: string; text: string } | undefined {
  try {
    // The server loads the model files of its own repository: only the config is judged here.
    const result = lintSync([plan.modelDir], { cwd, configsOnly: true, ...(server ? { server } : {}) });
    const d = result.results.flatMap((r) => r.diagnostics).find((x) => x.severity === 'error' && x.file === plan.configPath);
    return d ? { ruleId: d.ruleId, text: `${plan.shown(d.file)}:${d.range.start.line}:${d.range.start.column} ${d.ruleId}: ${d.message}` } : undefined;
  } catch {
    // A config lint cannot read says nothing the server's answer did not.
    return undefined;
  }
}

function emptyReport(options: VerifyOptions, plan?: VerifyPlan): VerifyReport {
  return {
    runtime: options.runtime ?? 'ort',
    model: plan?.modelName ?? basename(resolve(options.cwd ?? process.cwd(), options.modelDir)),
    modelDir: plan ? plan.shown(plan.modelDir) : options.modelDir,
    configPath: plan ? plan.shown(plan.configPath) : '',
    outcome: 'ok',
    exitCode: EXIT_CODES.ok,
    runs: [],
    problems: [],
    notes: [],
  };
}

export async function verifyModel(options: VerifyOptions): Promise<VerifyReport> {
  const cwd = options.cwd ?? process.cwd();
  const runtime = options.runtime ?? 'ort';
  const deps = options.deps ?? {};
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let report = emptyReport(options);
  try {
    const plan = prepareVerify(options.modelDir, cwd, options.shapes);
    report = emptyReport(options, plan);
    const common = { progress: options.progress, dynamicDimSize: options.dynamicDimSize };
    if (runtime === 'ort') {
      await runOrt(plan, report, { ...common, loader: deps.ortLoader });
    } else if (runtime === 'docker') {
      await runDocker(plan, report, {
        ...common, image: options.image ?? DEFAULT_TRITON_IMAGE, gpus: options.gpus, timeoutMs, serverArgs: tritonServerArgs(options.tritonServer ?? DEFAULT_SERVER_OPTIONS),
        runner: deps.runner, ports: deps.ports, signals: deps.signals, nameSuffix: deps.nameSuffix, fetch: deps.fetch, pollMs: deps.pollMs,
      });
    } else {
      if (!options.server) throw new CannotRun('--runtime server needs --server URL (Triton\'s HTTP endpoint, e.g. http://localhost:8000)');
      await runServer(plan, report, {
        ...common, url: options.server, timeoutMs, fetch: deps.fetch, signals: deps.signals,
        ...(options.headers ? { headers: options.headers } : {}),
        explainRefusal: () => likelyRefusal(plan, cwd, options.tritonServer),
      });
    }
    if (report.problems.length) {
      report.outcome = 'problems';
      report.exitCode = EXIT_CODES.problems;
    }
  } catch (e) {
    if (e instanceof CannotRun) {
      report.outcome = 'cannot-run';
      report.exitCode = EXIT_CODES.cannotRun;
      report.error = e.message;
    } else if (e instanceof Interrupted) {
      report.outcome = 'interrupted';
      report.exitCode = signalExitCode(e.signal);
      report.error = `${e.message}; ${runtime === 'docker' ? 'the container was removed' : runtime === 'server' ? 'the model was put back as the server had it (see the notes)' : 'nothing was left running'}`;
    } else {
      throw e;
    }
  }
  return report;
}

/** What --dry-run prints: the commands and requests verify would run, none of them run. */
export interface DryRun {
  runtime: Runtime;
  model: string;
  /** ort: the session verify would open and the inputs it would feed. */
  ort?: { modelFile: string | undefined; sessionOptions: object; runs: { batchSize: number | null; inputs: { name: string; dataType: string; shape: number[] }[] }[] };
  /** docker: the `docker run` argument array (argv[0] = docker). */
  command?: string[];
  requests: RequestDescription[];
  /** docker: the removal that always runs at the end. */
  cleanup?: string[];
}

export async function dryRunVerify(options: VerifyOptions): Promise<DryRun> {
  const cwd = options.cwd ?? process.cwd();
  const runtime = options.runtime ?? 'ort';
  const deps = options.deps ?? {};
  const plan = prepareVerify(options.modelDir, cwd, options.shapes);
  const dynamicSize = options.dynamicDimSize ?? 1;
  if (runtime === 'ort') {
    return {
      runtime, model: plan.modelName, requests: [],
      ort: {
        modelFile: plan.onnxFile && plan.shown(plan.onnxFile),
        sessionOptions: { executionProviders: ['cpu'], graphOptimizationLevel: graphOptimizationLevel(plan.config.optimization?.graph?.level), logSeverityLevel: 3 },
        runs: batchSizes(plan.maxBatchSize).map((b) => ({
          batchSize: b ?? null,
          inputs: plan.inputs.map((i) => ({ name: i.name, dataType: i.dataType, shape: requestShape(i.modelDims, b, dynamicSize, i.modelDims === i.dims ? plan.sizes.get(i.name)?.dims : undefined) })),
        })),
      },
    };
  }
  if (runtime === 'docker') {
    const d = await describeDockerRun(plan, {
      image: options.image ?? DEFAULT_TRITON_IMAGE, gpus: options.gpus, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, serverArgs: tritonServerArgs(options.tritonServer ?? DEFAULT_SERVER_OPTIONS),
      dynamicDimSize: dynamicSize, ports: deps.ports, nameSuffix: deps.nameSuffix,
    });
    return { runtime, model: plan.modelName, command: d.command, requests: d.requests, cleanup: d.cleanup };
  }
  if (!options.server) throw new CannotRun('--runtime server needs --server URL (Triton\'s HTTP endpoint, e.g. http://localhost:8000)');
  return { runtime, model: plan.modelName, requests: describeServerRun(plan, { url: options.server, dynamicDimSize: dynamicSize }) };
}


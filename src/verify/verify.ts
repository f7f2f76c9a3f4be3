// `tritonc verify` as a library call: prepare the model directory, run the chosen runtime, and turn
// the outcome into a report with an exit code (0 ok, 1 problems, 2 could not run, 130/143 interrupted).
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { serverVersionWarning } from './server-version.js';
import { DEFAULT_TARGET, targetJson } from '../triton/releases/target.js';
import type { TritonTarget } from '../triton/releases/target.js';
import { CannotRun, Interrupted, signalExitCode } from './errors.js';
import { prepareVerify, type VerifyPlan } from './plan.js';
import type { VerifyOptions } from './options.js';
import { RUNTIMES } from './runtimes/index.js';
import type { RuntimeDryRun, VerifyRuntime } from './runtimes/runtime.js';
import { EXIT_CODES, type Runtime, type VerifyReport } from './types.js';
import { lintSync } from '../lint/engine.js';
import type { ServerOptions } from '../triton/server-options.js';
import { DEFAULT_ATOL, DEFAULT_RTOL, type ReferenceOptions } from './reference.js';
import { referenceInputs } from './reference-inputs.js';
import { loadInputFiles } from './user-inputs/load.js';

export type { VerifyOptions };

export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The first error tritonc's lint finds in the candidate config under the server's flags: what a
 * server that answers only "failed to poll from model repository" most likely logged.
 */
function likelyRefusal(
  plan: VerifyPlan,
  cwd: string,
  server: ServerOptions | undefined,
  target: TritonTarget | undefined,
): { ruleId: string; text: string } | undefined {
  try {
    // The server loads the model files of its own repository: only the config is judged here, for the Triton named.
    const flags = { ...(server ?? {}), ...(target ? { target } : {}) };
    const result = lintSync([plan.modelDir], { cwd, configsOnly: true, server: flags });
    const d = result.results.flatMap((r) => r.diagnostics).find((x) => x.severity === 'error' && x.file === plan.configPath);
    return d ? { ruleId: d.ruleId, text: `${plan.shown(d.file)}:${d.range.start.line}:${d.range.start.column} ${d.ruleId}: ${d.message}` } : undefined;
  } catch {
    // A config lint cannot read says nothing the server's answer did not.
    return undefined;
  }
}

function emptyReport(options: VerifyOptions, plan?: VerifyPlan): VerifyReport {
  return {
    runtime: options.runtime ?? RUNTIMES[0]!.name,
    model: plan?.modelName ?? basename(resolve(options.cwd ?? process.cwd(), options.modelDir)),
    modelDir: plan ? plan.shown(plan.modelDir) : options.modelDir,
    configPath: plan ? plan.shown(plan.configPath) : '',
    outcome: 'ok',
    exitCode: EXIT_CODES.ok,
    runs: [],
    problems: [],
    notes: [],
    triton: targetJson(options.target ?? DEFAULT_TARGET),
  };
}

/** The runtime `options` name (default the first of RUNTIMES, ONNX Runtime). */
function runtimeOf(options: VerifyOptions): VerifyRuntime {
  const name = options.runtime ?? RUNTIMES[0]!.name;
  const runtime = RUNTIMES.find((r) => r.name === name);
  if (!runtime) throw new CannotRun(`no runtime '${name}': tritonc verify runs ${RUNTIMES.map((r) => r.name).join(', ')}`);
  return runtime;
}

/** --reference resolved: the ONNX model (--reference-model, else the one Triton loads) and the tolerances. */
function referenceOf(options: VerifyOptions, plan: VerifyPlan, cwd: string): ReferenceOptions | undefined {
  if (!options.reference) return undefined;
  const modelFile = options.reference.modelFile ? resolve(cwd, options.reference.modelFile) : plan.onnxFile;
  if (!modelFile)
    throw new CannotRun(
      `--reference ort runs an ONNX model, and ${plan.shown(plan.modelDir)} has none for Triton to load: give the ONNX it was made from with --reference-model FILE`,
    );
  // Before anything is started or loaded: a missing --reference-model would otherwise be found only
  // after the model was served (a server's model reloaded for nothing).
  if (options.reference.modelFile && !isFile(modelFile)) throw new CannotRun(`--reference-model ${plan.shown(modelFile)}: not a file`);
  // The user's inputs are read, and checked against the config's inputs, before anything starts too.
  const inputs = options.reference.inputs ? loadInputFiles(options.reference.inputs, cwd, plan.shown) : [];
  if (inputs.length && plan.inputs.length) referenceInputs(inputs, plan.inputs, plan.maxBatchSize, options.dynamicDimSize ?? 1, plan.sizes);
  return {
    modelFile,
    ...(inputs.length ? { inputs } : {}),
    atol: options.reference.atol ?? DEFAULT_ATOL,
    rtol: options.reference.rtol ?? DEFAULT_RTOL,
    ...(options.deps?.ortLoader ? { loader: options.deps.ortLoader } : {}),
  };
}

export async function verifyModel(options: VerifyOptions): Promise<VerifyReport> {
  const cwd = options.cwd ?? process.cwd();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let report = emptyReport(options);
  let afterInterrupt = 'nothing was left running';
  try {
    const runtime = runtimeOf(options);
    afterInterrupt = runtime.afterInterrupt;
    const plan = prepareVerify(options.modelDir, cwd, options.shapes);
    report = emptyReport(options, plan);
    const reference = referenceOf(options, plan, cwd);
    await runtime.run(plan, report, options, {
      cwd,
      timeoutMs,
      explainRefusal: () => likelyRefusal(plan, cwd, options.serverOptions, options.target),
      ...(reference ? { reference } : {}),
    });
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
      report.error = `${e.message}; ${e.after ?? afterInterrupt}`;
    } else {
      throw e;
    }
  } finally {
    // A server of another release than the target: its answers and tritonc's verdicts may differ.
    const warning = report.serverVersion === undefined ? undefined : serverVersionWarning(report.serverVersion, options.target);
    if (warning) report.warnings = [warning];
  }
  return report;
}

/** What --dry-run prints: the commands and requests verify would run, none of them run. */
export interface DryRun extends RuntimeDryRun {
  runtime: Runtime;
  model: string;
}

export async function dryRunVerify(options: VerifyOptions): Promise<DryRun> {
  const cwd = options.cwd ?? process.cwd();
  const runtime = runtimeOf(options);
  const plan = prepareVerify(options.modelDir, cwd, options.shapes);
  return {
    runtime: runtime.name,
    model: plan.modelName,
    ...(await runtime.dryRun(plan, options, { cwd, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS })),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

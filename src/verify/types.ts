// The verify report: what every runtime produces and what the text and JSON formats print.
// `--format json` prints this object as is, so its field names are part of the CLI contract.
import type { TargetJson } from '../diagnostics.js';

/** The name of a verify runtime (src/verify/runtimes: ort, docker, server). */
export type Runtime = string;

/**
 * ok: loaded and answered as configured (exit 0); problems: refused, failed at a batch size, or
 * answered with other shapes/types (exit 1); cannot-run: the check could not run (exit 2);
 * interrupted: stopped by SIGINT/SIGTERM (exit 130/143).
 */
export type Outcome = 'ok' | 'problems' | 'cannot-run' | 'interrupted';

/** A finding about the config or the model; each one makes the exit code 1. */
export interface VerifyProblem {
  /** Which check found it. */
  kind: 'io-name' | 'io-datatype' | 'io-shape' | 'missing-dynamic-axis' | 'load' | 'run' | 'output' | 'restore' | 'accuracy';
  message: string;
  tensor?: string;
  /** Set for findings at one batch size (null: a model without batching, run at its fixed shape). */
  batchSize?: number | null;
  /** The tritonc lint rule that catches this statically, where there is one. */
  ruleId?: string;
}

/** One tensor verify sent or got back. */
export interface TensorReport {
  name: string;
  /** The config's TYPE_* name (for outputs: the type the model really returned). */
  dataType: string;
  shape: number[];
}

export interface OutputCheck extends TensorReport {
  /** The config's full shape for this output ([-1] + dims when batching) and its data type. */
  expectedShape: number[];
  expectedDataType: string;
  ok: boolean;
}

export interface BatchRun {
  /** The batch size sent, or null for a model without batching (max_batch_size 0). */
  batchSize: number | null;
  ok: boolean;
  /** Wall time of the run (ORT) or the HTTP inference request (docker/server), in milliseconds. */
  ms?: number;
  inputs: TensorReport[];
  outputs: OutputCheck[];
  /** The runtime's own error when the run failed. */
  error?: string;
}

/** A Triton log or error line, with the tritonc lint rule that catches the same problem before a load. */
export interface TritonMessage {
  text: string;
  ruleId?: string;
  /** True when the line is about the machine (no GPU), not the config. */
  environment?: boolean;
  /** A backend Triton ships that the server has no library of (with `environment`). */
  missingBackend?: string;
}

/** One field where the effective config (what Triton runs) differs from config.pbtxt. */
export interface ConfigDifference {
  /** e.g. `instance_group[0].count`, `version_policy.latest.num_versions`. */
  path: string;
  change: 'added' | 'changed' | 'removed';
  /** JSON text of the value in config.pbtxt (absent for 'added'). */
  local?: string;
  /** JSON text of the value in the effective config (absent for 'removed'). */
  effective?: string;
}

export interface VerifyReport {
  runtime: Runtime;
  model: string;
  modelDir: string;
  configPath: string;
  /** The ONNX file the ort runtime loaded. */
  modelFile?: string;
  outcome: Outcome;
  exitCode: number;
  /** What ran the model: "ONNX Runtime 1.30.0 (CPU)", "nvcr.io/nvidia/tritonserver:26.07-py3", a server URL. */
  engine?: string;
  load?: { ok: boolean; ms?: number; detail?: string };
  /** Lines Triton logged (docker) or answered (server) when the load failed, mapped to rule ids. */
  tritonMessages?: TritonMessage[];
  /** The effective config against config.pbtxt (docker/server runtimes). */
  configDiff?: ConfigDifference[];
  runs: BatchRun[];
  /** --reference: the served model's outputs against the reference runtime's, on the same seeded inputs. */
  reference?: ReferenceReport;
  problems: VerifyProblem[];
  /** The version the server answered on GET /v2 (docker, local and server runtimes). */
  serverVersion?: string;
  /** What the user should know before trusting the verdicts: a server of another release than the target. */
  warnings?: string[];
  /** What the check did not cover, and other things worth knowing. */
  notes: string[];
  /** The Triton release the verdicts are for (--triton-version; told nothing, the newest tritonc knows). */
  triton: TargetJson;
  /** Why the check could not run (outcome cannot-run / interrupted). */
  error?: string;
}

export interface ReferenceReport {
  /** What the reference ran on: "ONNX Runtime (CPU)". */
  against: string;
  /** The ONNX model it ran. */
  modelFile: string;
  atol: number;
  rtol: number;
  /** The batch size of the compared inference (null: the fixed shape). */
  batchSize: number | null;
  /** Where each input of the compared inference came from: the user's file (`x.npy`, `in.npz[x]`), or `seeded`. */
  inputs: { name: string; from: string }[];
  outputs: OutputAccuracy[];
}

/** One output of the served model against the reference's. */
export interface OutputAccuracy {
  name: string;
  /** The largest |served - reference| over the output's elements. */
  maxAbsError: number;
  /** The largest |served - reference| / |reference| (elements where the reference is 0 count by their absolute error only). */
  maxRelError: number;
  /** The largest |reference| over the output's elements: the scale atol is measured against. */
  largestReference: number;
  /** Elements off by more than atol + rtol * |reference|. */
  mismatched: number;
  elements: number;
  /** False when it differs, cannot be compared, or the tolerance decided nothing (`undecided`). */
  ok: boolean;
  /**
   * atol + rtol * |reference| reaches |reference| at every element: an output of zeros would pass
   * too, so the comparison decided nothing (exit 2 unless something else failed).
   */
  undecided?: true;
  /** Why the output could not be compared element by element (missing, another shape, NaN or inf). */
  problem?: string;
}

export const EXIT_CODES = { ok: 0, problems: 1, cannotRun: 2 } as const;

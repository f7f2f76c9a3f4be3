// What every runtime starts from: the model directory, its config.pbtxt parsed and checked for syntax,
// the tensors the config declares (in the form verify sends them), and the ONNX file Triton would load.
import { inputSizes, type InputSize } from './input-sizes.js';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { toProtoJson, type JsonValue } from '../config/proto-json.js';
import { loadSchema } from '../config/schema.js';
import { formatPosition } from '../diagnostics.js';
import { Workspace } from '../workspace/workspace.js';
import { CannotRun } from './errors.js';
import { displayPath } from '../util/display-path.js';

/** A config input or output as verify uses it. */
export interface TensorSpec {
  name: string;
  /** The config's TYPE_* name; a number when the config uses an enum value the schema lacks. */
  dataType: string;
  /** dims as written (the client's view). */
  dims: number[];
  /** The shape Triton hands the model: reshape.shape when there is a reshape, else dims. */
  modelDims: number[];
  optional: boolean;
}

export interface VerifyPlan {
  modelName: string;
  modelDir: string;
  /** The model repository: the model directory's parent (mounted into the container). */
  repoDir: string;
  configPath: string;
  config: ModelConfig;
  /** The config in protobuf JSON: what the load API's `config` parameter takes. */
  configJson: { [k: string]: JsonValue };
  maxBatchSize: number;
  inputs: TensorSpec[];
  outputs: TensorSpec[];
  /** The ONNX file Triton would load, when the model is an ONNX model. */
  onnxFile: string | undefined;
  /** Paths as the user should see them (relative to the working directory). */
  shown: (path: string) => string;
  /** Sizes for inputs with variable dims, from --shape or the config's model_warmup (input-sizes.ts). */
  sizes: ReadonlyMap<string, InputSize>;
}

const num = (v: number | bigint): number => Number(v);

function specOf(t: {
  name?: string;
  data_type?: string | number;
  dims?: (number | bigint)[];
  reshape?: { shape?: (number | bigint)[] };
  optional?: boolean;
}): TensorSpec {
  const dims = (t.dims ?? []).map(num);
  return {
    name: t.name ?? '',
    dataType: String(t.data_type ?? 'TYPE_INVALID'),
    dims,
    modelDims: t.reshape ? (t.reshape.shape ?? []).map(num) : dims,
    optional: Boolean(t.optional),
  };
}

/** The tensors a config declares, in verify's form. */
export function tensorSpecs(config: ModelConfig): { inputs: TensorSpec[]; outputs: TensorSpec[] } {
  return { inputs: (config.input ?? []).map(specOf), outputs: (config.output ?? []).map(specOf) };
}

/** The batch sizes verify runs: 1 and max_batch_size, or one run at the fixed shape (undefined) without batching. */
export function batchSizes(maxBatchSize: number): (number | undefined)[] {
  if (maxBatchSize <= 0) return [undefined];
  return maxBatchSize === 1 ? [1] : [1, maxBatchSize];
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Reads MODEL_DIR (or the directory of a config.pbtxt given instead). Throws CannotRun for a missing
 * directory or config and for syntax errors (with file:line:column), since no runtime can start then.
 */
export function prepareVerify(path: string, cwd: string, shapes: readonly { name: string; dims: number[] }[] = []): VerifyPlan {
  const shown = (p: string): string => displayPath(p, cwd);
  let modelDir = resolve(cwd, path);
  if (!existsSync(modelDir))
    throw new CannotRun(`${path}: no such directory; give a model directory (<repository>/<model>, holding config.pbtxt and a version directory)`);
  if (!isDir(modelDir)) {
    if (basename(modelDir) !== 'config.pbtxt')
      throw new CannotRun(`${path}: not a model directory; give <repository>/<model>, the directory holding config.pbtxt`);
    modelDir = dirname(modelDir);
  }
  const workspace = new Workspace();
  const md = workspace.model(modelDir).layout();
  if (!md.configPath) {
    throw new CannotRun(`${shown(modelDir)} has no config.pbtxt to verify. Write one with: tritonc generate ${shown(modelDir)} --write`);
  }
  const doc = workspace.config(md.configPath);
  if (!('value' in doc)) throw new CannotRun(`${shown(md.configPath)}: ${doc.message}`);
  const errors = doc.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    const lines = errors.map((d) => `${formatPosition(shown(d.file), d.range.start)}: ${d.message}`);
    throw new CannotRun(`${shown(md.configPath)} does not parse, so no runtime can load it:\n${lines.join('\n')}`);
  }
  const config = doc.value;
  const { inputs, outputs } = tensorSpecs(config);
  // The file Triton opens for this config: core's auto-fill decides the backend, the version policy the version.
  const located = workspace.model(modelDir, md.name).modelFile(config);
  return {
    modelName: md.name,
    modelDir,
    repoDir: dirname(modelDir),
    configPath: md.configPath,
    config,
    configJson: toProtoJson(config as Record<string, unknown>, loadSchema().modelConfig),
    maxBatchSize: config.max_batch_size ?? 0,
    inputs,
    outputs,
    onnxFile: located.format === 'onnx' ? located.path : undefined,
    shown,
    sizes: inputSizes(inputs, config, shapes),
  };
}

/** Whether Triton would place instances on GPUs: a KIND_GPU group, or KIND_AUTO / no group (GPU when one exists). */
export function wantsGpu(config: ModelConfig): boolean {
  const groups = config.instance_group ?? [];
  if (!groups.length) return true;
  return groups.some((g) => g.kind === undefined || g.kind === 'KIND_GPU' || g.kind === 'KIND_AUTO' || g.kind === 0 || g.kind === 1);
}

// Which model file Triton loads for a model directory (core VersionsToLoad, AutoCompleteBackendFields;
// onnxruntime_backend ModelState::LoadModel): the greatest
// version the version policy selects, the backend's default file name (or default_model_filename),
// and for ONNX a directory of that name holding model.onnx. Only the file Triton would really open
// is read, so a stale model in an older version directory never decides a lint result.
import { join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { selectVersions, type ModelDir } from '../repo/model-dir.js';
import { pathKind as kindOf } from '../util/path-kind.js';

export type ModelFormat = 'onnx' | 'tensorrt' | 'pytorch' | 'other' | 'none';

export interface ModelFile {
  format: ModelFormat;
  /** The version whose file it is; undefined when the policy selects none. */
  version: number | undefined;
  /** The file Triton opens; undefined when it does not exist (see `expected`). */
  path: string | undefined;
  /** Where Triton looks for it, whether or not it exists. */
  expected: string | undefined;
}

const DEFAULT_FILE: Partial<Record<ModelFormat, string>> = { onnx: 'model.onnx', tensorrt: 'model.plan', pytorch: 'model.pt' };


/**
 * The model format, as Triton's backend auto-fill decides it (core AutoCompleteBackendFields), for the
 * formats tritonc reads.
 */
export function modelFormat(dir: ModelDir, config: ModelConfig): ModelFormat {
  const platform = config.platform ?? '';
  const backend = config.backend ?? '';
  const filename = config.default_model_filename ?? '';
  if (platform === 'ensemble') return 'none';
  if (backend === 'onnxruntime' || platform === 'onnxruntime_onnx') return 'onnx';
  if (backend === 'tensorrt' || platform === 'tensorrt_plan') return 'tensorrt';
  if (backend === 'pytorch' || platform === 'pytorch_libtorch') return 'pytorch';
  if (backend === 'python') return 'none';
  if (backend || platform) return 'other';
  if (filename) return filename === 'model.onnx' ? 'onnx' : filename === 'model.plan' ? 'tensorrt' : filename === 'model.pt' ? 'pytorch' : 'other';
  // Nothing said: Triton looks in the first sub-directory by name; TensorRT is checked before ONNX.
  const first = dir.sortedSubdirs[0];
  if (first === undefined) return 'none';
  if (kindOf(join(dir.path, first, 'model.plan')) === 'file') return 'tensorrt';
  if (kindOf(join(dir.path, first, 'model.onnx')) !== undefined) return 'onnx';
  if (kindOf(join(dir.path, first, 'model.pt')) === 'file') return 'pytorch';
  return 'other';
}

export function resolveModelFile(dir: ModelDir, config: ModelConfig): ModelFile {
  const format = modelFormat(dir, config);
  const versions = selectVersions(config.version_policy, dir.versionDirs);
  const latest = versions[versions.length - 1];
  const name = config.default_model_filename || DEFAULT_FILE[format];
  if (format === 'none' || !latest || !name) return { format, version: latest?.version, path: undefined, expected: undefined };
  const expected = join(latest.path, name);
  const kind = kindOf(expected);
  // Something that is not a regular file is still what Triton opens: reading it reports why it fails.
  if (kind === 'file' || kind === 'other') return { format, version: latest.version, path: expected, expected };
  if (kind === 'dir' && format === 'onnx') {
    // A directory named like the model file holds model.onnx plus its external data (ORT's ModelState::LoadModel).
    const inner = join(expected, 'model.onnx');
    return { format, version: latest.version, path: kindOf(inner) === 'file' ? inner : undefined, expected: inner };
  }
  return { format, version: latest.version, path: undefined, expected };
}

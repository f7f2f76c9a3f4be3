// Which model file Triton loads for a model directory, the one place tritonc decides it: the backend
// core's AutoCompleteBackendFields settled on (pass the autofilled config), the greatest version the
// version policy selects (core model_lifecycle.cc VersionsToLoad), and default_model_filename
// inside the directory named by that version's number: the backends join
// <repository path>/<std::to_string(version)>/<default_model_filename> (onnxruntime_backend
// ModelState::LoadModel; tensorrt_backend, pytorch_backend alike). For ONNX a directory of that
// name holds model.onnx and its external data; a TensorFlow SavedModel is the directory itself
// (tensorflow_backend ModelState::AutoCompleteConfig joins the same path and loads the directory). Only the file Triton would really open is read,
// so a stale model in an older version directory never decides a result.
import { join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import type { ModelDir } from '../repo/model-dir.js';
import { selectVersions } from './version-policy.js';
import type { PathKind } from '../util/path-kind.js';
import { directoryModelFile, modelFileName, modelFormatOf, modelIsDirectory, type ModelFormat } from './backend-records.js';

export type { ModelFormat };

export interface ModelFile {
  format: ModelFormat;
  /** The version whose file it is; undefined when the policy selects none. */
  version: number | undefined;
  /** The file Triton opens; undefined when it does not exist (see `expected`). */
  path: string | undefined;
  /** Where Triton looks for it, whether or not it exists. */
  expected: string | undefined;
}

/** The format of the file a backend opens; 'none' for models without one (ensembles, Python's model.py). */
export const modelFormat = (config: ModelConfig): ModelFormat => modelFormatOf(config);

/**
 * The model file of `autofilled` (a config after core's backend autofill) in `layout`; `kind` says
 * what is at a path (the workspace answers, overlays included).
 */
export function locateModelFile(layout: ModelDir, autofilled: ModelConfig, kind: (path: string) => PathKind | undefined): ModelFile {
  const format = modelFormat(autofilled);
  const latest = selectVersions(autofilled.version_policy, layout.versionDirs).at(-1);
  const name = modelFileName(autofilled);
  if (format === 'none' || !latest || !name) return { format, version: latest?.version, path: undefined, expected: undefined };
  const expected = join(layout.path, String(latest.version), name);
  const found = kind(expected);
  // A SavedModel is a directory: Triton opens it as a whole (its reader reads saved_model.pb inside).
  if (modelIsDirectory(autofilled)) return { format, version: latest.version, path: found ? expected : undefined, expected };
  // Something that is not a regular file is still what Triton opens: reading it reports why it fails.
  if (found === 'file' || found === 'other') return { format, version: latest.version, path: expected, expected };
  const holds = directoryModelFile(autofilled);
  if (found === 'dir' && holds) {
    // A directory named like the model file holds the model plus its external data (ORT's ModelState::LoadModel).
    const inner = join(expected, holds);
    return { format, version: latest.version, path: kind(inner) === 'file' ? inner : undefined, expected: inner };
  }
  return { format, version: latest.version, path: undefined, expected };
}

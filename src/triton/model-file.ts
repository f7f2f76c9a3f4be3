// Which model file Triton loads for a model directory, the one place tritonc decides it: the backend
// core's AutoCompleteBackendFields settled on (pass the autofilled config), the greatest version the
// version policy selects (core model_lifecycle.cc VersionsToLoad), and default_model_filename
// inside the directory named by that version's number: the backends join
// <repository path>/<std::to_string(version)>/<default_model_filename> (onnxruntime_backend
// ModelState::LoadModel; tensorrt_backend, pytorch_backend alike). For ONNX a directory of that
// name holds model.onnx and its external data. Only the file Triton would really open is read,
// so a stale model in an older version directory never decides a result.
import { join } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { selectVersions, type ModelDir } from '../repo/model-dir.js';
import type { PathKind } from '../util/path-kind.js';

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

/** The format of the file a backend opens; 'none' for models without one (ensembles, Python's model.py). */
export function modelFormat(config: ModelConfig): ModelFormat {
  if (config.platform === 'ensemble') return 'none';
  switch (config.backend ?? '') {
    case 'onnxruntime':
      return 'onnx';
    case 'tensorrt':
      return 'tensorrt';
    case 'pytorch':
      // The AOTInductor package (model.pt2) is not a TorchScript file.
      return config.default_model_filename === 'model.pt2' ? 'other' : 'pytorch';
    case 'python':
    case '':
      return 'none';
    default:
      return 'other';
  }
}

/**
 * The model file of `autofilled` (a config after core's backend autofill) in `layout`; `kind` says
 * what is at a path (the workspace answers, overlays included).
 */
export function locateModelFile(layout: ModelDir, autofilled: ModelConfig, kind: (path: string) => PathKind | undefined): ModelFile {
  const format = modelFormat(autofilled);
  const latest = selectVersions(autofilled.version_policy, layout.versionDirs).at(-1);
  const name = autofilled.default_model_filename;
  if (format === 'none' || !latest || !name) return { format, version: latest?.version, path: undefined, expected: undefined };
  const expected = join(layout.path, String(latest.version), name);
  const found = kind(expected);
  // Something that is not a regular file is still what Triton opens: reading it reports why it fails.
  if (found === 'file' || found === 'other') return { format, version: latest.version, path: expected, expected };
  if (found === 'dir' && format === 'onnx') {
    // A directory named like the model file holds model.onnx plus its external data (ORT's ModelState::LoadModel).
    const inner = join(expected, 'model.onnx');
    return { format, version: latest.version, path: kind(inner) === 'file' ? inner : undefined, expected: inner };
  }
  return { format, version: latest.version, path: undefined, expected };
}

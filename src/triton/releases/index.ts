// Every fact that changed across Triton releases, gathered for `tritonc releases` and docs/releases.md.
// A fact lives where it is used (a backend's folder, the config schema, core's checks) and is listed
// here once.
import type { ReleaseChange } from './changes.js';
// model config: the fields of model_config.proto by release (triton/schema-releases.ts)
import { MODEL_CONFIG_CHANGES } from '../schema-releases.js';
// onnxruntime / tensorrt (h45c): the bundled ONNX Runtime and its limits, the ORT backend's types and accelerators.
import { ONNXRUNTIME_CHANGES } from '../backends/onnxruntime/releases.js';

export const RELEASE_CHANGES: readonly ReleaseChange[] = Object.freeze([
  // model config
  ...MODEL_CONFIG_CHANGES,
  // onnxruntime / tensorrt (h45c)
  ...ONNXRUNTIME_CHANGES,
]);

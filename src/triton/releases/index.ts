// Every fact that changed across Triton releases, gathered for `tritonc releases` and docs/releases.md.
// A fact lives where it is used (a backend's folder, the config schema, core's checks) and is listed
// here once.
import type { ReleaseChange } from './changes.js';
// model config: the fields of model_config.proto by release (triton/schema-releases.ts)
import { MODEL_CONFIG_CHANGES } from '../schema-releases.js';
// onnxruntime / tensorrt: the bundled ONNX Runtime and its limits, the ORT backend's types and accelerators.
import { ONNXRUNTIME_CHANGES } from '../backends/onnxruntime/releases.js';

// backends: the releases that build each (backends/<backend>/record.ts `releases`)
import { BACKEND_RECORDS } from '../backend-records.js';
// core: load-time checks and auto-fill (triton/core-releases.ts)
import { CORE_RELEASE_CHANGES } from '../core-releases.js';
// containers, server flag defaults, TensorRT-LLM and vLLM by release (issue 45, h45d)
import { TRTLLM_CHANGES } from '../backends/tensorrtllm/bundled.js';
import { VLLM_CHANGES } from '../backends/vllm/bundled.js';
import { VLLM_PARAMETER_CHANGES } from '../backends/vllm/parameters.js';
import { FLAVOUR_CHANGES } from './flavours.js';
import { SERVER_FLAG_CHANGES } from './server-flag-defaults.js';

const BACKEND_CHANGES: readonly ReleaseChange[] = BACKEND_RECORDS.flatMap((b) =>
  b.releases
    ? [
        {
          area: 'server' as const,
          what: `the ${b.title ?? b.name} backend is built (backend "${b.name}"${b.platforms.length ? `, platforms ${b.platforms.map((p) => p.name).join(', ')}` : ''})`,
          releases: b.releases,
          source: b.releasesSource ?? b.source,
        },
      ]
    : [],
);

export const RELEASE_CHANGES: readonly ReleaseChange[] = Object.freeze([
  // model config
  ...MODEL_CONFIG_CHANGES,
  // backends
  ...BACKEND_CHANGES,
  // onnxruntime / tensorrt
  ...ONNXRUNTIME_CHANGES,
  // core: load-time checks and auto-fill
  ...CORE_RELEASE_CHANGES,
  // containers, server flag defaults, TensorRT-LLM and vLLM by release (issue 45, h45d)
  ...FLAVOUR_CHANGES,
  ...SERVER_FLAG_CHANGES,
  ...TRTLLM_CHANGES,
  ...VLLM_CHANGES,
  ...VLLM_PARAMETER_CHANGES,
]);

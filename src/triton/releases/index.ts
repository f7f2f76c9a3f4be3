// Every fact that changed across Triton releases, gathered for `tritonc releases` and docs/releases.md.
// A fact lives where it is used (a backend's folder, the config schema, core's checks) and is listed
// here once.
import type { ReleaseChange } from './changes.js';
// containers, server flag defaults, TensorRT-LLM and vLLM by release (issue 45, h45d)
import { TRTLLM_CHANGES } from '../backends/tensorrtllm/bundled.js';
import { VLLM_CHANGES } from '../backends/vllm/bundled.js';
import { FLAVOUR_CHANGES } from './flavours.js';
import { SERVER_FLAG_CHANGES } from './server-flag-defaults.js';

export const RELEASE_CHANGES: readonly ReleaseChange[] = Object.freeze([
  // containers, server flag defaults, TensorRT-LLM and vLLM by release (issue 45, h45d)
  ...FLAVOUR_CHANGES,
  ...SERVER_FLAG_CHANGES,
  ...TRTLLM_CHANGES,
  ...VLLM_CHANGES,
]);

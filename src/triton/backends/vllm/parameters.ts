// The model-level `parameters` the vLLM backend reads from config.pbtxt (src/model.py
// _get_bool_config_param), each from the release whose vllm_backend branch first reads it.
import { holdsIn, type Releases, type TritonRelease } from '../../releases/catalog.js';
import type { ReleaseChange } from '../../releases/changes.js';

const SOURCE = 'triton-inference-server/vllm_backend src/model.py';

/** Each key and the releases whose backend reads it. */
const KEYS: readonly { key: string; releases: Releases; source: string }[] = Object.freeze([
  // vllm_backend 5b68128 "Report histogram metrics" / 50c665d "vLLM counter metrics": in r24.08, not r24.07.
  { key: 'REPORT_CUSTOM_METRICS', releases: Object.freeze({ since: '24.08' }), source: `${SOURCE} @ r24.08 (absent @ r24.07)` },
  { key: 'ENABLE_VLLM_HEALTH_CHECK', releases: Object.freeze({ since: '24.12' }), source: `${SOURCE} @ r24.12 (absent @ r24.11)` },
]);

/** The keys `release`'s vLLM backend reads. */
export function vllmParameterKeys(release: TritonRelease): string[] {
  return KEYS.filter((k) => holdsIn(k.releases, release)).map((k) => k.key);
}

/** For RELEASE_CHANGES. */
export const VLLM_PARAMETER_CHANGES: readonly ReleaseChange[] = Object.freeze(
  KEYS.map((k): ReleaseChange => ({ area: 'vllm', what: `the vLLM backend reads the model parameter ${k.key}`, releases: k.releases, source: k.source })),
);

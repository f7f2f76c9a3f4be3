// The TensorRT-LLM each Triton release's trtllm-python-py3 image bundles (its tensorrtllm backend is
// built from the same release): triton-inference-server/server docs/introduction/compatibility.md
// @ r26.08, "Container Name: trtllm-python-py3". That table ends at 26.07; 26.08's image is not in it,
// and 26.07's version is taken to hold on (the ByRelease reading) until a source says otherwise.
import { releaseBefore, valueIn, type ByRelease, type ReleaseName, type TritonRelease } from '../../releases/catalog.js';
import type { ReleaseChange } from '../../releases/changes.js';
import { TRTLLM_PARAMETERS, readIn } from './parameters.js';

const SOURCE = 'triton-inference-server/server docs/introduction/compatibility.md @ r26.08 (trtllm-python-py3)';

const VERSIONS: readonly [ReleaseName, string][] = [
  ['24.05', '0.9.0'],
  ['24.06', '0.10.0'],
  ['24.07', '0.11.0'],
  ['24.08', '0.12.0'],
  ['24.09', '0.13.0'],
  ['24.10', '0.14.0'],
  ['24.11', '0.15.0'],
  ['24.12', '0.16.0'],
  ['25.01', '0.17.0'],
  ['25.02', '0.17.0.post1'],
  ['25.03', '0.18.0'],
  ['25.04', '0.18.2'],
  ['25.05', '0.19.0'],
  ['25.06', '0.20.0'],
  ['25.08', '0.21.0'],
  ['25.09', '1.0.0'],
  ['25.11', '1.0.3.2510'],
  ['25.12', '1.1.0'],
  ['26.03', '1.2.0'],
  ['26.04', '1.2.1'],
];

/** The TensorRT-LLM version of each release's trtllm image, oldest first. */
export const TRTLLM_IN_RELEASE: readonly ByRelease<string>[] = Object.freeze(VERSIONS.map(([since, value]) => Object.freeze({ since, value, source: SOURCE })));

/** The TensorRT-LLM version `release`'s trtllm-python-py3 image bundles: "0.15.0" for 24.11. */
export function trtllmVersionIn(release: TritonRelease): string {
  return valueIn(TRTLLM_IN_RELEASE, release)!.value;
}

/** The first release whose trtllm image bundles TensorRT-LLM `version` or a later one. */
export function firstReleaseWith(version: string): ReleaseName | undefined {
  return TRTLLM_IN_RELEASE.find((e) => readIn({ type: 'string', since: version, source: '' }, e.value))?.since;
}

/** The last release whose trtllm image bundles a TensorRT-LLM older than `version`. */
export function lastReleaseBefore(version: string): string | undefined {
  const first = firstReleaseWith(version);
  return first ? releaseBefore(first)?.container : undefined;
}

/**
 * For RELEASE_CHANGES: the TensorRT-LLM version of each release's image, and each parameter key a
 * later TensorRT-LLM reads, by the first release whose image reads it.
 */
export const TRTLLM_CHANGES: readonly ReleaseChange[] = Object.freeze([
  ...TRTLLM_IN_RELEASE.map((e, i): ReleaseChange => {
    const until = TRTLLM_IN_RELEASE[i + 1]?.since;
    // The first holds from the oldest release tritonc knows: no change there, only where it ends.
    return {
      area: 'tensorrtllm',
      what: `the trtllm-python-py3 image bundles TensorRT-LLM ${e.value}`,
      releases: { ...(i ? { since: e.since } : {}), ...(until ? { until } : {}) },
      source: SOURCE,
    };
  }),
  ...Object.entries(TRTLLM_PARAMETERS).flatMap(([key, p]): ReleaseChange[] => {
    const since = p.since ? firstReleaseWith(p.since) : undefined;
    if (!since || since === TRTLLM_IN_RELEASE[0]!.since) return [];
    const what = p.required
      ? `the tensorrtllm backend (TensorRT-LLM ${p.since} on) requires parameter "${key}" and fails the load without it`
      : `the tensorrtllm backend (TensorRT-LLM ${p.since} on) reads parameter "${key}"`;
    return [
      {
        area: 'tensorrtllm',
        what,
        releases: { since },
        source: `tensorrtllm_backend inflight_batcher_llm/src/${p.source} @ c2e65b88, read from tag v${p.since} on; ${SOURCE}`,
      },
    ];
  }),
]);

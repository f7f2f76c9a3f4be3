// The vLLM each Triton release's vllm-python-py3 image bundles: triton-inference-server/server
// docs/introduction/compatibility.md @ r26.08, "Container Name: vllm-python-py3" (the version before
// NVIDIA's "+..." build suffix). Where our engine-argument lists (./engine-args.ts) have that version,
// vllm-model judges model.json by it; otherwise by every release's list, as with no version.
import { valueIn, type ByRelease, type ReleaseName, type TritonRelease } from '../../releases/catalog.js';
import type { ReleaseChange } from '../../releases/changes.js';
import { VLLM_VERSIONS } from './engine-args.js';

const SOURCE = 'triton-inference-server/server docs/introduction/compatibility.md @ r26.08 (vllm-python-py3)';

const VERSIONS: readonly [ReleaseName, string][] = [
  ['24.05', '0.4.0.post1'],
  ['24.06', '0.4.3'],
  ['24.07', '0.5.0.post1'],
  ['24.09', '0.5.3.post1'],
  ['24.10', '0.5.5'],
  ['25.01', '0.6.3.post1'],
  ['25.02', '0.7.0'],
  ['25.03', '0.7.3'],
  ['25.04', '0.8.1'],
  ['25.05', '0.8.4'],
  ['25.06', '0.9.0rc1'],
  ['25.08', '0.9.2'],
  ['25.09', '0.10.1.1'],
  ['25.10', '0.10.2'],
  ['25.11', '0.11.0'],
  ['25.12', '0.11.1'],
  ['26.01', '0.13.0'],
  ['26.02', '0.15.1'],
  ['26.03', '0.17.1'],
  ['26.04', '0.19.0'],
  ['26.06', '0.22.1'],
  ['26.07', '0.24.0'],
  ['26.08', '0.27.1'],
];

/** The vLLM version of each release's vllm image, oldest first. */
export const VLLM_IN_RELEASE: readonly ByRelease<string>[] = Object.freeze(VERSIONS.map(([since, value]) => Object.freeze({ since, value, source: SOURCE })));

/** The vLLM `release`'s vllm-python-py3 image bundles: "0.5.5" for 24.10. */
export function vllmVersionIn(release: TritonRelease): string {
  return valueIn(VLLM_IN_RELEASE, release)!.value;
}

/**
 * The engine-argument list of the vLLM `release`'s image bundles, where we have one (our lists name
 * 0.19.0's 0.19.x); undefined where we have none.
 */
export function vllmListIn(release: TritonRelease): string | undefined {
  const version = vllmVersionIn(release);
  if (VLLM_VERSIONS.includes(version)) return version;
  const series = version.replace(/^(\d+\.\d+)\..*$/, '$1.x');
  return VLLM_VERSIONS.includes(series) ? series : undefined;
}

/** For RELEASE_CHANGES: the vLLM version of each release's image. */
export const VLLM_CHANGES: readonly ReleaseChange[] = Object.freeze(
  VLLM_IN_RELEASE.map((e, i): ReleaseChange => {
    const until = VLLM_IN_RELEASE[i + 1]?.since;
    // The first holds from the oldest release tritonc knows: no change there, only where it ends.
    return {
      area: 'vllm',
      what: `the vllm-python-py3 image bundles vLLM ${e.value}`,
      releases: { ...(i ? { since: e.since } : {}), ...(until ? { until } : {}) },
      source: SOURCE,
    };
  }),
);

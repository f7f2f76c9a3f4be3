// Every fact that changed across Triton releases, gathered for `tritonc releases` and docs/releases.md.
// A fact lives where it is used (a backend's folder, the config schema, core's checks) and is listed
// here once.
import type { ReleaseChange } from './changes.js';
// core: load-time checks and auto-fill (triton/core-releases.ts)
import { CORE_RELEASE_CHANGES } from '../core-releases.js';

export const RELEASE_CHANGES: readonly ReleaseChange[] = Object.freeze([
  // core: load-time checks and auto-fill
  ...CORE_RELEASE_CHANGES,
]);

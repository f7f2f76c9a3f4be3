// Triton's version policy: which version directories of a model it loads (core model_lifecycle.cc
// VersionsToLoad). The one place tritonc decides it; rules ask ModelFacts.versions(), which asks here.
import type { ModelVersionPolicy } from '../config/model-config.js';
import type { VersionDir } from '../repo/model-dir.js';

/** The versions Triton loads under a version policy (core VersionsToLoad); the default policy is the latest one. */
export function selectVersions(policy: ModelVersionPolicy | undefined, dirs: readonly VersionDir[]): VersionDir[] {
  const usable = new Map<number, VersionDir>();
  for (const d of dirs) if (d.version !== undefined && !usable.has(d.version)) usable.set(d.version, d);
  const all = [...usable.values()].sort((a, b) => a.version! - b.version!);
  if (!policy || policy.latest) {
    const n = policy?.latest ? (policy.latest.num_versions ?? 0) : 1;
    return n <= 0 ? [] : all.slice(-n);
  }
  if (policy.specific) {
    const wanted = new Set((policy.specific.versions ?? []).map(Number));
    return all.filter((d) => wanted.has(d.version!));
  }
  // `all {}`, and a version_policy with no member set, select every version.
  return all;
}

// How Triton reads a version directory's name (core model_lifecycle.cc: std::stoll of it, leading
// zeros refused), which the repository scan (repo/model-dir.ts) applies; rules ask it here.
export { versionOfDirName, type VersionDir } from '../repo/model-dir.js';

// The Triton releases tritonc judges against: each NGC container release (YY.MM) with the server
// version it ships (server TRITON_VERSION at its release branch rYY.MM). A fact that changed between
// releases names the release it arrived in or left by its container release (the branch it was read
// from), so that the facts and this list check each other at compile time (ReleaseName).

/** One Triton release. */
export interface TritonRelease {
  /** The NGC container release, as image tags write it: "24.10". */
  readonly container: string;
  /** The server version it ships (server TRITON_VERSION on branch r<container>): "2.51.0". */
  readonly server: string;
}

// server TRITON_VERSION on each release branch (triton-inference-server/server, read at r24.05 … r26.08).
// 25.07 shipped a patch release of 2.59 rather than a new minor version.
const TABLE = [
  ['24.05', '2.46.0'],
  ['24.06', '2.47.0'],
  ['24.07', '2.48.0'],
  ['24.08', '2.49.0'],
  ['24.09', '2.50.0'],
  ['24.10', '2.51.0'],
  ['24.11', '2.52.0'],
  ['24.12', '2.53.0'],
  ['25.01', '2.54.0'],
  ['25.02', '2.55.0'],
  ['25.03', '2.56.0'],
  ['25.04', '2.57.0'],
  ['25.05', '2.58.0'],
  ['25.06', '2.59.0'],
  ['25.07', '2.59.1'],
  ['25.08', '2.60.0'],
  ['25.09', '2.61.0'],
  ['25.10', '2.62.0'],
  ['25.11', '2.63.0'],
  ['25.12', '2.64.0'],
  ['26.01', '2.65.0'],
  ['26.02', '2.66.0'],
  ['26.03', '2.67.0'],
  ['26.04', '2.68.0'],
  ['26.05', '2.69.0'],
  ['26.06', '2.70.0'],
  ['26.07', '2.71.0'],
  ['26.08', '2.72.0'],
] as const;

/** A container release tritonc knows, as facts name the release they arrived in or left ("24.11"). */
export type ReleaseName = (typeof TABLE)[number][0];

/** Every release tritonc knows, oldest first. */
export const RELEASES: readonly TritonRelease[] = Object.freeze(TABLE.map(([container, server]) => Object.freeze({ container, server })));

/** The newest release tritonc knows: what it judges against when told nothing. */
export const NEWEST_RELEASE: TritonRelease = RELEASES[RELEASES.length - 1]!;

// A lookup, not a search: the release tables are read through it many times at every start (a
// search made ONNX Runtime's release changes alone cost some 4 ms of each start: issue 47).
const RELEASE_INDEX: ReadonlyMap<string, number> = new Map(RELEASES.map((r, i) => [r.container, i]));

/** The release's place in RELEASES (oldest 0); -1 for one tritonc does not know. */
export function releaseIndex(container: string): number {
  return RELEASE_INDEX.get(container) ?? -1;
}

/** The release just before `container` (undefined for the oldest tritonc knows). */
export function releaseBefore(container: ReleaseName): TritonRelease | undefined {
  return RELEASES[releaseIndex(container) - 1];
}

/** The release of a container name tritonc knows. */
export function releaseNamed(container: ReleaseName): TritonRelease {
  return RELEASES[releaseIndex(container)]!;
}

/**
 * The releases a fact holds for: from `since` on, and before `until` (container releases); unset, every
 * release tritonc knows.
 */
export interface Releases {
  readonly since?: ReleaseName;
  readonly until?: ReleaseName;
}

/** Whether a fact that holds for `releases` holds in `release`. */
export function holdsIn(releases: Releases | undefined, release: TritonRelease): boolean {
  if (!releases) return true;
  const at = releaseIndex(release.container);
  if (releases.since !== undefined && at < releaseIndex(releases.since)) return false;
  if (releases.until !== undefined && at >= releaseIndex(releases.until)) return false;
  return true;
}

/** "from 24.11", "before 25.03", "from 24.11 until before 25.03": when a fact holds, for messages and docs. */
export function describeReleases(releases: Releases): string {
  if (releases.since && releases.until) return `from ${releases.since} until before ${releases.until}`;
  if (releases.since) return `from ${releases.since}`;
  if (releases.until) return `before ${releases.until}`;
  return 'in every release';
}

/**
 * A value that changed between releases: each entry holds from its `since` until the next entry's.
 * The first entry holds from the oldest release tritonc knows unless it names a later one.
 */
export interface ByRelease<T> {
  readonly since: ReleaseName;
  readonly value: T;
  /** Where it was read (repository, file, and the branch or commit). */
  readonly source: string;
}

/** The entry of a ByRelease table that holds in `release`; undefined before the first one. */
export function valueIn<T>(table: readonly ByRelease<T>[], release: TritonRelease): ByRelease<T> | undefined {
  const at = releaseIndex(release.container);
  let found: ByRelease<T> | undefined;
  for (const entry of table) if (releaseIndex(entry.since) <= at) found = entry;
  return found;
}

// The server verify ran against, told apart from the Triton tritonc judges for: GET /v2 answers the
// server's version (server src/http_server.cc HandleServerMetadata, core's TRITON_VERSION), which
// names a release (triton/releases/catalog.ts); verdicts that follow the release (lint's, the likely
// reason for a refusal) are for the target, so a server of another release is said plainly.
import { RELEASES } from '../triton/releases/catalog.js';
import { DEFAULT_TARGET, targetLabel, type TritonTarget } from '../triton/releases/target.js';

/** A warning when the server's version is not the target's release; undefined when they agree. */
export function serverVersionWarning(serverVersion: string, target: TritonTarget | undefined): string | undefined {
  const judged = target ?? DEFAULT_TARGET;
  if (serverVersion === judged.release.server) return undefined;
  const release = RELEASES.find((r) => r.server === serverVersion);
  const server = `the server is tritonserver ${serverVersion} (${release ? release.container : 'a release tritonc does not know'})`;
  const label = targetLabel(judged);
  if (!target)
    return `${server}, and tritonc was told no Triton version, so it judged for ${label}, its newest release: verdicts are for ${label}${release ? `; give --triton-version ${release.container} to judge for this server` : ''}`;
  return `${server}, tritonc was told ${label}: verdicts are for ${label}`;
}

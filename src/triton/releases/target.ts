// What the user runs, as tritonc is told it (--triton-version, the `triton` setting): a container
// release ("24.10"), a server version ("2.51.0"), or an image reference
// ("nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3": the release and its flavour). Parsing only.
import type { TargetJson } from '../../diagnostics.js';
import { quoted } from '../../util/terminal-text.js';
import { NEWEST_RELEASE, RELEASES, describeReleases, holdsIn, type TritonRelease } from './catalog.js';
import { FLAVOURS, type Flavour } from './flavours.js';

/** The Triton a repository is judged against. */
export interface TritonTarget {
  readonly release: TritonRelease;
  /** The container flavour, where an image tag named one (it decides which backends exist). */
  readonly flavour?: Flavour;
  /** What the user wrote, for messages ("24.11-trtllm-python-py3"). */
  readonly named: string;
}

/** What tritonc judges against when told nothing: the newest release it knows, its full container. */
export const DEFAULT_TARGET: TritonTarget = Object.freeze({ release: NEWEST_RELEASE, named: NEWEST_RELEASE.container });

/** A --triton-version or `triton` setting tritonc cannot read; the message names what it accepts. */
export class TargetError extends Error {}

const KNOWN = `${RELEASES[0]!.container} to ${NEWEST_RELEASE.container} (servers ${RELEASES[0]!.server} to ${NEWEST_RELEASE.server})`;
const FORMS = 'a container release (24.10), a server version (2.51.0) or an image (nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3)';

/** One target, in any of the three forms. */
export function parseTarget(text: string): TritonTarget {
  const named = text.trim();
  if (!named) throw new TargetError(`an empty Triton version: give ${FORMS}`);
  // An image reference: [registry/]repository:tag, the tag <release>[-<flavour>].
  const colon = named.lastIndexOf(':');
  const tag = colon >= 0 && !named.slice(colon).includes('/') ? named.slice(colon + 1) : named;
  const image = tag !== named;
  const m = /^(\d{2}\.\d{2})(?:-(.+))?$/.exec(tag);
  if (m) {
    const release = RELEASES.find((r) => r.container === m[1]);
    if (!release) throw new TargetError(`Triton ${m[1]} is not a release tritonc knows: it knows ${KNOWN}`);
    if (m[2] === undefined) return { release, named };
    const offered = FLAVOURS.filter((f) => holdsIn(f.releases, release));
    const flavour = FLAVOURS.find((f) => f.tag === m[2]);
    if (flavour && !offered.includes(flavour))
      throw new TargetError(
        `NVIDIA published no ${release.container}-${flavour.tag} image: ${flavour.tag} images exist ${describeReleases(flavour.releases!)}`,
      );
    if (!flavour)
      throw new TargetError(
        `${quoted(m[2])} in ${quoted(named)} is not a tritonserver image flavour tritonc knows: ${offered.map((f) => `${release.container}-${f.tag}`).join(', ')}`,
      );
    // The SDK and build-base images run no tritonserver: judging a repository against one is a mix-up.
    if (flavour.backends?.length === 0)
      throw new TargetError(
        `${release.container}-${flavour.tag} is ${flavour.title}: no model is served from it; give the server's image, e.g. nvcr.io/nvidia/tritonserver:${release.container}-py3`,
      );
    return { release, flavour, named };
  }
  if (image) throw new TargetError(`the tag of ${quoted(named)} is not a Triton release: NVIDIA's images are tagged <YY.MM>-<flavour>, e.g. 24.11-py3`);
  const v = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(named);
  if (v) {
    const release = RELEASES.find((r) => r.server === `${v[1]}.${v[2]}.${v[3] ?? '0'}`);
    // "25.7" is a container release written without its zero, never a server version (those are 2.x).
    const asContainer = v[3] === undefined && Number(v[1]) >= 20 ? `${v[1]}.${v[2]!.padStart(2, '0')}` : undefined;
    if (!release && asContainer && RELEASES.some((r) => r.container === asContainer))
      throw new TargetError(`${quoted(named)} is not a Triton version; did you mean the container release ${asContainer}?`);
    if (!release) throw new TargetError(`Triton server ${quoted(named)} is not a release tritonc knows: it knows ${KNOWN}`);
    return { release, named };
  }
  throw new TargetError(`${quoted(named)} is not a Triton version: give ${FORMS}`);
}

/** A comma-separated list of targets (--triton-version 24.10,26.07), each once, oldest first. */
export function parseTargets(text: string): TritonTarget[] {
  const targets = text.split(',').map(parseTarget);
  const seen = new Set<string>();
  const out: TritonTarget[] = [];
  for (const t of targets) {
    const key = targetLabel(t);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  const order = (t: TritonTarget) => RELEASES.indexOf(t.release);
  return out.sort((a, b) => order(a) - order(b));
}

/** How findings and reports name a target: "24.10", or "24.11-trtllm-python-py3" with its flavour. */
export function targetLabel(t: TritonTarget): string {
  return t.flavour ? `${t.release.container}-${t.flavour.tag}` : t.release.container;
}

/** The target as machine-readable output records it. */
export function targetJson(t: TritonTarget): TargetJson {
  return { release: t.release.container, server: t.release.server, ...(t.flavour ? { flavour: t.flavour.tag } : {}) };
}

// What changed between Triton releases, as data: every fact that holds for some releases and not
// others registers itself here (RELEASE_CHANGES in ./index.ts), so that `tritonc releases` and
// docs/releases.md list what changes between any two releases from the same facts the verdicts read.
import { releaseIndex, type Releases, type TritonRelease } from './catalog.js';

/** Where a fact lives. */
export type ReleaseArea =
  'model config' | 'core' | 'server' | 'containers' | 'onnxruntime' | 'tensorrt' | 'pytorch' | 'python' | 'openvino' | 'tensorflow' | 'tensorrtllm' | 'vllm';

/** One fact that holds for some releases: what it is, from when (and until when), where it was read. */
export interface ReleaseChange {
  readonly area: ReleaseArea;
  /** The fact, a sentence without a trailing period: "ModelConfig has the field model_metrics (26)". */
  readonly what: string;
  readonly releases: Releases;
  /** Where it was read: repository, file, and the branch or commit. */
  readonly source: string;
}

/**
 * The changes a move from release `from` to release `to` makes (either direction): each fact that holds
 * in one and not the other, with whether it arrives ('gained') or leaves ('lost') on the way.
 */
export function changesBetween(
  changes: readonly ReleaseChange[],
  from: TritonRelease,
  to: TritonRelease,
): { change: ReleaseChange; direction: 'gained' | 'lost' }[] {
  const holds = (c: ReleaseChange, r: TritonRelease) => {
    const at = releaseIndex(r.container);
    return (c.releases.since === undefined || at >= releaseIndex(c.releases.since)) && (c.releases.until === undefined || at < releaseIndex(c.releases.until));
  };
  const out: { change: ReleaseChange; direction: 'gained' | 'lost' }[] = [];
  for (const change of changes) {
    const before = holds(change, from);
    const after = holds(change, to);
    if (before !== after) out.push({ change, direction: after ? 'gained' : 'lost' });
  }
  return out;
}

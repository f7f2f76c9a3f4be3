// The Triton release a container image runs, read from its tag as NVIDIA tags its images
// (<YY.MM>-<flavour>: nvcr.io/nvidia/tritonserver:24.10-py3; SageMaker's sagemaker-tritonserver
// images the same way). A digest after the tag is set aside. Where the tag names no release tritonc
// knows, the answer says which case it is, for the message.
import { RELEASES } from './catalog.js';
import { TargetError, parseTarget, type TritonTarget } from './target.js';

export type ImageRelease =
  | { readonly kind: 'release'; readonly target: TritonTarget }
  /** No tag: the image's :latest, whatever that is when the pod starts. */
  | { readonly kind: 'noTag' }
  /** Pinned by digest alone (name@sha256:...). */
  | { readonly kind: 'digestOnly' }
  /** A tag not of NVIDIA's form (a team's own build: my-triton:v3). */
  | { readonly kind: 'notReleaseTag'; readonly tag: string }
  /** A release outside the ones tritonc knows (older than the first, or newer). */
  | { readonly kind: 'unknownRelease'; readonly release: string }
  /** A release with a flavour NVIDIA did not publish for it, or one tritonc does not know. */
  | { readonly kind: 'unknownFlavour'; readonly tag: string };

export function imageRelease(image: string): ImageRelease {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const colon = name.lastIndexOf(':');
  if (colon <= name.lastIndexOf('/')) return at >= 0 ? { kind: 'digestOnly' } : { kind: 'noTag' };
  const tag = name.slice(colon + 1);
  const m = /^(\d{2}\.\d{2})(?:-|$)/.exec(tag);
  if (!m) return { kind: 'notReleaseTag', tag };
  if (!RELEASES.some((r) => r.container === m[1])) return { kind: 'unknownRelease', release: m[1]! };
  try {
    return { kind: 'release', target: parseTarget(name) };
  } catch (e) {
    if (e instanceof TargetError) return { kind: 'unknownFlavour', tag };
    throw e;
  }
}

/** The image's release, when its tag names one tritonc knows. */
export function imageTarget(image: string | undefined): TritonTarget | undefined {
  if (image === undefined) return undefined;
  const r = imageRelease(image);
  return r.kind === 'release' ? r.target : undefined;
}

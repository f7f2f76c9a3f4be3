// The Triton release a container image runs, read from its tag as NVIDIA tags its images
// (<YY.MM>-<flavour>: nvcr.io/nvidia/tritonserver:24.10-py3; SageMaker's sagemaker-tritonserver
// images the same way). A digest after the tag is set aside; an image with no tag, a tag that is not
// a release, or a release tritonc does not know gives the reason instead.
import { TargetError, parseTarget, type TritonTarget } from './target.js';

export type ImageRelease = { readonly target: TritonTarget } | { readonly problem: string };

export function imageRelease(image: string): ImageRelease {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon <= slash) return { problem: at >= 0 ? 'it is pinned by digest alone, which names no release' : 'it has no tag, so it runs whatever :latest is' };
  try {
    return { target: parseTarget(name) };
  } catch (e) {
    if (e instanceof TargetError) return { problem: e.message };
    throw e;
  }
}

/** The image's release, when its tag names one tritonc knows. */
export function imageTarget(image: string | undefined): TritonTarget | undefined {
  if (image === undefined) return undefined;
  const r = imageRelease(image);
  return 'target' in r ? r.target : undefined;
}

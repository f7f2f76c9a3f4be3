// NVIDIA's tritonserver container flavours: the tag after the release (nvcr.io/nvidia/tritonserver:
// <YY.MM>-<flavour>). A flavour decides which backends a server has; the full `py3` image has every
// backend its release builds.

export interface Flavour {
  /** The tag after the release: "trtllm-python-py3". */
  readonly tag: string;
  /** What the image is for, for messages. */
  readonly title: string;
  /** The backends the image has (backend names), where fewer than its release builds; unset: all of them. */
  readonly backends?: readonly string[];
  /** Where this was read. */
  readonly source: string;
}

export const FLAVOURS: readonly Flavour[] = Object.freeze([
  { tag: 'py3', title: 'the full server', source: 'triton-inference-server/server build.py, docs/introduction/compatibility.md' },
]);

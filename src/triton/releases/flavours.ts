// NVIDIA's tritonserver container flavours: the tag after the release (nvcr.io/nvidia/tritonserver:
// <YY.MM>-<flavour>). A flavour decides which of NVIDIA's backends a server has. Read from Triton's own
// sources: the LLM images are built by server build.py with their backend and the Python backend alone
// (tensorrtllm_backend build.sh @ v0.15.0 and r25.05: build.py --backend=ensemble
// --backend=tensorrtllm --backend=python; server build.py @ r26.07 lines 2757-2764: "vLLM backend
// requires Python backend", added with it); the full py3 image has neither LLM backend (server
// docs/customization_guide/compose.md @ r26.08, lines 103-106: "vLLM and TensorRT-LLM backends are
// currently not supported backends for compose.py", which composes from the py3 image). A backend a
// release no longer builds (its record's `releases`: TensorFlow until 25.03) is platform-backend's.
import { holdsIn, type Releases, type TritonRelease } from './catalog.js';
import type { ReleaseChange } from './changes.js';

export interface Flavour {
  /** The tag after the release: "trtllm-python-py3". */
  readonly tag: string;
  /** What the image is for, for messages. */
  readonly title: string;
  /** The only backends the image has (backend names); unset: see `lacks`. */
  readonly backends?: readonly string[];
  /** With `backends` unset: NVIDIA's backends the image lacks (unset too: it has every one its release builds). */
  readonly lacks?: readonly string[];
  /** The releases that have this image; unset: every release tritonc knows. */
  readonly releases?: Releases;
  /** Where this was read. */
  readonly source: string;
}

// NVIDIA's backends that only some images have: the ones a flavour's facts are about. A backend of the
// user's own (or one tritonc does not know) may be installed in any image, so no flavour rules it out.
const LLM_BACKENDS = ['tensorrtllm', 'vllm'] as const;
const TENSORFLOW_UNTIL = '25.03' as const;

export const FLAVOURS: readonly Flavour[] = Object.freeze([
  {
    tag: 'py3',
    title: 'the full server',
    lacks: LLM_BACKENDS,
    source: 'triton-inference-server/server docs/customization_guide/compose.md @ r26.08 (the LLM backends are not in the py3 image compose.py composes from)',
  },
  {
    tag: 'trtllm-python-py3',
    title: 'the TensorRT-LLM server',
    backends: ['tensorrtllm', 'python'],
    source: 'triton-inference-server/tensorrtllm_backend build.sh @ v0.15.0, r25.05 (build.py --backend=ensemble --backend=tensorrtllm --backend=python)',
  },
  {
    tag: 'vllm-python-py3',
    title: 'the vLLM server',
    backends: ['vllm', 'python'],
    source: 'triton-inference-server/server build.py @ r26.07 lines 2757-2764 (the vLLM backend and the Python backend it requires)',
  },
  {
    tag: 'pyt-python-py3',
    title: 'the PyTorch and Python server',
    backends: ['pytorch', 'python'],
    source: 'triton-inference-server/server release notes (GitHub releases v2.x): the <YY.MM>-pyt-python-py3 image, the PyTorch and Python backends only',
  },
  {
    tag: 'tf2-python-py3',
    title: 'the TensorFlow and Python server',
    backends: ['tensorflow', 'python'],
    releases: { until: TENSORFLOW_UNTIL },
    source: 'triton-inference-server/server build.py @ r25.02 (the TensorFlow backend), none from r25.03',
  },
  {
    tag: 'py3-igpu',
    title: 'the Jetson (iGPU) server',
    // Which of NVIDIA's backends Jetson's build has is not in Triton's sources: none is ruled out.
    source: 'triton-inference-server/server release notes v2.41.0 (23.12): "-py3-igpu ... tritonserver and all supported backends for Jetson devices"',
  },
  {
    tag: 'py3-min',
    title: 'the build base (CUDA and its libraries, no tritonserver)',
    backends: [],
    source: 'triton-inference-server/server docs/customization_guide/build.md @ r26.08 (the min image build.py builds Triton on)',
  },
  {
    tag: 'py3-sdk',
    title: 'the client SDK (perf_analyzer, the client libraries, no tritonserver)',
    backends: [],
    source: 'triton-inference-server/server docs/getting_started/quickstart.md @ r26.08 (the SDK image runs the clients)',
  },
]);

/** NVIDIA's backends, which its images have or lack; any other may be installed in any image. */
const NVIDIA_BACKENDS = new Set(['onnxruntime', 'tensorrt', 'pytorch', 'tensorflow', 'openvino', 'python', 'dali', 'fil', ...LLM_BACKENDS]);

/**
 * Whether release `release`'s image of `flavour` has NVIDIA's backend `backend`, as far as the image's
 * make-up goes (a backend the release builds at all is its record's `releases`): false only where
 * Triton's sources say it lacks it; undefined for a backend that is not NVIDIA's (any image may have it).
 */
export function flavourHas(flavour: Flavour, backend: string, release: TritonRelease): boolean | undefined {
  if (!NVIDIA_BACKENDS.has(backend)) return undefined;
  if (!holdsIn(flavour.releases, release)) return false;
  if (flavour.backends) return flavour.backends.includes(backend);
  return !(flavour.lacks ?? []).includes(backend);
}

/**
 * NVIDIA's backends the image of `flavour` (unset: py3, the full server) of `release` has, of those
 * `built` says the release builds (a backend record's `releases`), in NVIDIA_BACKENDS' order.
 */
export function imageBackends(flavour: Flavour | undefined, release: TritonRelease, built: (backend: string) => boolean): string[] {
  const image = flavour ?? FLAVOURS[0]!;
  return [...NVIDIA_BACKENDS].filter((b) => built(b) && flavourHas(image, b, release) === true);
}

/** The server images of `release` that have NVIDIA's backend `backend` (py3 first; the Jetson image left out). */
export function flavoursWith(backend: string, release: TritonRelease): Flavour[] {
  return FLAVOURS.filter((f) => f.tag !== 'py3-igpu' && flavourHas(f, backend, release) === true);
}

/** The flavours' facts, for RELEASE_CHANGES (the one that changed across releases). */
export const FLAVOUR_CHANGES: readonly ReleaseChange[] = Object.freeze([
  {
    area: 'containers',
    what: 'the tf2-python-py3 image (the TensorFlow and Python backends) is published',
    releases: { until: TENSORFLOW_UNTIL },
    source: 'triton-inference-server/server build.py @ r25.02 (the TensorFlow backend), none from r25.03',
  },
]);

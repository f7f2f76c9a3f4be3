// onnxruntime-node is an optional peer dependency (291 MB installed, native): tritonc imports it only when
// `verify --runtime ort` runs, and says how to install it when it is absent. The types below are the
// small part of its API verify uses, written out so tritonc's own types never require the package.
import { isMissingModule, requireOptional } from '../util/require-optional.js';
import { CannotRun } from './errors.js';

export interface OrtValueMetadata {
  name: string;
  isTensor: boolean;
  /** 'float32', 'int64', ... for tensors. */
  type?: string;
  /** Numbers, or strings for symbolic dims ('' for an unnamed one). */
  shape?: readonly (number | string)[];
}

export interface OrtTensor {
  readonly type: string;
  readonly dims: readonly number[];
}

export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Present from onnxruntime-node 1.21; verify skips the static type/shape checks without it. */
  readonly inputMetadata?: readonly OrtValueMetadata[];
  readonly outputMetadata?: readonly OrtValueMetadata[];
  run(feeds: Record<string, OrtTensor>, fetches: readonly string[], options?: { logSeverityLevel?: 0 | 1 | 2 | 3 | 4 }): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}

export interface OrtSessionOptions {
  executionProviders: string[];
  graphOptimizationLevel: 'disabled' | 'basic' | 'extended' | 'all';
  logSeverityLevel: 0 | 1 | 2 | 3 | 4;
}

export interface OrtApi {
  InferenceSession: { create(path: string, options: OrtSessionOptions): Promise<OrtSession> };
  Tensor: new (type: string, data: unknown, dims: readonly number[]) => OrtTensor;
  env?: { versions?: { common?: string; node?: string } };
}

/** Loads onnxruntime-node; tests inject a loader that fails or returns a stand-in. */
export type OrtLoader = () => Promise<unknown>;

// Found beside tritonc or in the node_modules that holds it (util/require-optional.ts).
export const defaultOrtLoader: OrtLoader = async () => requireOptional('onnxruntime-node');

/** onnxruntime-node 1.30 installed, as measured: its native libraries for every platform. */
const ORT_INSTALLED_SIZE = '291 MB';

export const ORT_MISSING_MESSAGE = [
  `verify --runtime ort needs onnxruntime-node (${ORT_INSTALLED_SIZE} installed), an optional dependency tritonc does not install by itself. Install it where tritonc is:`,
  '  npm install onnxruntime-node            (tritonc in a project)',
  '  npm install -g onnxruntime-node         (tritonc installed with npm install -g)',
  '  additional_dependencies: [onnxruntime-node]   (the tritonc hooks of pre-commit)',
  'Its install script downloads CUDA parts from outside the npm registry (and fails on offline machines); CPU inference needs none of them.',
  'Skip that download as onnxruntime-node documents it, with ONNXRUNTIME_NODE_INSTALL=skip in the environment of the install, e.g.',
  '  ONNXRUNTIME_NODE_INSTALL=skip npm install -g onnxruntime-node',
  'Or verify without it: tritonc verify MODEL_DIR --runtime docker (or --runtime server --server URL).',
].join('\n');

export async function loadOrt(loader: OrtLoader = defaultOrtLoader): Promise<OrtApi> {
  let mod: unknown;
  try {
    mod = await loader();
  } catch (e) {
    if (isMissingModule(e, 'onnxruntime-node')) throw new CannotRun(ORT_MISSING_MESSAGE);
    throw new CannotRun(
      `onnxruntime-node is installed but does not load here: ${(e as Error).message}\nReinstall it (npm install onnxruntime-node) for this platform, or use --runtime docker.`,
    );
  }
  // A CommonJS package seen through import(): the API is the namespace or its default export.
  const m = mod as Partial<OrtApi> & { default?: Partial<OrtApi> };
  const api = (m.InferenceSession ? m : m.default) as OrtApi | undefined;
  if (!api?.InferenceSession || !api.Tensor)
    throw new CannotRun('onnxruntime-node loaded but has no InferenceSession/Tensor; install onnxruntime-node 1.17 or newer');
  return api;
}

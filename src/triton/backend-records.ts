// One record per backend core knows by name (core src/constants.h): its platforms, and the file each
// platform's model is in by default (what core's AutoCompleteBackendFields writes into
// default_model_filename). Nothing outside src/triton spells a platform or a default model file: it
// asks these records.

export interface PlatformRecord {
  /** The platform name, as config.pbtxt writes it (core constants.h k*PlatformType). */
  readonly name: string;
  /** Other names core accepts for it (auto-fill only). */
  readonly aliases?: readonly string[];
  /**
   * The model file the backend opens in a version directory when default_model_filename is unset
   * (core's auto-fill writes it, except for LibTorch, whose backend defaults to model.pt itself).
   */
  readonly defaultModelFile: string;
}

export interface BackendRecord {
  /** The backend name, as config.pbtxt writes it (core constants.h k*Backend). */
  readonly name: string;
  /** Its platforms; [] for a backend written by name only (backend: "python"). */
  readonly platforms: readonly PlatformRecord[];
  /** The default model file of a backend without platforms. */
  readonly defaultModelFile?: string;
}

/** The ensemble "platform": no backend, no model file (core kEnsemblePlatform). */
export const ENSEMBLE_PLATFORM = 'ensemble';

export const ONNXRUNTIME: BackendRecord = { name: 'onnxruntime', platforms: [{ name: 'onnxruntime_onnx', defaultModelFile: 'model.onnx' }] };
export const TENSORRT: BackendRecord = { name: 'tensorrt', platforms: [{ name: 'tensorrt_plan', defaultModelFile: 'model.plan' }] };
export const TENSORFLOW: BackendRecord = {
  name: 'tensorflow',
  platforms: [
    { name: 'tensorflow_savedmodel', defaultModelFile: 'model.savedmodel' },
    { name: 'tensorflow_graphdef', defaultModelFile: 'model.graphdef' },
  ],
};
/** LibTorch (TorchScript) and AOTInductor models: one backend (core's kPyTorchAotiBackend is "pytorch"). */
export const PYTORCH: BackendRecord = {
  name: 'pytorch',
  platforms: [
    { name: 'pytorch_libtorch', aliases: ['libtorch'], defaultModelFile: 'model.pt' },
    { name: 'torch_aoti', defaultModelFile: 'model.pt2' },
  ],
};
export const OPENVINO: BackendRecord = { name: 'openvino', platforms: [], defaultModelFile: 'model.xml' };
export const PYTHON: BackendRecord = { name: 'python', platforms: [], defaultModelFile: 'model.py' };

/** The backends whose platforms and model files core's auto-fill knows. */
export const BACKEND_RECORDS: readonly BackendRecord[] = [TENSORFLOW, TENSORRT, ONNXRUNTIME, OPENVINO, PYTORCH, PYTHON];

/** Every platform name Triton accepts in config.pbtxt (aliases excluded), the ensemble's included. */
export const PLATFORM_NAMES: readonly string[] = [...BACKEND_RECORDS.flatMap((b) => b.platforms.map((p) => p.name)), ENSEMBLE_PLATFORM];

/** The platform record of a platform name (or alias), with its backend. */
export function platformRecord(platform: string): { backend: BackendRecord; platform: PlatformRecord } | undefined {
  for (const backend of BACKEND_RECORDS) {
    for (const p of backend.platforms) if (p.name === platform || p.aliases?.includes(platform)) return { backend, platform: p };
  }
  return undefined;
}

/** The backend a platform is served by ('onnxruntime_onnx' -> 'onnxruntime'); undefined for the ensemble or an unknown name. */
export const backendOfPlatform = (platform: string): string | undefined => platformRecord(platform)?.backend.name;

/** The platform core pairs with a backend (its first), for the backends that have platforms. */
export const platformOfBackend = (backend: string): string | undefined => BACKEND_RECORDS.find((b) => b.name === backend)?.platforms[0]?.name;

/**
 * The model file a config's backend opens when default_model_filename is unset: by its platform,
 * else by its backend (the first platform's file for a backend that has platforms).
 */
export function defaultModelFile(config: { backend?: string; platform?: string }): string | undefined {
  if (config.platform) {
    const p = platformRecord(config.platform);
    if (p) return p.platform.defaultModelFile;
  }
  const b = BACKEND_RECORDS.find((r) => r.name === config.backend);
  return b ? (b.defaultModelFile ?? b.platforms[0]?.defaultModelFile) : undefined;
}

/** Whether the platform is TensorRT's (engines, optimization profiles, shape tensors). */
export const isTensorrtPlatform = (platform: string | undefined): boolean => platform === TENSORRT.platforms[0]!.name;

/** The ONNX Runtime backend's default model file: what generate writes and reads ONNX models as. */
export const ONNX_MODEL_FILE = ONNXRUNTIME.platforms[0]!.defaultModelFile;

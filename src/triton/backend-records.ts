// Lookups over the backend records (./backends, one file per backend): which backend serves a
// platform, which file it opens. Nothing outside src/triton spells a platform or a default model
// file: it asks these.

import { BACKENDS } from './backends/index.js';
import type { BackendRecord, IoChecks, ModelFormat, PlatformRecord } from './backends/record.js';

export type { AutoComplete, BackendRecord, Completion, CompletionOptions, IoChecks, ModelFormat, PlatformRecord } from './backends/record.js';
import { ONNXRUNTIME } from './backends/onnxruntime/record.js';
import { OPENVINO } from './backends/openvino/record.js';
import { PYTHON } from './backends/python/record.js';
import { PYTORCH } from './backends/pytorch/record.js';
import { TENSORFLOW } from './backends/tensorflow/record.js';
import { TENSORRT } from './backends/tensorrt/record.js';
import { TENSORRTLLM } from './backends/tensorrtllm/record.js';
import { DALI } from './backends/build-backends.js';
import { VLLM } from './backends/vllm/record.js';

export { DALI, ONNXRUNTIME, OPENVINO, PYTHON, PYTORCH, TENSORFLOW, TENSORRT, TENSORRTLLM, VLLM };

/** The ensemble "platform": no backend, no model file (core kEnsemblePlatform). */
export const ENSEMBLE_PLATFORM = 'ensemble';

/** Whether a config is an ensemble's (run by core itself, not by a backend). */
export const isEnsemble = (config: { platform?: string }): boolean => config.platform === ENSEMBLE_PLATFORM;

/** Every backend tritonc has a record of (./backends). */
export const BACKEND_RECORDS: readonly BackendRecord[] = BACKENDS;

/** Every backend name tritonc knows: a name one typo away from these is much more likely a typo than a custom backend. */
export const KNOWN_BACKENDS: readonly string[] = BACKENDS.map((b) => b.name);

/** The record of a backend by name. */
export const backendRecord = (name: string | undefined): BackendRecord | undefined => BACKENDS.find((b) => b.name === name);

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
export const platformOfBackend = (backend: string): string | undefined => backendRecord(backend)?.platforms[0]?.name;

/**
 * The model file a config's backend opens when default_model_filename is unset: by its platform,
 * else by its backend (the first platform's file for a backend that has platforms).
 */
export function defaultModelFile(config: { backend?: string; platform?: string }): string | undefined {
  if (config.platform) {
    const p = platformRecord(config.platform);
    if (p) return p.platform.defaultModelFile;
  }
  const b = backendRecord(config.backend);
  return b ? (b.defaultModelFile ?? b.platforms[0]?.defaultModelFile) : undefined;
}

/**
 * The name of the file the backend of `autofilled` (a config after core's auto-fill) opens in a
 * version directory: default_model_filename, else its record's default. Core's auto-fill leaves
 * default_model_filename unset for LibTorch found by its model.pt (its backend defaults to model.pt
 * itself: pytorch_backend src/pt/model_state.cc ModelState::LoadModel), so the record answers.
 */
export function modelFileName(autofilled: { backend?: string; platform?: string; default_model_filename?: string }): string | undefined {
  if (autofilled.platform === ENSEMBLE_PLATFORM) return undefined;
  return autofilled.default_model_filename || defaultModelFile(autofilled);
}

/** How many instances a KIND_CPU group without a count gets with the backend of `config` (core's SetDefaultInstanceCount). */
export const defaultCpuInstances = (config: { backend?: string }): number => backendRecord(config.backend)?.defaultCpuInstances ?? 1;

/** The backend a model file's extension suggests (no dot: 'onnx' -> onnxruntime), where a record names it. */
export const backendOfExtension = (ext: string): string | undefined => BACKEND_RECORDS.find((b) => b.fileExtensions?.includes(ext))?.name;

/** core's BackendType of a backend (GetBackendType), for the backends that have one. */
export const backendTypeOf = (backend: string): string | undefined => backendRecord(backend)?.backendType;

/** core's BackendType of a platform written by its name, not an alias (GetBackendTypeFromPlatform; torch_aoti's is PyTorch's). */
export function platformBackendType(platform: string): string | undefined {
  const p = platformRecord(platform);
  return p?.platform.name === platform ? p.backend.backendType : undefined;
}

/**
 * What the model files of `config`'s platform, else its backend, are called in messages, with the file
 * name ("TensorRT engines (model.plan)"), where a record titles them.
 */
export function formatTitleOf(config: { backend?: string; platform?: string }): string | undefined {
  const platform = BACKEND_RECORDS.flatMap((b) => b.platforms).find((p) => p.name === config.platform);
  if (platform?.formatTitle) return `${platform.formatTitle} (${platform.defaultModelFile})`;
  const b = backendRecord(config.backend);
  if (b?.formatTitle) return `${b.formatTitle} (${b.defaultModelFile})`;
  const first = b?.platforms[0];
  return first?.formatTitle ? `${first.formatTitle} (${first.defaultModelFile})` : undefined;
}

/** Whether the platform is TensorRT's (engines, optimization profiles, shape tensors). */
export const isTensorrtPlatform = (platform: string | undefined): boolean => platform === TENSORRT.platforms[0]!.name;

/** The ONNX Runtime backend's default model file: what generate writes and reads ONNX models as. */
export const ONNX_MODEL_FILE = ONNXRUNTIME.platforms[0]!.defaultModelFile;

/**
 * The platform record a config's model file is served under: by its default_model_filename among
 * its backend's platforms, else by its platform, else the backend's first.
 */
function servingPlatform(config: { backend?: string; platform?: string; default_model_filename?: string }): PlatformRecord | undefined {
  const b = backendRecord(config.backend);
  if (!b) return undefined;
  const byFile = b.platforms.find((p) => p.defaultModelFile === config.default_model_filename);
  return byFile ?? b.platforms.find((p) => p.name === config.platform || p.aliases?.includes(config.platform ?? '')) ?? b.platforms[0];
}

/** The kind of file the backend of `config` (after core's auto-fill) opens; 'none' for an ensemble or no backend. */
export function modelFormatOf(config: { backend?: string; platform?: string; default_model_filename?: string }): ModelFormat {
  if (config.platform === ENSEMBLE_PLATFORM || !config.backend) return 'none';
  const b = backendRecord(config.backend);
  if (!b) return 'other';
  return b.platforms.length ? servingPlatform(config)!.format : (b.format ?? 'other');
}

/**
 * The format of a model file named `fileName` when nothing else says (a path given on the command
 * line): the format of the platform whose default model file has its extension; 'onnx' otherwise.
 */
export function formatOfModelFileName(fileName: string): ModelFormat {
  const ext = /\.[^./]+$/.exec(fileName)?.[0];
  // Platforms' files, then the files of backends written by name (OpenVINO's model.xml).
  const files = BACKEND_RECORDS.flatMap((b) => [
    ...b.platforms,
    ...(b.defaultModelFile ? [{ defaultModelFile: b.defaultModelFile, format: b.format ?? 'other' }] : []),
  ]);
  const p = ext ? files.find((q) => q.defaultModelFile.endsWith(ext)) : undefined;
  return p && p.format !== 'other' && p.format !== 'none' ? p.format : 'onnx';
}

/**
 * How the backend of `config` (after core's auto-fill) checks the config's tensors against its model
 * file: its platform's `io` over its record's; a field left out is as ONNX Runtime does.
 */
export const ioChecksOf = (config: { backend?: string; platform?: string; default_model_filename?: string }): IoChecks => ({
  ...backendRecord(config.backend)?.io,
  ...servingPlatform(config)?.io,
});

/** The kinds of file the platform of `config` loads, where its reader yields more than one; undefined: any it yields. */
export const loadedSignatureFormats = (config: { backend?: string; platform?: string; default_model_filename?: string }): readonly string[] | undefined =>
  servingPlatform(config)?.loads;

/** The platform that loads files of a signature format (a TorchScript file: pytorch_libtorch, model.pt). */
export function platformLoading(format: string): PlatformRecord | undefined {
  return BACKEND_RECORDS.flatMap((b) => b.platforms).find((p) => p.loads?.includes(format as never));
}

/** The name under which a directory at the model file's path holds the model (ONNX Runtime's model.onnx), if the backend reads one. */
export const directoryModelFile = (config: { backend?: string; platform?: string; default_model_filename?: string }): string | undefined =>
  servingPlatform(config)?.directoryHolds;

/** Whether the model file of `config` is a directory opened as a whole (a TensorFlow SavedModel). */
export const modelIsDirectory = (config: { backend?: string; platform?: string; default_model_filename?: string }): boolean =>
  servingPlatform(config)?.modelIsDirectory === true;

/**
 * Whether the backend of `config` may fill in tensors, data types or dims the config leaves out, in a
 * way tritonc does not work out from a model file: from a model it does not read, a script it does not
 * run, or a fixed list (vLLM). False for ONNX Runtime (tritonc reads the model) and for backends that
 * fill nothing in (PyTorch).
 */
export function backendMayFillTensors(config: { backend?: string }): boolean {
  const how = backendRecord(config.backend)?.autoComplete;
  return how === undefined || how.from === 'script' || how.from === 'config';
}

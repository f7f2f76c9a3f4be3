// Triton core's AutoCompleteBackendFields (core src/model_config_utils.cc): before anything validates a config,
// core fills `name` from the directory and guesses `platform`, `backend` and `default_model_filename`
// from what the config says and from the files in ONE version directory. It runs on every load,
// whether or not config.pbtxt exists and whether or not auto-complete is enabled.
//
// Pure: the caller passes what the directory holds (see src/repo/autofill-listing.ts), so every branch is
// testable without files.
import { step, type ResolveProblem, type ResolveStep } from './changes.js';
import type { ModelConfig } from '../config/model-config.js';

import type { AutofillListing } from '../repo/autofill-listing.js';
import type { EntryKind } from '../repo/tree.js';
import { ONNXRUNTIME, OPENVINO, PYTHON, PYTORCH, TENSORFLOW, TENSORRT } from './backend-records.js';
import { LIBTORCH_PLATFORM_ALIAS, PYTORCH_DEFAULTS_BY_PLATFORM, TORCH_AOTI_PLATFORM } from './core-releases.js';
import { holdsIn, type TritonRelease } from './releases/catalog.js';
import { DEFAULT_TARGET } from './releases/target.js';

// The listing is the repo layer's (it reads the directory); re-exported for this module's callers.
export type { AutofillListing, EntryKind };

export interface AutofillResult {
  config: ModelConfig;
  steps: ResolveStep[];
  /** Set when core refuses the model here (the custom-backend rule, step 8). */
  problem?: ResolveProblem;
  /**
   * Set when the backend comes from model files that are provisioned elsewhere (not in this
   * checkout): core would choose it from them at deploy, so it is unknown here, not missing.
   */
  unknownBackend?: true;
}

// Names from core:constants.h, by way of the backend records.
const TF_SAVEDMODEL_PLATFORM = TENSORFLOW.platforms[0]!.name;
const TF_GRAPHDEF_PLATFORM = TENSORFLOW.platforms[1]!.name;
const TRT_PLATFORM = TENSORRT.platforms[0]!.name;
const ORT_PLATFORM = ONNXRUNTIME.platforms[0]!.name;
const LIBTORCH_PLATFORM = PYTORCH.platforms[0]!.name;
const LIBTORCH_PLATFORM_ALT = PYTORCH.platforms[0]!.aliases![0]!;
const AOTI_PLATFORM = PYTORCH.platforms[1]!.name;

const TF_BACKEND = TENSORFLOW.name;
const TRT_BACKEND = TENSORRT.name;
const ORT_BACKEND = ONNXRUNTIME.name;
const OPENVINO_BACKEND = OPENVINO.name;
const PYTORCH_BACKEND = PYTORCH.name;
// core's kPyTorchAotiBackend: AOTInductor models are served by the same PyTorch backend.
const AOTI_BACKEND = PYTORCH.name;
const PYTHON_BACKEND = PYTHON.name;

const SAVEDMODEL_FILE = TENSORFLOW.platforms[0]!.defaultModelFile;
const GRAPHDEF_FILE = TENSORFLOW.platforms[1]!.defaultModelFile;
const PLAN_FILE = TENSORRT.platforms[0]!.defaultModelFile;
const ONNX_FILE = ONNXRUNTIME.platforms[0]!.defaultModelFile;
const OPENVINO_FILE = OPENVINO.defaultModelFile!;
const LIBTORCH_FILE = PYTORCH.platforms[0]!.defaultModelFile;
const AOTI_FILE = PYTORCH.platforms[1]!.defaultModelFile;
const PYTHON_FILE = PYTHON.defaultModelFile!;

/**
 * Whether the files of the first sub-directory can change the outcome: only a config with no
 * platform and no default_model_filename, and no backend but possibly tensorflow, is guessed from
 * files. Otherwise the listing need not be read.
 */
export function autofillReadsFiles(config: ModelConfig): boolean {
  return !config.platform && !config.default_model_filename && (!config.backend || config.backend === TF_BACKEND);
}

/** AutoCompleteBackendFields of `release` (default: the newest tritonc knows); its PyTorch branch changed in 26.03 and 26.04. */
export function autofillBackendFields(input: ModelConfig, listing: AutofillListing, release: TritonRelease = DEFAULT_TARGET.release): AutofillResult {
  // Only top-level fields are set, so a shallow copy keeps the input as it was.
  const config: ModelConfig = { ...input };
  const steps: ResolveStep[] = [];
  const sub = listing.firstSubdir;
  const inSub = (name: string): EntryKind | undefined => sub?.entries.get(name);
  const where = sub ? `version directory '${sub.name}'` : 'the model directory';

  const set = (field: 'name' | 'platform' | 'backend' | 'default_model_filename', value: string, reason: string): void => {
    config[field] = value;
    steps.push(step('autofill', 'set', [field], reason, value));
  };
  const platform = (): string => config.platform ?? '';
  const backend = (): string => config.backend ?? '';
  const filename = (): string => config.default_model_filename ?? '';
  // File-based guesses need an empty platform and filename (and, for TensorFlow, no filename) and
  // a sub-directory to look in.
  const mayGuessFromFiles = (): boolean => sub !== undefined && platform() === '' && filename() === '';

  // 1. name
  if (!config.name) set('name', listing.modelName, `name is empty, so Triton uses the model directory's name`);

  // 2. TensorFlow (deprecated backend, but still first in core's order)
  if (platform() === '' && (backend() === '' || backend() === TF_BACKEND)) {
    if (filename() === SAVEDMODEL_FILE) set('platform', TF_SAVEDMODEL_PLATFORM, `default_model_filename is ${SAVEDMODEL_FILE}`);
    else if (filename() === GRAPHDEF_FILE) set('platform', TF_GRAPHDEF_PLATFORM, `default_model_filename is ${GRAPHDEF_FILE}`);
    else if (filename() === '' && sub) {
      // Both are checked; a model.graphdef file wins over a model.savedmodel directory.
      let guess: string | undefined;
      let why = '';
      if (inSub(SAVEDMODEL_FILE) === 'dir') [guess, why] = [TF_SAVEDMODEL_PLATFORM, `${where} holds a ${SAVEDMODEL_FILE} directory`];
      if (inSub(GRAPHDEF_FILE) === 'file') [guess, why] = [TF_GRAPHDEF_PLATFORM, `${where} holds a ${GRAPHDEF_FILE} file`];
      if (guess) set('platform', guess, why);
    }
  }
  if (platform() === TF_SAVEDMODEL_PLATFORM || platform() === TF_GRAPHDEF_PLATFORM) {
    if (backend() === '') set('backend', TF_BACKEND, `platform ${platform()} is served by the tensorflow backend`);
    if (filename() === '')
      set(
        'default_model_filename',
        platform() === TF_SAVEDMODEL_PLATFORM ? SAVEDMODEL_FILE : GRAPHDEF_FILE,
        `the default file name for platform ${platform()}`,
      );
    return { config, steps };
  }

  // 3. TensorRT
  if (backend() === '') {
    if (platform() === TRT_PLATFORM || filename() === PLAN_FILE)
      set('backend', TRT_BACKEND, platform() === TRT_PLATFORM ? `platform is ${TRT_PLATFORM}` : `default_model_filename is ${PLAN_FILE}`);
    else if (mayGuessFromFiles() && inSub(PLAN_FILE) === 'file')
      set('backend', TRT_BACKEND, `${where} holds a ${PLAN_FILE} file (TensorRT is checked before ONNX Runtime)`);
  }
  if (backend() === TRT_BACKEND) {
    if (platform() === '') set('platform', TRT_PLATFORM, 'the platform of the tensorrt backend');
    if (filename() === '') set('default_model_filename', PLAN_FILE, 'the default file name of the tensorrt backend');
    return { config, steps };
  }

  // 4. ONNX Runtime: model.onnx may be a file or a directory (a large model with external data).
  if (backend() === '') {
    if (platform() === ORT_PLATFORM || filename() === ONNX_FILE)
      set('backend', ORT_BACKEND, platform() === ORT_PLATFORM ? `platform is ${ORT_PLATFORM}` : `default_model_filename is ${ONNX_FILE}`);
    else if (mayGuessFromFiles() && inSub(ONNX_FILE) !== undefined) set('backend', ORT_BACKEND, `${where} holds ${ONNX_FILE}`);
  }
  if (backend() === ORT_BACKEND) {
    if (platform() === '') set('platform', ORT_PLATFORM, 'the platform of the onnxruntime backend');
    if (filename() === '') set('default_model_filename', ONNX_FILE, 'the default file name of the onnxruntime backend');
    return { config, steps };
  }

  // 5. OpenVINO (only the file name decides; no platform)
  if (backend() === '') {
    if (filename() === OPENVINO_FILE) set('backend', OPENVINO_BACKEND, `default_model_filename is ${OPENVINO_FILE}`);
    else if (mayGuessFromFiles() && inSub(OPENVINO_FILE) !== undefined) set('backend', OPENVINO_BACKEND, `${where} holds ${OPENVINO_FILE}`);
  }
  if (backend() === OPENVINO_BACKEND) {
    if (filename() === '') set('default_model_filename', OPENVINO_FILE, 'the default file name of the openvino backend');
    return { config, steps };
  }

  // 6. PyTorch (LibTorch, or AOTInductor). Core's branch by release (triton/core-releases.ts): r24.10
  // knows pytorch_libtorch and model.pt only; r26.03 added torch_aoti and model.pt2 but still filled in
  // pytorch_libtorch and model.pt after; r26.04 fills in by platform and reads "libtorch" too.
  const aoti = holdsIn(TORCH_AOTI_PLATFORM.releases, release);
  const alias = holdsIn(LIBTORCH_PLATFORM_ALIAS.releases, release);
  const byPlatform = holdsIn(PYTORCH_DEFAULTS_BY_PLATFORM.releases, release);
  const since = (releases: { since?: string }): string => ` (from ${releases.since})`;
  if (backend() === '') {
    if (platform() === LIBTORCH_PLATFORM || (alias && platform() === LIBTORCH_PLATFORM_ALT) || filename() === LIBTORCH_FILE) {
      set(
        'backend',
        PYTORCH_BACKEND,
        filename() === LIBTORCH_FILE
          ? `default_model_filename is ${LIBTORCH_FILE}`
          : `platform is ${platform()}${platform() === LIBTORCH_PLATFORM ? '' : since(LIBTORCH_PLATFORM_ALIAS.releases)}`,
      );
    } else if (aoti && (platform() === AOTI_PLATFORM || filename() === AOTI_FILE)) {
      set(
        'backend',
        AOTI_BACKEND,
        `${filename() === AOTI_FILE ? `default_model_filename is ${AOTI_FILE}` : `platform is ${AOTI_PLATFORM}`}${since(TORCH_AOTI_PLATFORM.releases)}`,
      );
    } else if (mayGuessFromFiles()) {
      // Unlike the other branches, a present-but-wrong-kind model.pt stops the model.pt2 check.
      if (inSub(LIBTORCH_FILE) !== undefined) {
        if (inSub(LIBTORCH_FILE) === 'file') {
          set('backend', PYTORCH_BACKEND, `${where} holds a ${LIBTORCH_FILE} file`);
          if (byPlatform) set('platform', LIBTORCH_PLATFORM, `${where} holds a ${LIBTORCH_FILE} file`);
        }
      } else if (aoti && inSub(AOTI_FILE) === 'file') {
        set('backend', AOTI_BACKEND, `${where} holds a ${AOTI_FILE} file${since(TORCH_AOTI_PLATFORM.releases)}`);
        if (byPlatform) set('platform', AOTI_PLATFORM, `${where} holds a ${AOTI_FILE} file${since(PYTORCH_DEFAULTS_BY_PLATFORM.releases)}`);
      }
    }
  }
  if (backend() === PYTORCH_BACKEND) {
    if (byPlatform) {
      // r26.04: the file is named only where the platform was empty (LibTorch), or for torch_aoti.
      if (platform() === '') {
        set('platform', LIBTORCH_PLATFORM, 'the pytorch backend defaults to LibTorch');
        if (filename() === '') set('default_model_filename', LIBTORCH_FILE, 'the default file name of a LibTorch model');
      } else if (platform() === AOTI_PLATFORM && filename() === '')
        set('default_model_filename', AOTI_FILE, `the default file name of an AOTInductor model${since(PYTORCH_DEFAULTS_BY_PLATFORM.releases)}`);
    } else {
      if (platform() === '') set('platform', LIBTORCH_PLATFORM, 'the pytorch backend defaults to LibTorch');
      // Before 26.04 core names model.pt whenever the config names no file (unless runtime is model.py),
      // whatever set the platform: the real 2.51 server answers default_model_filename "model.pt" for a
      // model.pt guessed from the files and for platform: "pytorch_libtorch" alike
      // (test/conformance/l0-real-server.test.ts); in 26.03 even for torch_aoti.
      if (filename() === '' && config.runtime !== PYTHON_FILE)
        set('default_model_filename', LIBTORCH_FILE, `the default file name of the pytorch backend before ${PYTORCH_DEFAULTS_BY_PLATFORM.releases.since}`);
    }
    return { config, steps };
  }

  // 7. Python
  if (backend() === '') {
    if (filename() === PYTHON_FILE) set('backend', PYTHON_BACKEND, `default_model_filename is ${PYTHON_FILE}`);
    else if (mayGuessFromFiles() && inSub(PYTHON_FILE) !== undefined) set('backend', PYTHON_BACKEND, `${where} holds ${PYTHON_FILE}`);
  }
  if (backend() === PYTHON_BACKEND) {
    if (filename() === '') set('default_model_filename', PYTHON_FILE, 'the default file name of the python backend');
    return { config, steps };
  }

  // 8. Custom backend: only when the config says nothing at all; the name after the first '.' of the
  // MODEL NAME is the backend ("model.identity" -> backend "identity").
  if (backend() === '' && platform() === '' && filename() === '') {
    const dot = listing.modelName.indexOf('.');
    if (dot < 0) {
      return {
        config,
        steps,
        problem: {
          stage: 'autofill',
          message: `Invalid model name: Could not determine backend for model '${listing.modelName}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.`,
          fix: sub
            ? `Triton found no model file it recognizes in ${where} (it looks only in the first sub-directory by name). Put the model at ${sub.name === '1' ? '1' : '<version>'}/model.onnx, or set backend (e.g. backend: "onnxruntime") in config.pbtxt`
            : 'the model directory has no version directory: put the model at 1/model.onnx, or set backend (e.g. backend: "onnxruntime") in config.pbtxt',
        },
      };
    }
    const name = listing.modelName.slice(dot + 1);
    set(
      'backend',
      name,
      `no backend could be inferred, so Triton takes the text after the first '.' of the model name '${listing.modelName}' as a custom backend`,
    );
    set('default_model_filename', `model.${name}`, `the file name of custom backend '${name}'`);
  }
  return { config, steps };
}

// Triton core's load-time checks and auto-fill rules that changed between releases, each with the
// release it arrived in, read from triton-inference-server/core's release branches (r24.05..r26.06;
// core has no r26.07 or r26.08 branch, so a fact from 26.06 or before holds in them too). The rules
// and the auto-fill ask holdsIn(<fact>.releases, target.release); RELEASE_CHANGES lists them.
import { holdsIn, type TritonRelease } from './releases/catalog.js';
import type { ReleaseChange } from './releases/changes.js';

/**
 * An output's label_filename whose canonical path leaves the model directory is refused
 * (src/model.cc Model::Init, IsChildPathEscapingParentPath: "label file path '<path>' for output
 * '<o>' in model '<m>' is outside model directory"; commit f2226c0 "Disallow '..' operator in label
 * paths (#465)", first on r26.02). Before, core reads the file wherever it is (r26.01 src/model.cc).
 */
export const LABEL_OUTSIDE_MODEL_DIRECTORY = Object.freeze<ReleaseChange>({
  area: 'core',
  what: "an output's label_filename outside the model directory is refused",
  releases: { since: '26.02' },
  source: 'triton-inference-server/core src/model.cc Model::Init, branch r26.02 (commit f2226c0)',
});

/**
 * A tensor's element count that overflows int64 is refused: GetElementCount (src/model_config_utils.h,
 * commit eaf856c "Create and refactor to use safe GetElementCount and GetByteSize APIs (#475)", first
 * on r26.03), for dims and reshape in ValidateIOShape ("element count for tensor '<n> dims' exceeds
 * maximum size of 9223372036854775807", with " for <model>" added by its caller) and for every input
 * that is not a shape tensor in TritonModel::SetConfiguredScheduler (src/backend_model.cc, after the
 * instances were made: "element count for tensor '<n>' exceeds maximum size of 9223372036854775807").
 * Before (r26.02), common's GetElementCount multiplies in int64 and wraps silently: the model loads.
 */
export const ELEMENT_COUNT_OVERFLOW = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'a tensor whose dims (or reshape) hold more elements than an int64 counts is refused',
  releases: { since: '26.03' },
  source:
    'triton-inference-server/core src/model_config_utils.h GetElementCount and src/backend_model.cc SetConfiguredScheduler, branch r26.03 (commit eaf856c)',
});

/**
 * The name of a model load request is validated (src/model_repository_manager/model_repository_manager.cc
 * ValidateModelName, called by LoadUnloadModel for a load: commit 66f09f8 "Add model name validation
 * for model management requests (#472)", r26.03): empty ("model name must not be empty"), only
 * whitespace ("model name must not contain only whitespace characters"), or holding ".." anywhere or a
 * '/' ("invalid model name '<name>', model name must not contain path traversal characters").
 */
export const MODEL_NAME_VALIDATED = Object.freeze<ReleaseChange>({
  area: 'core',
  what: "a model load request's name is refused when empty, blank, or holding '..' or '/'",
  releases: { since: '26.03', until: '26.04' },
  source: 'triton-inference-server/core src/model_repository_manager/model_repository_manager.cc ValidateModelName, branch r26.03 (commit 66f09f8)',
});

/**
 * r26.04 relaxed it (commit 50830ba "validate the model name while loading (follow POSIX standard)
 * (#481)"): the name is trimmed first; empty after trimming is "Model name cannot be empty. Please
 * enter a valid name to deploy."; path traversal is now only a trimmed name equal to ".." or holding a
 * '/' ("a..b" loads again).
 */
export const MODEL_NAME_VALIDATED_TRIMMED = Object.freeze<ReleaseChange>({
  area: 'core',
  what: "a model load request's name is refused when blank, exactly '..', or holding '/' (trimmed first)",
  releases: { since: '26.04' },
  source: 'triton-inference-server/core src/model_repository_manager/model_repository_manager.cc ValidateModelName, branch r26.04 (commit 50830ba)',
});

/** Why core refuses a model load request by its name (core's words: MODEL_NAME_REFUSALS). */
export type ModelNameRefusal = 'empty' | 'blank' | 'traversal' | 'emptyTrimmed';

/** Core's words for each refusal (model_repository_manager.cc ValidateModelName, r26.03 and r26.04). */
export const MODEL_NAME_REFUSALS: Readonly<Record<ModelNameRefusal, (name: string) => string>> = Object.freeze({
  empty: () => 'model name must not be empty',
  blank: () => 'model name must not contain only whitespace characters',
  traversal: (name: string) => `invalid model name '${name}', model name must not contain path traversal characters`,
  emptyTrimmed: () => 'Model name cannot be empty. Please enter a valid name to deploy.',
});

/**
 * Why core refuses a model load request by its name in `release`; undefined where core takes the
 * name (every release before 26.03, and names it accepts). Only load requests are checked
 * (LoadUnloadModel): models loaded when the server starts or polls are not.
 */
export function modelNameRefusal(name: string, release: TritonRelease): ModelNameRefusal | undefined {
  if (holdsIn(MODEL_NAME_VALIDATED.releases, release)) {
    if (name === '') return 'empty';
    if (/^[ \t\n\v\f\r]*$/.test(name)) return 'blank';
    if (name.includes('..') || name.includes('/')) return 'traversal';
    return undefined;
  }
  if (holdsIn(MODEL_NAME_VALIDATED_TRIMMED.releases, release)) {
    // boost::trim_copy: the classic locale's spaces (space, \t, \n, \v, \f, \r).
    const trimmed = name.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
    if (trimmed === '') return 'emptyTrimmed';
    if (trimmed === '..' || trimmed.includes('/')) return 'traversal';
  }
  return undefined;
}

/**
 * The PyTorch backend's AOTInductor platform in core's auto-fill and backend types (src/constants.h
 * kPyTorchAotiPlatform "torch_aoti", kPyTorchAotiFilename "model.pt2"; commit dabbddc "Add Support for
 * Torch AOTI (#477)", r26.03). Before, "torch_aoti" is an unknown platform ("unexpected platform type
 * 'torch_aoti' for <m>") and a model.pt2 file decides nothing.
 */
export const TORCH_AOTI_PLATFORM = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'platform torch_aoti and a model.pt2 file choose the pytorch backend (AOTInductor)',
  releases: { since: '26.03' },
  source: 'triton-inference-server/core src/constants.h and src/model_config_utils.cc AutoCompleteBackendFields, branch r26.03 (commit dabbddc)',
});

/**
 * r26.03's auto-fill, when it chose the pytorch backend, still set platform pytorch_libtorch on an
 * empty platform and default_model_filename model.pt on an empty one (unless runtime is model.py),
 * whatever chose it: a model.pt2 file became platform pytorch_libtorch with model.pt, and platform
 * torch_aoti got model.pt. r26.04 fixed it (commit ee0bc47 "Fix PyTorch Default Initialization
 * (#484)"): a model.pt2 file sets platform torch_aoti, torch_aoti gets model.pt2, and the file is
 * named only where the platform was empty (a config that names pytorch_libtorch keeps no
 * default_model_filename: the backend opens model.pt itself).
 */
export const PYTORCH_DEFAULTS_BY_PLATFORM = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'auto-fill names model.pt2 for torch_aoti (and platform torch_aoti for a model.pt2 file), and model.pt only where the platform was empty',
  releases: { since: '26.04' },
  source: 'triton-inference-server/core src/model_config_utils.cc AutoCompleteBackendFields, branch r26.04 (commit ee0bc47)',
});

/**
 * The platform "libtorch" is another name of pytorch_libtorch in auto-fill (src/constants.h
 * kPyTorchLibTorchPlatformAlt, first on r26.04, with commit ee0bc47). Before, "libtorch" is an
 * unknown platform.
 */
export const LIBTORCH_PLATFORM_ALIAS = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'platform "libtorch" is read as pytorch_libtorch',
  releases: { since: '26.04' },
  source: 'triton-inference-server/core src/constants.h kPyTorchLibTorchPlatformAlt, branch r26.04 (commit ee0bc47)',
});

/**
 * The non-linear IO checks (src/model_config_utils.cc ValidateNonLinearFormatIO: "Non-linear IO format
 * is only supported for the TensorRT platform", "Non-linear IO format <input|output> requires 3 dims"),
 * which came with the field is_non_linear_format_io (common's model_config.proto, r24.08) in core r24.08.
 * Before, the field does not parse at all (the config schema's facts say so). io-dims checks them.
 */
export const NON_LINEAR_FORMAT_IO_CHECKED = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'is_non_linear_format_io is checked: TensorRT only, and 3 dims',
  releases: { since: '24.08' },
  source: 'triton-inference-server/core src/model_config_utils.cc ValidateNonLinearFormatIO, branch r24.08',
});

/**
 * ValidateIOShape's messages name the tensor from r24.07 ("model input 'x' must specify 'dims'"); r24.05
 * and r24.06 say "model input must specify 'dims'" (src/model_config_utils.cc). The rules quote the
 * release's words (ioSubject).
 */
export const IO_MESSAGES_NAME_THE_TENSOR = Object.freeze<ReleaseChange>({
  area: 'core',
  what: "core's input and output messages name the tensor (\"model input 'x' must specify 'dims'\")",
  releases: { since: '24.07' },
  source: 'triton-inference-server/core src/model_config_utils.cc ValidateIOShape, branch r24.07',
});

/**
 * How ValidateIOShape's messages name a tensor in `release`: "model input 'x'" from 24.07, "model
 * input" before; and before 24.07 a missing data_type is "model output must specify 'data_type'" for
 * inputs too (r24.06 src/model_config_utils.cc hard-codes it).
 */
export function ioSubject(direction: 'input' | 'output', name: string, release: TritonRelease, check?: 'data_type'): string {
  if (holdsIn(IO_MESSAGES_NAME_THE_TENSOR.releases, release)) return `model ${direction} '${name}'`;
  return check === 'data_type' ? 'model output' : `model ${direction}`;
}

/**
 * A TRITON_BATCH_STRATEGY_PATH parameter (a custom batching library, without sequence batching) whose
 * path leaves the model directory is refused: "Batching library path escapes model repository."
 * (src/backend_model.cc TritonModel::Create, IsChildPathEscapingParentPath; commit dcb315d "Modernize
 * Child Path Detection (#497)", r26.06). Before, core loads the library from wherever the path names.
 * batch-strategy-path checks it.
 */
export const BATCH_LIBRARY_INSIDE_MODEL = Object.freeze<ReleaseChange>({
  area: 'core',
  what: 'a TRITON_BATCH_STRATEGY_PATH outside the model directory is refused',
  releases: { since: '26.06' },
  source: 'triton-inference-server/core src/backend_model.cc TritonModel::Create, branch r26.06 (commit dcb315d)',
});

/** Core's facts by release, for RELEASE_CHANGES. */
export const CORE_RELEASE_CHANGES: readonly ReleaseChange[] = Object.freeze([
  LABEL_OUTSIDE_MODEL_DIRECTORY,
  ELEMENT_COUNT_OVERFLOW,
  MODEL_NAME_VALIDATED,
  MODEL_NAME_VALIDATED_TRIMMED,
  TORCH_AOTI_PLATFORM,
  PYTORCH_DEFAULTS_BY_PLATFORM,
  LIBTORCH_PLATFORM_ALIAS,
  NON_LINEAR_FORMAT_IO_CHECKED,
  IO_MESSAGES_NAME_THE_TENSOR,
  BATCH_LIBRARY_INSIDE_MODEL,
]);

// What tritonc knows of one Triton backend, in one record: its names, its platforms, the model file
// it opens, and what its auto-complete does at load. Everything that asks "which backend serves
// this, which file does it open, what does it fill in" asks the records (src/triton/backend-records.ts
// looks them up); adding a backend is one file here and a line in ./index.ts.
import type { ModelConfig } from '../../config/model-config.js';
import type { ModelSignature } from '../../model-file/signature.js';
import type { ResolveProblem, ResolveStep } from '../changes.js';

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
  /** What kind of file it is: picks its reader (src/model-file/readers.ts), where tritonc has one. */
  readonly format: ModelFormat;
  /**
   * A directory at the model file's path holds the model under this name (with its external data
   * beside it): ONNX Runtime's ModelState::LoadModel.
   */
  readonly directoryHolds?: string;
  /**
   * The model is a directory, opened as a whole (a TensorFlow SavedModel: tensorflow_backend
   * ModelState::AutoCompleteConfig and TRITONTF_ModelCreateFromSavedModel load the path
   * <version>/model.savedmodel; core's AutoCompleteBackendFields looks for a directory of that name).
   */
  readonly modelIsDirectory?: boolean;
  /** How the backend checks a config against its model where it differs from ONNX Runtime's (the shared io-* rules read it). */
  readonly checks?: ModelChecks;
}

/** What a backend does differently from ONNX Runtime when it checks a config against its model file. */
export interface ModelChecks {
  /**
   * Auto-complete always runs (there is no "inputs and outputs already specified" skip) and adds every
   * model input the config leaves out, keeping config inputs the model lacks for the load to refuse;
   * outputs are filled only when the config lists none (tensorflow_backend src/tensorflow.cc
   * AutoCompleteHelper::FixConfigInputs / FixConfigOutputs).
   */
  readonly addsMissingInputs?: boolean;
  /**
   * A model tensor of rank 0 (no dims in the signature, unknown rank included) takes the config's shape
   * unchecked (tensorflow_backend ValidateInputs/ValidateOutputs: "the savedmodel doesn't specify a
   * shape ... so use the shape from the model configuration").
   */
  readonly rankZeroTakesConfigShape?: boolean;
  /**
   * Auto-complete reads a batching hint from each config tensor's dims against the model's rank and
   * refuses a config whose tensors disagree (tensorflow_backend AutoCompleteHelper::FixBatchingSupport:
   * "model tensor configurations are contradicting each other in terms of whether batching is supported").
   */
  readonly batchHintFromDims?: boolean;
}

/** The kind of a backend's model file; 'none' for models without one (Python's model.py is code). */
export type ModelFormat = 'onnx' | 'openvino' | 'pytorch' | 'tensorflow' | 'tensorrt' | 'other' | 'none';

/** What a backend's auto-complete did to a config: the config after it, its steps, and why it failed the load. */
export interface Completion {
  config: ModelConfig;
  steps: ResolveStep[];
  problems: ResolveProblem[];
}

/** Options the server's flags give auto-complete (--backend-config). */
export interface CompletionOptions {
  /** The ONNX Runtime backend's default-max-batch-size. */
  defaultMaxBatchSize?: number;
}

/**
 * What a backend's auto-complete does when Triton loads a model (TRITONBACKEND_ModelInitialize with
 * auto-complete on). Absent: the backend may fill in what it reads from its model file, which tritonc
 * does not read; resolve says so as pending.
 */
export type AutoComplete =
  /**
   * Completes the config from its model file's signature (inputs, outputs, max_batch_size), read by
   * the reader of the file's format (the workspace reads and keeps it).
   */
  | {
      readonly from: 'model';
      /** The config settings under which the backend does not complete it. */
      skipped(config: ModelConfig): boolean;
      /** Why it did not, as the backend logs it. */
      skippedNote(modelName: string, config: ModelConfig): string;
      complete(config: ModelConfig, signature: ModelSignature, options: CompletionOptions): Completion;
    }
  /** Fills nothing in: the config is complete as written, or Triton refuses it. */
  | { readonly from: 'none' }
  /** Completes the config from the config alone (fixed inputs and outputs). */
  | { readonly from: 'config'; complete(config: ModelConfig): Completion }
  /**
   * The model's own script may complete it (a Python model's auto_complete_config): tritonc does not
   * run it; `defines` tells from the script's text whether it does.
   */
  | { readonly from: 'script'; defines(scriptText: string): boolean };

export interface BackendRecord {
  /** The backend name, as config.pbtxt writes it (core constants.h k*Backend, or the backend's repository). */
  readonly name: string;
  /** What people call it, for messages ("ONNX Runtime"); default the name. */
  readonly title?: string;
  /** Its platforms; [] for a backend written by name only (backend: "python"). */
  readonly platforms: readonly PlatformRecord[];
  /** The default model file of a backend without platforms. */
  readonly defaultModelFile?: string;
  /** The kind of that file (a backend with platforms: each platform's). Default 'other'. */
  readonly format?: ModelFormat;
  /** Core's auto-fill knows it (core src/model_config_utils.cc AutoCompleteBackendFields). */
  readonly core: boolean;
  /** What its auto-complete fills in at load; see AutoComplete. */
  readonly autoComplete?: AutoComplete;
  /** Where its behaviour is read from, for the docs and for whoever updates the record. */
  readonly source: string;
  /** Triton's releases stopped building it (server build.py): the last release with it and the first without. */
  readonly dropped?: { readonly lastRelease: string; readonly firstWithout: string; readonly source: string };
}

// What tritonc knows of one Triton backend, in one record: its names, its platforms, the model file
// it opens, and what its auto-complete does at load. Everything that asks "which backend serves
// this, which file does it open, what does it fill in" asks the records (src/triton/backend-records.ts
// looks them up); adding a backend is one file here and a line in ./index.ts.
import type { TritonTarget } from '../releases/target.js';
import type { ModelConfig } from '../../config/model-config.js';
import type { ModelSignature, SignatureFormat } from '../../model-file/signature.js';
import type { ScriptFacts } from '../../python-model/auto-complete-config.js';
import type { ResolveProblem, ResolveStep } from '../changes.js';
import type { Releases, TritonRelease } from '../releases/catalog.js';

export interface PlatformRecord {
  /** The releases that have this platform, where not all of them (torch_aoti is newer than LibTorch). */
  readonly releases?: Releases;
  /** The platform name, as config.pbtxt writes it (core constants.h k*PlatformType). */
  readonly name: string;
  /** Other names core accepts for it (auto-fill only). */
  readonly aliases?: readonly string[];
  /**
   * The model file the backend opens in a version directory when default_model_filename is unset
   * (core's auto-fill writes it, except for LibTorch, whose backend defaults to model.pt itself).
   */
  readonly defaultModelFile: string;
  /** What kind of file it is: picks its reader (src/model-readers/readers.ts), where tritonc has one. */
  readonly format: ModelFormat;
  /** What its model files are called in messages, in the plural ("TensorRT engines"), where tritonc has no reader of them. */
  readonly formatTitle?: string;
  /**
   * A directory at the model file's path holds the model under this name (with its external data
   * beside it): ONNX Runtime's ModelState::LoadModel.
   */
  readonly directoryHolds?: string;
  /** How its backend checks the config's tensors against the model file at load, over the backend's `io`. */
  readonly io?: IoChecks;
  /** The kinds of file its backend loads, where its format's reader yields more than one (PyTorch: TorchScript or an AOTInductor package). */
  readonly loads?: readonly SignatureFormat[];
  /**
   * The model is a directory, opened as a whole (a TensorFlow SavedModel: tensorflow_backend
   * ModelState::AutoCompleteConfig and TRITONTF_ModelCreateFromSavedModel load the path
   * <version>/model.savedmodel; core's AutoCompleteBackendFields looks for a directory of that name).
   */
  readonly modelIsDirectory?: boolean;
}

/** The kind of a backend's model file; 'none' for models without one (Python's model.py is code). */
export type ModelFormat = 'onnx' | 'openvino' | 'pytorch' | 'tensorflow' | 'tensorrt' | 'other' | 'none';

/** What a backend's auto-complete did to a config: the config after it, its steps, and why it failed the load. */
export interface Completion {
  config: ModelConfig;
  steps: ResolveStep[];
  problems: ResolveProblem[];
  /** What of the completion is not known (a script read up to a line it cannot follow), in a sentence. */
  unknown?: string;
}

/** Options the server's flags give auto-complete (--backend-config). */
export interface CompletionOptions {
  /** The backend's default-max-batch-size (--backend-config=<backend>,default-max-batch-size=N). */
  defaultMaxBatchSize?: number;
  /**
   * Runs a model's script (a Python model's auto_complete_config) instead of reading it: given the
   * script's path and the config the backend hands it, what it did. Only where the user asked
   * (`--run-python-autocomplete`); without it nothing runs.
   */
  runScript?: (scriptPath: string, config: ModelConfig) => ScriptFacts;
  /** Per backend name, where the server's flags give backends different ones (read before defaultMaxBatchSize). */
  defaultMaxBatchSizes?: Readonly<Record<string, number>>;
  /** The Triton judged against: a backend's auto-complete that changed between releases follows it (unset: the newest). */
  target?: TritonTarget | undefined;
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
      /** Its words when the model file is not there (default: "unable to find '<path>' for model instance '<model>'"). */
      noModelFile?(path: string, modelName: string): string;
    }
  /** Fills nothing in: the config is complete as written, or Triton refuses it. */
  | {
      readonly from: 'none';
      /** What the backend logs when it skips auto-complete, where it logs anything. */
      skippedLog?(modelName: string): string;
      /**
       * The backend's refusal at load of a config that leaves to auto-complete what the backend
       * never fills in (no inputs or no outputs listed), given the model's signature where it reads;
       * undefined where it loads. Asked only for such a config.
       */
      refusesUnlisted?(modelName: string, config: ModelConfig, signature: ModelSignature | undefined): string | undefined;
    }
  /** Completes the config from the config alone (fixed inputs and outputs). */
  | { readonly from: 'config'; complete(config: ModelConfig): Completion }
  /**
   * The model's own script completes it (a Python model's auto_complete_config): `defines` tells from
   * the script's text whether it does, `read` what it does as far as it can be read without running it
   * (src/python-model), and `complete` what that does to the config (or a run's facts, where the user
   * asked for one: CompletionOptions.runScript).
   */
  | {
      readonly from: 'script';
      defines(scriptText: string): boolean;
      read(scriptText: string): ScriptFacts;
      complete(config: ModelConfig, facts: ScriptFacts, how: 'read' | 'run'): Completion;
    };

/**
 * How a backend checks a config's inputs and outputs against its model at load, where it differs from
 * ONNX Runtime's (onnxruntime_backend src/onnxruntime.cc ValidateInputs / ValidateOutputs), the
 * default for every field. The shared rules (io-name, io-datatype, io-shape, missing-dynamic-axis)
 * read it.
 */
export interface IoChecks {
  /** Whether it refuses a data_type other than the model's element type (default true; false: TorchScript records none, OpenVINO converts). */
  readonly dataTypes?: boolean;
  /** The config data types it serves, where that is fewer than all ("unsupported datatype"). */
  readonly servedDataTypes?: readonly string[];
  /**
   * Which config entries count against the model's inputs: 'required' (ONNX Runtime: non-optional
   * inputs, batch_input entries, sequence controls and states against the model's required inputs),
   * 'listed' (OpenVINO: every `input` entry against every model input), or 'every-input' (LibTorch:
   * every input, optional ones too, plus batch_input entries, each sequence control kind present and
   * each state, against forward's arguments after self).
   */
  readonly inputCount?: 'required' | 'listed' | 'every-input';
  /**
   * How config inputs are paired with the model's: 'model-names' (default: every config name must be
   * the model's), or 'forward-arguments' (LibTorch: by forward's argument names when every config input
   * is one, else by `<name>__<index>` when every name has one, else in config order, a warning; a name
   * is never refused; a single Dict(str, Tensor) argument takes the inputs by name, uncounted).
   */
  readonly inputNames?: 'model-names' | 'forward-arguments';
  /** How outputs are paired: 'model-names' (default), or 'name-index' (LibTorch: by `<name>__<index>` when every name has one, else in config order). */
  readonly outputNames?: 'model-names' | 'name-index';
  /**
   * How it compares dims with the model's shape (its CompareDimsSupported): 'exact' (default, ONNX
   * Runtime's); 'batch-reshaped' (OpenVINO's: the batch dim is reshaped to max_batch_size, never compared; an input's -1 matches
   * anything when batching; otherwise a dynamic model dim matches any value, a range only values
   * strictly inside it, a static one only itself, for inputs and outputs alike); 'none' (LibTorch:
   * TorchScript records no shapes).
   */
  readonly shapes?: 'exact' | 'batch-reshaped' | 'none';
  /** Whether max_batch_size > 0 needs a dynamic first dim on every model tensor (default true). */
  readonly batchDimMustBeDynamic?: boolean;
  /** The config must list at least one input and one output, as nothing fills them in (default false). */
  readonly requiresInputsAndOutputs?: boolean;
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
  /** What that file is called in messages, in the plural ("Python models"), where tritonc has no reader of it. */
  readonly formatTitle?: string;
  /** Core's auto-fill knows it (core src/model_config_utils.cc AutoCompleteBackendFields). */
  readonly core: boolean;
  /** What its auto-complete fills in at load; see AutoComplete. */
  readonly autoComplete?: AutoComplete;
  /** How it checks the config's inputs and outputs against the model at load; default ONNX Runtime's. */
  readonly io?: IoChecks;
  /**
   * The instance groups it prefers (TRITONBACKEND_BackendAttributeAddPreferredInstanceGroup), which
   * core's NormalizeInstanceGroup uses for a config without instance_group (count 0: core's default).
   */
  readonly preferredInstanceGroups?: readonly { kind: 'KIND_CPU' | 'KIND_GPU' | 'KIND_AUTO'; count: number; gpus?: readonly number[] }[];
  /**
   * core's BackendType of it (model_config_utils.cc GetBackendType), for the backends that have one: a
   * platform of another type is refused ("unexpected 'platform' and 'backend' pair"); other backends
   * take any platform.
   */
  readonly backendType?: string;
  /** The extensions (no dot) its model files are named with, to suggest it from a file name. */
  readonly fileExtensions?: readonly string[];
  /** How many instances a KIND_CPU group without a count gets (core's SetDefaultInstanceCount); default 1. */
  readonly defaultCpuInstances?: number;
  /**
   * Its models run on the Python backend's ModelState (python_backend src/python_be.cc), which reads its
   * own model-level parameters (FORCE_CPU_ONLY_INPUT_TENSORS): the Python backend and those written in Python.
   */
  readonly pythonBased?: boolean;
  /** The model-level `parameters` keys `release`'s backend reads from config.pbtxt (editor completion); default none. */
  readonly parameterKeys?: (release: TritonRelease) => readonly string[];
  /** The releases that build it, where not all of them (`until`: the first release whose server has no library for it). */
  readonly releases?: Releases;
  /** Where `releases` was read. */
  readonly releasesSource?: string;
  /** Where its behaviour is read from, for the docs and for whoever updates the record. */
  readonly source: string;
}

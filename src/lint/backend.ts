// The platform and backend Triton settles on for a config, which many rules need to know (profile
// and shape tensors are TensorRT-only, the ONNX Runtime backend's batch checks, ...): core's
// AutoCompleteBackendFields (core src/model_config_utils.cc) over the model directory's first
// sub-directory, as the workspace computes it once per config.
import type { ModelConfig } from '../config/model-config.js';
import type { AutofillResult } from '../triton/autofill.js';
import { backendRecord, ioChecksOf, TENSORFLOW } from '../triton/backend-records.js';
import type { ModelContext } from './rule.js';

export interface SettledBackend {
  /** The config after core's AutoCompleteBackendFields. */
  config: ModelConfig;
  platform: string;
  backend: string;
  /** Whether a sub-directory of the model directory was there to look at. */
  listingSeen: boolean;
  /**
   * Whether the outcome depended on files Triton would look at but that are not there to see (the
   * model directory has no sub-directory): then a finding is a guess, not Triton's certain answer.
   */
  guessed: boolean;
  /** The backend comes from model files provisioned elsewhere (--configs-only): unknown here. */
  unknown: boolean;
  autofill: AutofillResult;
}

/** The platform and backend Triton settles on for this config in this model directory (AutoCompleteBackendFields). */
export function settledBackend(ctx: Pick<ModelContext<unknown>, 'config' | 'model'>): SettledBackend {
  const listing = ctx.model.autofillListing();
  const autofill = ctx.model.autofill(ctx.config);
  const c = ctx.config;
  const filesMatter = !c.platform && !c.default_model_filename && (!c.backend || c.backend === TENSORFLOW.name);
  return {
    config: autofill.config,
    platform: autofill.config.platform ?? '',
    backend: autofill.config.backend ?? '',
    listingSeen: listing.firstSubdir !== undefined,
    guessed: filesMatter && listing.firstSubdir === undefined,
    unknown: autofill.unknownBackend === true,
    autofill,
  };
}

/** The model's name in Triton's messages: config.name, or the directory's name core fills in. */
export const modelName = (ctx: Pick<ModelContext<unknown>, 'config' | 'model'>): string => ctx.config.name || ctx.model.name;

/** How the backend checks a config's inputs and outputs against the model at load: its records' `io`, ONNX Runtime's by default. */
export interface SettledIoChecks {
  /** The backend's name in messages ("OpenVINO"). */
  title: string;
  dataTypes: boolean;
  inputCount: 'required' | 'listed' | 'every-input';
  inputNames: 'model-names' | 'forward-arguments';
  outputNames: 'model-names' | 'name-index';
  shapes: 'exact' | 'batch-reshaped' | 'none';
  batchDimMustBeDynamic: boolean;
  requiresInputsAndOutputs: boolean;
  servedDataTypes: readonly string[] | undefined;
}

export function ioChecks(ctx: Pick<ModelContext<unknown>, 'config' | 'model'>): SettledIoChecks {
  const settled = settledBackend(ctx);
  const record = backendRecord(settled.backend);
  const io = ioChecksOf(settled.config);
  return {
    title: record?.title ?? record?.name ?? 'ONNX Runtime',
    dataTypes: io.dataTypes ?? true,
    inputCount: io.inputCount ?? 'required',
    inputNames: io.inputNames ?? 'model-names',
    outputNames: io.outputNames ?? 'model-names',
    shapes: io.shapes ?? 'exact',
    batchDimMustBeDynamic: io.batchDimMustBeDynamic ?? true,
    requiresInputsAndOutputs: io.requiresInputsAndOutputs ?? false,
    servedDataTypes: io.servedDataTypes,
  };
}

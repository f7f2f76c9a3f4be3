// A model's config as other models see it once Triton has loaded it: core's auto-fill, then its
// backend's auto-complete (by the backend's record), and which parts of it tritonc can vouch for.
// Core's ensemble validation compares each step with this config (core src/ensemble_scheduler/
// ensemble_utils.cc ValidateEnsembleConfig reads the composing model's loaded config); what the
// backend fills in from a file tritonc does not read is unknown, never guessed.
import type { ModelConfig } from '../config/model-config.js';
import type { AutofillResult } from './autofill.js';
import { backendAutoComplete, type AutoCompleteInputs } from './backend-autocomplete.js';
import { ENSEMBLE_PLATFORM, type CompletionOptions } from './backend-records.js';

export interface CompletedConfig {
  config: ModelConfig;
  /** Its inputs are the ones Triton serves (written, or filled in by auto-complete tritonc reproduces). */
  inputs: boolean;
  outputs: boolean;
  maxBatchSize: boolean;
  /** Whether it is decoupled is known. */
  decoupled: boolean;
  /** Why something is unknown, for debugging and tests. */
  note?: string;
}

export const UNKNOWN_COMPLETION: CompletedConfig = { config: {}, inputs: false, outputs: false, maxBatchSize: false, decoupled: false };

export interface CompletionSource extends AutoCompleteInputs {
  /** The config as written ({} when the model has none); undefined when it does not parse. */
  readonly config: ModelConfig | undefined;
  /** core's AutoCompleteBackendFields on a config of this model. */
  autofill(config: ModelConfig): AutofillResult;
}

export interface CompletedOptions extends CompletionOptions {
  /** false for a server started with --disable-auto-complete-config: every config runs as written. */
  autoCompleteConfig?: boolean;
}

export function completedConfig(model: CompletionSource, options: CompletedOptions = {}): CompletedConfig {
  if (!model.config) return { ...UNKNOWN_COMPLETION, note: 'config has syntax errors' };
  const filled = model.autofill(model.config);
  if (filled.problem) return { ...UNKNOWN_COMPLETION, note: filled.problem.message };
  const config = filled.config;
  const known = (c: ModelConfig): CompletedConfig => ({ config: c, inputs: true, outputs: true, maxBatchSize: true, decoupled: true });
  if (config.platform === ENSEMBLE_PLATFORM) return known(config);
  if (options.autoCompleteConfig === false) return known(config);
  const hasInputs = (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) > 0;
  const hasOutputs = (config.output?.length ?? 0) > 0;
  const writtenMbs = Number(config.max_batch_size ?? 0);
  const outcome = backendAutoComplete(config, model, options);
  switch (outcome.kind) {
    case 'skipped':
    case 'none':
      return known(config);
    case 'completed': {
      const { completion } = outcome;
      if (completion.problems.length) return { ...UNKNOWN_COMPLETION, note: completion.problems[0]!.message };
      // A script read up to a line it cannot follow: what it did so far stands, the rest may add more.
      if (completion.unknown) {
        const c = completion.config;
        return { config: c, inputs: false, outputs: false, maxBatchSize: false, decoupled: false, note: completion.unknown };
      }
      return known(completion.config);
    }
    case 'no-model-file':
    case 'unreadable-model':
      return {
        config,
        inputs: hasInputs,
        outputs: hasOutputs,
        maxBatchSize: writtenMbs > 0,
        decoupled: true,
        note: `no readable model file to complete the config from`,
      };
    case 'script':
    case 'unread': {
      // Other backends complete what the config leaves out in their own ways; trust what is written.
      const script = outcome.kind === 'script' && outcome.defines;
      const completes = script || !(hasInputs && hasOutputs);
      return {
        config,
        inputs: hasInputs && !script,
        outputs: hasOutputs && !script,
        maxBatchSize: writtenMbs > 0 || !completes,
        decoupled: !script || config.model_transaction_policy?.decoupled === true,
        ...(completes ? { note: `the ${config.backend} backend may complete the config` } : {}),
      };
    }
  }
}

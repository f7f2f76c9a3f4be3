// Every rule tritonc runs, in the order listings show them. Adding a rule: import it here (see rule.ts).
import { tensorrtllmParameters } from './correctness/tensorrtllm-parameters.js';
import { unfilledPlaceholder } from './correctness/unfilled-placeholder.js';
import { vllmModel } from './correctness/vllm-model.js';
import { pythonAutocomplete } from './correctness/python-autocomplete.js';
import { pythonParameters } from './correctness/python-parameters.js';
import { llmStreaming } from './correctness/llm-streaming.js';
import { decoupledClients } from './suspicious/decoupled-clients.js';
import type { Rule } from '../rule.js';
import { batchDimInDims } from './correctness/batch-dim-in-dims.js';
import { ioDatatype } from './correctness/io-datatype.js';
import { ioName } from './correctness/io-name.js';
import { ioShape } from './correctness/io-shape.js';
import { missingDynamicAxis } from './correctness/missing-dynamic-axis.js';
import { modelUnreadable } from './correctness/model-unreadable.js';
import { onnxRuntimeVersion } from './correctness/onnx-runtime-version.js';
import { syntax } from './correctness/syntax.js';
import { fieldRelease } from './correctness/field-release.js';
import { instanceMemory } from './performance/instance-memory.js';
import { queueDelay } from './performance/queue-delay.js';
import { fp16Accuracy } from './suspicious/fp16-accuracy.js';
import { ensembleInflightLimit } from './suspicious/ensemble-inflight-limit.js';
import { invalidSuppression } from './suspicious/invalid-suppression.js';
import { unusedSuppression } from './style/unused-suppression.js';
import { batchIo } from './correctness/batch-io.js';
import { instanceGroup } from './correctness/instance-group.js';
import { ioDims } from './correctness/io-dims.js';
import { maxBatchSize } from './correctness/max-batch-size.js';
import { modelFilename } from './correctness/model-filename.js';
import { modelMetrics } from './correctness/model-metrics.js';
import { sequenceControlInputs } from './correctness/sequence-control-inputs.js';
import { labelFile } from './correctness/label-file.js';
import { batchStrategyPath } from './correctness/batch-strategy-path.js';
import { missingConfig } from './correctness/missing-config.js';
import { uncheckedModel } from './correctness/unchecked-model.js';
import { lockMismatch } from './correctness/lock-mismatch.js';
import { modelWarmup } from './correctness/model-warmup.js';
import { nameMatchesDirectory } from './correctness/name-matches-directory.js';
import { platformBackend } from './correctness/platform-backend.js';
import { backendLibrary } from './correctness/backend-library.js';
import { preferredBatchSize } from './correctness/preferred-batch-size.js';
import { priorityQueue } from './correctness/priority-queue.js';
import { responseCache } from './correctness/response-cache.js';
import { sequenceBatching } from './correctness/sequence-batching.js';
import { accelerators } from './correctness/accelerators.js';
import { ensembleConfig } from './correctness/ensemble-config.js';
import { ensembleModels } from './correctness/ensemble-models.js';
import { versionDirs } from './correctness/version-dirs.js';
import { autocompleteSurprises } from './suspicious/autocomplete-surprises.js';
import { deploymentStorage } from './correctness/deployment-storage.js';
import { deploymentImage } from './suspicious/deployment-image.js';
import { deploymentGpus } from './correctness/deployment-gpus.js';
import { deploymentMemory } from './performance/deployment-memory.js';
import { deploymentPoll } from './suspicious/deployment-poll.js';
import { sagemakerDefaultModel } from './correctness/sagemaker-default-model.js';
import { deploymentEnsembleSplit } from './correctness/deployment-ensemble-split.js';

/**
 * Triton core's own load-time checks of one config (core src/model_config_utils.cc, AutoCompleteBackendFields
 * through ValidateModelIOConfig), in the order core runs them.
 */
export const CORE_RULES: readonly Rule[] = [
  // ReadTextProto with the release's model_config.proto: a field it lacks refuses the file.
  fieldRelease,
  nameMatchesDirectory,
  platformBackend,
  // TritonModel::Create, once the config is valid: the backend's library, before the backend runs.
  backendLibrary,
  modelFilename,
  maxBatchSize,
  preferredBatchSize,
  priorityQueue,
  sequenceBatching,
  responseCache,
  modelMetrics,
  instanceGroup,
  ioDims,
  batchIo,
  // Model::Init, after the validation above: the label files of the outputs; then TritonModel::Create's
  // custom batching library, and the instances' warmup.
  labelFile,
  batchStrategyPath,
  modelWarmup,
];

export const RULES: readonly Rule[] = [
  // correctness: Triton refuses to load it
  syntax,
  missingConfig,
  modelUnreadable,
  onnxRuntimeVersion,
  missingDynamicAxis,
  batchDimInDims,
  ioName,
  ioDatatype,
  ioShape,
  sequenceControlInputs,
  tensorrtllmParameters,
  unfilledPlaceholder,
  vllmModel,
  pythonAutocomplete,
  pythonParameters,
  uncheckedModel,
  lockMismatch,
  // suspicious: loads, but probably not what you meant
  fp16Accuracy,
  ensembleInflightLimit,
  decoupledClients,
  invalidSuppression,
  // performance
  queueDelay,
  instanceMemory,
  // style
  unusedSuppression,
  // ensembles (one model's, then across the repository), ONNX Runtime accelerators, version
  // directories, what auto-complete changes
  ensembleConfig,
  ensembleModels,
  llmStreaming,
  accelerators,
  versionDirs,
  autocompleteSurprises,
  // deployments (lint --deployment): the server's container, image and storage against what it serves
  deploymentStorage,
  deploymentImage,
  deploymentGpus,
  deploymentMemory,
  deploymentPoll,
  sagemakerDefaultModel,
  deploymentEnsembleSplit,
  // Triton core's checks of one config: name, backend, batching, sequences, instances, I/O, warmup
  ...CORE_RULES,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}

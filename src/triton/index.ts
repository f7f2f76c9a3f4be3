// Triton's behaviour, for library users (re-exported by src/index.ts): core's autofill and
// normalization, the ONNX Runtime backend's auto-complete, the effective config and its JSON form.
export { effectiveConfig, DEFAULT_GPUS, type ModelSource, type ResolveOptions, type ResolveResult, type ResolveFailure } from './effective-config.js';
export { tritonConfigJson, stringifyTritonJson, shortestFloat32, type TritonJson } from './triton-json.js';
export { inSchemaOrder } from './field-order.js';
export { autofillBackendFields, type AutofillListing, type AutofillResult, type EntryKind } from './autofill.js';
export { autoCompleteOnnx, onnxAutoCompleteSkipped, DEFAULT_MAX_BATCH_SIZE, type OnnxAutoCompleteOptions, type OnnxAutoCompleteResult } from './backends/onnxruntime/autocomplete.js';
export { normalizeModelConfig, normalizeInstanceGroup, instanceGroupProblem, SEQUENCE_IDLE_DEFAULT_MICROSECONDS, type NormalizeResult } from './normalize.js';
export { locateModelFile, modelFormat, type ModelFile, type ModelFormat } from './model-file-location.js';
export type { ResolveStage, ResolveStep, ResolveProblem } from './changes.js';

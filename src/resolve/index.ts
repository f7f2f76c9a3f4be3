// The effective-config API: what `tritonc resolve` prints, for library users (re-exported by src/index.ts).
export { resolveModelDir, locateOnnxModel, type ResolveOptions, type ResolveResult, type ResolveFailure } from './resolve.js';
export { tritonConfigJson, stringifyTritonJson, shortestFloat32, type TritonJson } from './triton-json.js';
export { readAutofillListing } from './listing.js';
export { inSchemaOrder } from './field-order.js';
export { autofillBackendFields, type AutofillListing, type AutofillResult, type EntryKind } from '../config/autofill.js';
export { autoCompleteOnnx, onnxAutoCompleteSkipped, DEFAULT_MAX_BATCH_SIZE, type OnnxAutoCompleteOptions, type OnnxAutoCompleteResult } from '../config/autocomplete-onnx.js';
export { normalizeModelConfig, normalizeInstanceGroup, instanceGroupProblem, SEQUENCE_IDLE_DEFAULT_MICROSECONDS, type NormalizeResult } from '../config/normalize.js';
export type { ResolveStage, ResolveStep, ResolveProblem } from '../config/changes.js';

// Shapes as verify compares them. Triton's notation throughout: -1 is "any size", shapes print as
// [d0,d1,...] with no spaces (how Triton prints them, so messages can be searched for in its logs).

/** A model-side dim as ONNX Runtime reports it: a number, or a string for a symbolic/unknown dim. */
export type ModelDim = number | string;

export const shapeText = (shape: readonly (number | string)[]): string => `[${shape.join(',')}]`;

/** The model's dims in Triton's notation: symbolic and unknown dims are -1. */
export const tritonDims = (shape: readonly ModelDim[]): number[] => shape.map((d) => (typeof d === 'number' && d >= 0 ? d : -1));

/** The model's shape as the file spells it, e.g. [batch,3,224,224] (ORT reports "" for an unnamed dim). */
export const modelShapeText = (shape: readonly ModelDim[]): string => shapeText(shape.map((d) => (d === '' ? '?' : d)));

/** The full shape Triton sees for a config tensor: [-1] + dims when the model batches. */
export const fullShape = (dims: readonly number[], batching: boolean): number[] => (batching ? [-1, ...dims] : [...dims]);

/**
 * The concrete shape verify sends: -1 in the config becomes `dynamicSize` (or the item shape `given`
 * for the input, when it has the same rank), the batch dim the batch size.
 */
export function requestShape(dims: readonly number[], batchSize: number | undefined, dynamicSize: number, given?: readonly number[]): number[] {
  const item = given && given.length === dims.length ? [...given] : dims.map((d) => (d < 0 ? dynamicSize : d));
  return batchSize === undefined ? item : [batchSize, ...item];
}

/** Whether an actual shape fits an expected one where -1 matches any size. */
export function shapeMatches(expected: readonly number[], actual: readonly number[]): boolean {
  return expected.length === actual.length && expected.every((d, i) => d < 0 || d === actual[i]);
}

export type DimsVerdict = { ok: true } | { ok: false; reason: 'not-batchable' | 'rank' | 'dim' | 'scalar'; index?: number };

/**
 * Triton's ONNX Runtime backend check of a config tensor against the model's declared shape
 * (onnxruntime_backend src/onnxruntime_utils.cc CompareDimsSupported): with batching the model's first
 * dim must be dynamic; ranks must agree; for inputs a dynamic model dim accepts any config dim, for
 * outputs (`exact`) every dim must be identical, -1 included. A rank-0 model tensor accepts config dims
 * that are all 1.
 */
export function compareDims(model: readonly number[], configDims: readonly number[], batching: boolean, exact: boolean): DimsVerdict {
  if (model.length === 0) return configDims.every((d) => d === 1) ? { ok: true } : { ok: false, reason: 'scalar' };
  if (batching && model[0] !== -1) return { ok: false, reason: 'not-batchable' };
  const full = fullShape(configDims, batching);
  if (full.length !== model.length) return { ok: false, reason: 'rank' };
  for (let i = 0; i < full.length; i++) {
    const m = model[i]!;
    const c = full[i]!;
    const fits = exact ? m === c : m === -1 || m === c;
    if (!fits) return { ok: false, reason: 'dim', index: i };
  }
  return { ok: true };
}

/** dims a config would need to match the model: its shape without the batch dim, symbolic dims as -1. */
export function suggestedDims(model: readonly number[], batching: boolean): number[] {
  const dims = batching ? model.slice(1) : [...model];
  return dims.length ? dims : [1];
}

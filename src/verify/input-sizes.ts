// The sizes verify sends for an input's variable (-1) dims. A graph can need more than 1 (a convolution
// longer than its kernel, a reflect pad), so the user may give them (--shape NAME:D1,D2,...), the
// config's model_warmup gives them where it has the input (Triton itself warms the model up with those
// dims: core model.cc / backend_model_instance.cc GenerateWarmupData), and otherwise every variable
// dim is sent as 1.
import type { ModelConfig } from '../config/model-config.js';
import { CannotRun } from './errors.js';
import { shapeText } from './shapes.js';

/** An input as the plan has it (plan.ts TensorSpec): its name and its config dims. */
interface SizedInput {
  name: string;
  dims: readonly number[];
}

export interface InputSize {
  /** The item shape to send (no batch dim). */
  dims: number[];
  /** Where it came from, for messages. */
  source: '--shape' | 'model_warmup';
}

/** --shape NAME:D1,D2,... as name and item shape; undefined when it does not parse. */
export function parseShapeFlag(text: string): { name: string; dims: number[] } | undefined {
  const m = /^(.+):(\d+(?:,\d+)*)$/.exec(text.trim());
  if (!m) return undefined;
  return { name: m[1]!, dims: m[2]!.split(',').map(Number) };
}

/** Whether `given` can stand for `dims`: the same rank, and equal where dims are fixed. */
const fits = (dims: readonly number[], given: readonly number[]): boolean => dims.length === given.length && dims.every((d, i) => d < 0 || d === given[i]);

export function inputSizes(inputs: readonly SizedInput[], config: ModelConfig, flags: readonly { name: string; dims: number[] }[]): Map<string, InputSize> {
  const out = new Map<string, InputSize>();
  for (const f of flags) {
    const input = inputs.find((i) => i.name === f.name);
    if (!input)
      throw new CannotRun(
        `--shape ${f.name}:${f.dims.join(',')}: '${f.name}' is not an input of config.pbtxt (its inputs: ${inputs.map((i) => i.name).join(', ') || 'none'})`,
      );
    if (!fits(input.dims, f.dims)) {
      throw new CannotRun(
        `--shape ${f.name}:${f.dims.join(',')}: input '${f.name}' has dims ${shapeText(input.dims)}; give one size per dim, without the batch dim, equal to the fixed ones (e.g. --shape ${f.name}:${input.dims.map((d) => (d < 0 ? 16 : d)).join(',')})`,
      );
    }
    out.set(f.name, { dims: f.dims, source: '--shape' });
  }
  // The first warmup sample that gives the input (ModelWarmup.inputs: name -> { dims, ... }).
  for (const w of config.model_warmup ?? []) {
    for (const [name, input] of Object.entries(w.inputs ?? {})) {
      const spec = inputs.find((i) => i.name === name);
      const dims = (input.dims ?? []).map(Number);
      if (!spec || out.has(name) || !fits(spec.dims, dims)) continue;
      out.set(name, { dims, source: 'model_warmup' });
    }
  }
  return out;
}

/**
 * What to say when the model fails at batch 1 (`batching`) or at its fixed shape with these sizes:
 * exit 2, and how to give others. With batching, dims that start with -1 are named first: when that -1
 * is the batch axis, the request holds it twice (Triton puts the batch dim before dims), and no --shape
 * helps; dropping it from dims does.
 */
export function sizesMessage(
  what: string,
  error: string,
  inputs: readonly SizedInput[],
  sizes: ReadonlyMap<string, InputSize>,
  dynamicSize: number,
  batching = false,
): string {
  const variable = inputs.filter((i) => i.dims.some((d) => d < 0));
  const given = [...sizes].map(([name, s]) => `'${name}' ${shapeText(s.dims)} from ${s.source}`);
  const leading = batching ? inputs.find((i) => i.dims.length > 1 && i.dims[0] === -1 && sizes.get(i.name)?.source !== '--shape') : undefined;
  const example = variable.find((i) => sizes.get(i.name)?.source !== '--shape') ?? variable[0];
  const shapeHow = example
    ? `pass --shape ${example.name}:${example.dims.map((d) => (d < 0 ? 16 : d)).join(',')} (the item shape without the batch dim; repeatable), or add model_warmup inputs with real sizes to the config`
    : 'check the model with the inputs it was exported for';
  const how = leading
    ? `input '${leading.name}' has dims ${shapeText(leading.dims)}, which start with -1: if that is the batch axis, it is in the request twice (Triton sends [1] + dims, ${shapeText([1, ...leading.dims.map((d) => (d < 0 ? dynamicSize : d))])}), so set dims: ${shapeText(leading.dims.slice(1))} (Triton adds the batch axis itself); if it is not, ${shapeHow}`
    : shapeHow;
  return (
    `could not check the model at these input sizes: it fails ${what}, before any batch-size question arises (${error}). ` +
    `Variable dims were sent as ${dynamicSize}${given.length ? `, except ${given.join(', ')}` : ''}; a graph may need more (a convolution longer than its kernel, a reflect pad): ${how}`
  );
}

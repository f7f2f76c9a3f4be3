// The config's inputs and outputs against the model's, as Triton's ONNX Runtime backend checks them at
// load time (onnxruntime_backend ValidateInputs / ValidateOutputs): names, data types, and shapes
// (inputs: a dynamic model dim accepts any config dim; outputs: identical dims). Pure: the caller
// passes what the runtime reports.
import type { TensorSpec } from './plan.js';
import { compareDims, fullShape, modelShapeText, shapeText, suggestedDims, tritonDims, type ModelDim } from './shapes.js';
import type { VerifyProblem } from './types.js';

/** A model input/output as the runtime reports it. */
export interface ModelTensor {
  name: string;
  /** The config TYPE_* name of its element type, when known. */
  dataType?: string;
  /** Its declared shape, when known ([] = scalar or unknown rank; ONNX Runtime reports both so). */
  shape?: readonly ModelDim[];
}

export interface IoCheckInput {
  inputs: readonly TensorSpec[];
  outputs: readonly TensorSpec[];
  maxBatchSize: number;
  modelInputs: readonly ModelTensor[];
  modelOutputs: readonly ModelTensor[];
  /** Model inputs Triton feeds itself (sequence controls and states, batch_input targets). */
  fedByTriton?: ReadonlySet<string>;
}

const list = (names: readonly string[]): string => (names.length ? names.map((n) => `'${n}'`).join(', ') : '(none)');

export function checkIo(c: IoCheckInput): VerifyProblem[] {
  const problems: VerifyProblem[] = [];
  const batching = c.maxBatchSize > 0;
  const configInputs = new Set(c.inputs.map((t) => t.name));
  for (const m of c.modelInputs) {
    if (!configInputs.has(m.name) && !c.fedByTriton?.has(m.name)) {
      problems.push({
        kind: 'io-name',
        ruleId: 'io-name',
        tensor: m.name,
        message: `the model's input '${m.name}' is missing from config.pbtxt, so Triton refuses the load ("configuration expects ${c.inputs.length} inputs, model provides ${c.modelInputs.length}"); add it to input [ ... ]`,
      });
    }
  }
  const sides: ['input' | 'output', readonly TensorSpec[], readonly ModelTensor[]][] = [
    ['input', c.inputs, c.modelInputs],
    ['output', c.outputs, c.modelOutputs],
  ];
  for (const [side, specs, model] of sides) {
    const byName = new Map(model.map((m) => [m.name, m]));
    for (const spec of specs) {
      const m = byName.get(spec.name);
      if (!m) {
        problems.push({
          kind: 'io-name',
          ruleId: 'io-name',
          tensor: spec.name,
          message: `config ${side} '${spec.name}' is not an ${side} of the model; the model's ${side}s are ${list(model.map((t) => t.name))}. Use one of those names in config.pbtxt`,
        });
        continue;
      }
      if (m.dataType && m.dataType !== spec.dataType) {
        problems.push({
          kind: 'io-datatype',
          ruleId: 'io-datatype',
          tensor: spec.name,
          message: `${side} '${spec.name}': config.pbtxt says data_type: ${spec.dataType} but the model's ${side} is ${m.dataType}; set data_type: ${m.dataType}`,
        });
      }
      if (m.shape) {
        const p = shapeProblem(side, spec, m.shape, c.maxBatchSize, batching);
        if (p) problems.push(p);
      }
    }
  }
  return problems;
}

function shapeProblem(
  side: 'input' | 'output',
  spec: TensorSpec,
  shape: readonly ModelDim[],
  maxBatchSize: number,
  batching: boolean,
): VerifyProblem | undefined {
  const model = tritonDims(shape);
  const verdict = compareDims(model, spec.modelDims, batching, side === 'output');
  if (verdict.ok) return undefined;
  const name = spec.name;
  const dimsField = spec.modelDims === spec.dims ? 'dims' : 'reshape.shape';
  const configText = batching ? `${shapeText(fullShape(spec.modelDims, true))} ([-1] + ${dimsField} ${shapeText(spec.modelDims)})` : shapeText(spec.modelDims);
  const modelText = modelShapeText(shape);
  if (verdict.reason === 'scalar') {
    return {
      kind: 'io-shape',
      ruleId: 'io-shape',
      tensor: name,
      message: `${side} '${name}' is a scalar in the model (shape []); config.pbtxt gives ${dimsField} ${shapeText(spec.modelDims)}, where Triton accepts only [1]`,
    };
  }
  if (verdict.reason === 'not-batchable') {
    return {
      kind: 'missing-dynamic-axis',
      ruleId: 'missing-dynamic-axis',
      tensor: name,
      message: `${side} '${name}': max_batch_size is ${maxBatchSize} but the model's shape ${modelText} has no dynamic first dim, so Triton cannot batch it. Re-export the model with a dynamic batch axis, or set max_batch_size: 0 with ${dimsField} ${shapeText(model.length ? model : [1])}`,
    };
  }
  if (batching && verdict.reason === 'rank' && spec.modelDims.length === model.length && model.length > 0) {
    return {
      kind: 'io-shape',
      ruleId: 'batch-dim-in-dims',
      tensor: name,
      message: `${side} '${name}': ${dimsField} ${shapeText(spec.modelDims)} include the batch axis; with max_batch_size: ${maxBatchSize} Triton expects ${dimsField} ${shapeText(suggestedDims(model, true))} (full shape ${configText} against the model's ${modelText})`,
    };
  }
  const exactNote =
    side === 'output' && verdict.reason === 'dim' && model[verdict.index!] === -1 ? " (an output must write -1 where the model's dim is dynamic)" : '';
  return {
    kind: 'io-shape',
    ruleId: 'io-shape',
    tensor: name,
    message: `${side} '${name}': config.pbtxt's shape ${configText} does not match the model's ${modelText}${exactNote}; set ${dimsField}: ${shapeText(suggestedDims(model, batching))}`,
  };
}

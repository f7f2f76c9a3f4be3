// Config dims against the model's shape, as Triton's ONNX Runtime backend compares them per listed
// tensor (onnxruntime_backend ValidateInputs / ValidateOutputs, CompareDimsSupported): the request
// shape ([-1] + dims when batching, reshape.shape when given) must have the model's rank; an input may
// pin a dynamic model dim, an output must match exactly; a scalar model tensor takes dims of 1s; ragged
// inputs need model shape [-1]; optional inputs need max_batch_size 0. Two cases have their own, more
// specific rules and are left to them while they are on: a fixed model batch dim (missing-dynamic-axis)
// and dims that repeat the batch axis (batch-dim-in-dims). TensorFlow (its record's `checks`) compares
// the config after its auto-complete, leaves a rank-0 signature tensor to the config's shape, and first
// refuses dims that hint at batching and at no batching together (AutoCompleteHelper::FixBatchingSupport).
import type { TensorInfo } from '../../../model-file/signature.js';
import { isDynamicDim } from '../../../onnx/signature.js';
import { batchingHint } from '../../../triton/autocomplete-tensorflow.js';
import { backendRecord } from '../../../triton/backend-records.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import {
  batchOutputTargets, checkedConfig, comparedShape, configTensors, dimsText, firstMismatch, hasFixedFirstDim, includesBatchAxis, maxBatchSize,
  modelShapeText, modelTensor, requestShape, requestShapeText, tritonShape, type ConfigTensor,
} from '../../tensors.js';

const SCALAR = `{{direction}} '{{name}}' is a scalar in the model, so Triton accepts only 1s in {{field}}, but {{field}} is {{dimsText}}`;
const RANK = '{{field}} {{dimsText}} give a shape of rank {{length}} where the model has rank {{modelLength}}';
const SHAPES = `the request shape is {{requestShapeText}}, the model's {{direction}} '{{name}}' is {{modelShapeText}}`;

const CONTRADICTING = `Triton's {{backend}} backend cannot tell whether the model batches, and refuses it; write every tensor's dims without the batch dimension (with max_batch_size > 0), or every tensor's full shape (max_batch_size: 0)`;

const messages = {
  optionalAndRagged: `input '{{name}}' is both optional and allow_ragged_batch, which Triton does not support; drop one of them`,
  optionalWithBatching: `optional input '{{name}}' is not supported with max_batch_size: {{mbs}} (Triton allows optional inputs only for models that do not batch); set max_batch_size: 0 or make the input required`,
  raggedNeedsFlatInput: `ragged input '{{name}}' needs the model input to be one flat dynamic axis, shape [-1], but the model's is {{modelShapeText}}; re-export the model taking the concatenated items as [-1], or drop allow_ragged_batch`,
  scalarNeedsOnes: `${SCALAR}; set {{field}}: [1]`,
  scalarNeedsOnesAndReshape: `${SCALAR}; set {{field}}: [1] and add reshape { shape: [ ] }`,
  batchAxisNotDynamic: `with max_batch_size: {{mbs}} the model's {{direction}} '{{name}}' needs a dynamic first dimension, but it is {{modelShapeText}}; re-export the model with dynamic_axes on dim 0, or set max_batch_size: 0`,
  rankMismatch: `${RANK}: ${SHAPES}; set {{field}}: {{expectedText}}`,
  rankMismatchScalarItems: `${RANK}: ${SHAPES}; set dims: [1] and reshape { shape: [ ] }`,
  dimMismatch: `{{field}}[{{index}}] is {{value}} where the model has {{modelDim}}: ${SHAPES}; set {{field}}: {{expectedText}}`,
  batchHintContradiction: `{{direction}} '{{name}}' has dims {{dimsText}}, not the model's {{modelShapeText}} less its batch dimension, but {{firstDirection}} '{{firstName}}' has dims {{firstDimsText}}, the model's {{firstShapeText}} less its batch dimension: ${CONTRADICTING}`,
  batchHintContradictionBatched: `{{direction}} '{{name}}' has dims {{dimsText}}, the model's {{modelShapeText}} less its batch dimension, but {{firstDirection}} '{{firstName}}' has dims {{firstDimsText}}, not the model's {{firstShapeText}} less its batch dimension: ${CONTRADICTING}`,
  outputDimNotDynamic: `{{field}}[{{index}}] is {{value}} where the model's output is dynamic (-1), and Triton requires output dims identical to the model's: ${SHAPES}; set {{field}}: {{expectedText}}`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const ioShape = defineModelRule({
  meta: {
    id: 'io-shape',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: "Config dims must fit the model's shape the way Triton's ONNX Runtime backend compares them",
    prevents: [
      "model '<model>', tensor '<name>': the model expects <r> dimensions (shape <onnx>) but the model configuration specifies <r'> dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape <full>)",
      "model '<model>', tensor '<name>': the model expects <r> dimensions (shape <onnx>) but the model configuration specifies <r'> dimensions (shape <cfg>)",
      "unable to load model '<model>', scalar tensor '<name>', should only provide 1 in the model configuration when the model doesn't support batching. Model configuration provided: <dims>.",
      "unable to load model '<model>', optional input '<name>' is not supported for models that support batching",
      "unable to load model '<model>', configuration expects model provides input with shape [-1]  for ragged input '<name>', model provides <shape>",
      "unable to load model '<model>', configuration expects model provides input with shape [-1] for ragged input '<name>', which is not supported for optional input",
      "unable to autofill for '<model>', model tensor configurations are contradicting each other in terms of whether batching is supported",
    ],
    messages,
  },
  check(ctx) {
    const sig = ctx.signature!;
    const { config, sides, checks, halted } = checkedConfig(ctx);
    if (halted) {
      if (checks.batchHintFromDims) reportContradiction(ctx);
      return;
    }
    const skipOutputs = batchOutputTargets(config);
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(config, direction)) {
        if (direction === 'output' && skipOutputs.has(t.name)) continue;
        const model = modelTensor(sig, direction, t.name);
        if (!model || model.kind !== 'tensor' || model.shape === null) continue;
        // TensorFlow: a signature tensor without dims takes the config's shape, unchecked.
        if (checks.rankZeroTakesConfigShape && model.shape.length === 0) continue;
        checkTensor(ctx, t, model, maxBatchSize(config));
      }
    }
  },
});

/** TensorFlow's FixBatchingSupport: one tensor's dims leave out the batch dimension, another's do not. */
function reportContradiction(ctx: Ctx): void {
  const { contradiction: c, first } = batchingHint(ctx.config, ctx.signature!);
  if (!c || !first) return;
  const backend = settledBackend(ctx).backend;
  ctx.report({
    path: [c.direction, c.index, ctx.config[c.direction]![c.index]!.reshape ? 'reshape' : 'dims'],
    messageId: c.batch ? 'batchHintContradictionBatched' : 'batchHintContradiction',
    data: {
      direction: c.direction, name: c.name, dims: c.dims, dimsText: dimsText(c.dims), modelShapeText: dimsText(c.shape),
      firstDirection: first.direction, firstName: first.name, firstDims: first.dims, firstDimsText: dimsText(first.dims), firstShapeText: dimsText(first.shape),
      backend: backendRecord(backend)?.title ?? backend,
    },
  });
}

function checkTensor(ctx: Ctx, t: ConfigTensor, model: TensorInfo, mbs: number): void {
  const shape = comparedShape(t);
  const modelShape = tritonShape(model.shape!);
  const isInput = t.direction === 'input';

  if (isInput && 'optional' in t.entry && t.entry.optional) {
    if (t.entry.allow_ragged_batch) {
      ctx.report({ path: [...t.path, 'allow_ragged_batch'], messageId: 'optionalAndRagged',
      data: { name: t.name } });
      return;
    }
    if (mbs !== 0) {
      ctx.report({
        path: [...t.path, 'optional'],
        messageId: 'optionalWithBatching',
        data: { name: t.name, mbs },
      });
      return;
    }
  }
  if (isInput && 'allow_ragged_batch' in t.entry && t.entry.allow_ragged_batch) {
    if (!(model.shape!.length === 1 && isDynamicDim(model.shape![0]!))) {
      ctx.report({
        path: [...t.path, 'allow_ragged_batch'],
        messageId: 'raggedNeedsFlatInput',
        data: { modelShape: model.shape, name: t.name, modelShapeText: modelShapeText(model) },
      });
    }
    return;
  }

  // A scalar model tensor: Triton only asks that every config dim be 1.
  if (modelShape.length === 0) {
    const k = shape.dims.findIndex((d) => d !== 1);
    if (k >= 0) {
      ctx.report({
        path: [...shape.elementPath, k],
        messageId: mbs > 0 && shape.field === 'dims' ? 'scalarNeedsOnesAndReshape' : 'scalarNeedsOnes',
        data: { dims: shape.dims, dimsText: dimsText(shape.dims), modelShape: model.shape, direction: t.direction, name: t.name, field: shape.field },
      });
    }
    return;
  }

  if (mbs > 0) {
    if (hasFixedFirstDim(model)) {
      if (ctx.isEnabled('missing-dynamic-axis')) return;
      ctx.report({
        path: [...shape.elementPath],
        messageId: 'batchAxisNotDynamic',
        data: { mbs, direction: t.direction, name: t.name, modelShapeText: modelShapeText(model) },
      });
      return;
    }
    if (includesBatchAxis(shape.dims, model, mbs) && ctx.isEnabled('batch-dim-in-dims')) return;
  }

  const full = requestShape(shape.dims, mbs);
  const suggestion = suggestedDims(shape.dims, modelShape, mbs, isInput);
  const shapes = {
    dims: shape.dims, requestShape: full, modelShape: model.shape, expected: suggestion, field: shape.field, expectedText: dimsText(suggestion),
    requestShapeText: requestShapeText(shape.dims, mbs), direction: t.direction, name: t.name, modelShapeText: modelShapeText(model),
  };
  if (full.length !== modelShape.length) {
    ctx.report({
      path: [...shape.elementPath],
      // A batching model whose tensor is only the batch axis takes per-item scalars: dims [1] + empty reshape.
      messageId: mbs > 0 && modelShape.length === 1 ? 'rankMismatchScalarItems' : 'rankMismatch',
      data: { ...shapes, dimsText: dimsText(shape.dims), length: full.length, modelLength: modelShape.length },
    });
    return;
  }
  const k = firstMismatch(full, modelShape, !isInput);
  if (k === undefined) return;
  const index = mbs > 0 ? k - 1 : k;
  // Same rank here, so a batching model's tensor is more than the batch axis: the fix is always the model's dims.
  ctx.report({
    path: [...shape.elementPath, index],
    messageId: !isInput && modelShape[k] === -1 ? 'outputDimNotDynamic' : 'dimMismatch',
    data: { ...shapes, index, value: full[k]!, modelDim: modelShape[k]! },
  });
}

/** The dims that would pass: the model's (without the batch axis), keeping an input's pinned sizes. */
function suggestedDims(dims: readonly number[], modelShape: readonly number[], mbs: number, isInput: boolean): number[] {
  const item = mbs > 0 ? modelShape.slice(1) : [...modelShape];
  if (!item.length) return [1];
  if (!isInput || dims.length !== item.length) return item;
  return item.map((m, i) => (m === -1 ? dims[i]! : m));
}

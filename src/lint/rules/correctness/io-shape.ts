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
import { dimBounds, doesMatch } from '../../../triton/backends/openvino/dims.js';
import { ioChecks, modelName, type SettledIoChecks } from '../../backend.js';
import { autoCompleteOpenVino } from '../../../triton/backends/openvino/autocomplete.js';
import { defaultMaxBatchSize } from '../../../triton/server-options.js';
import { batchingHint } from '../../../triton/backends/tensorflow/autocomplete.js';
import { backendRecord, OPENVINO } from '../../../triton/backend-records.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import {
  batchOutputTargets,
  isDynamicDim,
  checkedConfig,
  comparedShape,
  configTensors,
  dimsText,
  firstMismatch,
  hasFixedFirstDim,
  includesBatchAxis,
  maxBatchSize,
  modelShapeText,
  modelTensor,
  requestShape,
  requestShapeText,
  tritonShape,
  type ConfigTensor,
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
  batchNeedsRank: `with max_batch_size: {{mbs}} Triton's {{backend}} backend needs the model's {{direction}} '{{name}}' to have at least one dimension (the batch), but it is a scalar; set max_batch_size: 0`,
  dimOutsideRange: `{{field}}[{{index}}] is {{value}} where the model's dimension is the range {{modelDim}}, and Triton's {{backend}} backend takes only sizes strictly between its bounds: ${SHAPES}; set {{field}}: {{expectedText}}`,
  autoCompletedDimsRefused: `Triton's {{backend}} backend auto-completes {{direction}} '{{name}}' with dims {{dimsText}} (every dim -1, as the model's shape {{modelShapeText}} has a dynamic one) and then refuses them against the model's static dims ("the model expects {{rank}} dimensions (shape {{expectsText}}) but the model configuration specifies ..."); list the {{direction}}s in the config with the model's dims, e.g. {{entry}}`,
  rankMismatchFilledBatch: `max_batch_size is 0 or unset, which Triton's {{backend}} backend replaces with {{mbs}} at load (every model input and output has a layout with N), so {{field}} must leave out the batch dimension: {{field}} {{dimsText}} give a shape of rank {{length}} where the model has rank {{modelLength}}; set {{field}}: {{expectedText}} and max_batch_size: {{mbs}} (or more)`,
  staticDimNotMatched: `{{field}}[{{index}}] is {{value}} where the model has {{modelDim}}, and Triton's {{backend}} backend compares every dim without batching (a -1 matches only a dynamic model dim): ${SHAPES}; set {{field}}: {{expectedText}}`,
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
      "model '<model>', tensor '<name>': for the model to support batching the shape should have at least 1 dimension",
      "unable to autofill for '<model>', model tensor configurations are contradicting each other in terms of whether batching is supported",
    ],
    messages,
  },
  check(ctx) {
    const sig = ctx.signature!;
    const { config, sides, checks: tf, halted } = checkedConfig(ctx);
    if (halted) {
      if (tf.batchHintFromDims) reportContradiction(ctx);
      return;
    }
    const checks = ioChecks(ctx);
    // A backend that never compares shapes at load (PyTorch); a shapeless tensor is skipped below too.
    if (checks.shapes === 'none') return;
    const skipOutputs = batchOutputTargets(config);
    if (checks.shapes === 'batch-reshaped' && sides.autoComplete) checkOpenVinoAutoComplete(ctx, checks);
    // The OpenVINO backend always auto-completes (no skip rule), so the max_batch_size it validates
    // with is the one its AutoCompleteBatching leaves: a 0 becomes default-max-batch-size when every
    // layout has N.
    const ovMbs = checks.shapes === 'batch-reshaped' ? openVinoMaxBatchSize(ctx) : undefined;
    for (const direction of ['input', 'output'] as const) {
      if (direction === 'input' ? !sides.inputs : !sides.outputs) continue;
      for (const t of configTensors(config, direction)) {
        if (direction === 'output' && skipOutputs.has(t.name)) continue;
        const model = modelTensor(sig, direction, t.name);
        if (!model || model.kind !== 'tensor' || model.shape === null) continue;
        if (checks.shapes === 'batch-reshaped') {
          checkOpenVinoTensor(ctx, t, model, checks, ovMbs!);
          continue;
        }
        // TensorFlow: a signature tensor without dims takes the config's shape, unchecked.
        if (tf.rankZeroTakesConfigShape && model.shape.length === 0) continue;
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
      direction: c.direction,
      name: c.name,
      dims: c.dims,
      dimsText: dimsText(c.dims),
      modelShapeText: dimsText(c.shape),
      firstDirection: first.direction,
      firstName: first.name,
      firstDims: first.dims,
      firstDimsText: dimsText(first.dims),
      firstShapeText: dimsText(first.shape),
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
      ctx.report({ path: [...t.path, 'allow_ragged_batch'], messageId: 'optionalAndRagged', data: { name: t.name } });
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
    dims: shape.dims,
    requestShape: full,
    modelShape: model.shape,
    expected: suggestion,
    field: shape.field,
    expectedText: dimsText(suggestion),
    requestShapeText: requestShapeText(shape.dims, mbs),
    direction: t.direction,
    name: t.name,
    modelShapeText: modelShapeText(model),
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

/**
 * The sides the OpenVINO backend auto-completes are validated like written ones (ValidateInputs /
 * ValidateOutputs after AutoCompleteConfig): its all -1 dims for a shape with a dynamic dim fail
 * against a static dim (triton/backends/openvino/autocomplete.ts says which).
 */
function checkOpenVinoAutoComplete(ctx: Ctx, checks: SettledIoChecks): void {
  const sig = ctx.signature!;
  const done = autoCompleteOpenVino({ ...ctx.config, name: modelName(ctx) }, sig, {
    defaultMaxBatchSize: defaultMaxBatchSize(ctx.settings.server, OPENVINO.name),
  });
  const refused = done.problems.find((p) => p.path?.[2] === 'dims');
  if (!refused) return;
  const direction = refused.path![0] as 'input' | 'output';
  const index = refused.path![1] as number;
  const tensor = (direction === 'input' ? sig.inputs : sig.outputs)[index]!;
  const entry = (direction === 'input' ? done.config.input : done.config.output)![index]!;
  const mbs = done.config.max_batch_size ?? 0;
  const expects = tensor.shape!.map((d, i) => (direction === 'output' && mbs > 0 && i === 0 ? mbs : typeof d === 'number' && d >= 0 ? d : -1));
  const item = tensor.shape!.slice(mbs > 0 ? 1 : 0).map((d) => (typeof d === 'number' && d >= 0 ? d : -1));
  ctx.report({
    path: [],
    messageId: 'autoCompletedDimsRefused',
    data: {
      backend: checks.title,
      direction,
      name: tensor.name,
      dims: entry.dims,
      dimsText: dimsText((entry.dims ?? []).map(Number)),
      modelShapeText: modelShapeText(tensor, checks.title),
      rank: tensor.shape!.length,
      expectsText: dimsText(expects),
      entry: `${direction} { name: "${tensor.name}" data_type: ${entry.data_type} dims: ${dimsText(item)} }`,
    },
  });
}

/**
 * openvino_backend src/openvino_utils.cc CompareDimsSupported: with max_batch_size > 0 the request is
 * [max_batch_size] + dims and the model's first dim is not compared (inputs: the backend reshapes it,
 * ov::set_batch; outputs: compared after that reshape, so it is max_batch_size), nor an input's -1;
 * without batching every dim is compared. doesMatch: a static dim only itself, an unbounded dynamic
 * one anything, a range (min..max) only sizes strictly between its bounds.
 */
function openVinoMaxBatchSize(ctx: Ctx): number {
  if (!ctx.settings.server.autoCompleteConfig) return maxBatchSize(ctx.config);
  const done = autoCompleteOpenVino({ ...ctx.config, name: modelName(ctx) }, ctx.signature!, {
    defaultMaxBatchSize: defaultMaxBatchSize(ctx.settings.server, OPENVINO.name),
  });
  return done.config.max_batch_size ?? 0;
}

function checkOpenVinoTensor(ctx: Ctx, t: ConfigTensor, model: TensorInfo, checks: SettledIoChecks, mbs: number): void {
  const filledMbs = mbs !== maxBatchSize(ctx.config);
  const shape = comparedShape(t);
  const modelShape = model.shape!;
  const isInput = t.direction === 'input';
  if (mbs > 0 && modelShape.length === 0) {
    ctx.report({ path: [...shape.elementPath], messageId: 'batchNeedsRank', data: { mbs, direction: t.direction, name: t.name, backend: checks.title } });
    return;
  }
  if (mbs > 0 && includesBatchAxis(shape.dims, model, mbs) && ctx.isEnabled('batch-dim-in-dims')) return;
  const item = mbs > 0 ? modelShape.slice(1) : modelShape;
  const suggestion =
    item.length === shape.dims.length
      ? item.map((d, i) => passingDim(d, shape.dims[i]!, isInput && mbs > 0))
      : item.map((d) => (typeof d === 'number' && d >= 0 ? d : passingDim(d, -1, isInput && mbs > 0)));
  const shapes = {
    dims: shape.dims,
    requestShape: requestShape(shape.dims, mbs),
    modelShape: model.shape,
    expected: suggestion,
    field: shape.field,
    expectedText: dimsText(suggestion),
    requestShapeText: requestShapeText(shape.dims, mbs),
    direction: t.direction,
    name: t.name,
    modelShapeText: modelShapeText(model, checks.title),
    backend: checks.title,
  };
  if (item.length !== shape.dims.length) {
    ctx.report({
      path: [...shape.elementPath],
      messageId: filledMbs ? 'rankMismatchFilledBatch' : 'rankMismatch',
      data: { ...shapes, dimsText: dimsText(shape.dims), length: shape.dims.length + (mbs > 0 ? 1 : 0), modelLength: modelShape.length, mbs },
    });
    return;
  }
  for (let index = 0; index < item.length; index++) {
    const value = shape.dims[index]!;
    if (isInput && mbs > 0 && value === -1) continue;
    const m = item[index]!;
    if (doesMatch(m, value)) continue;
    const bounds = dimBounds(m);
    ctx.report({
      path: [...shape.elementPath, index],
      messageId: bounds !== 'static' ? 'dimOutsideRange' : value === -1 ? 'staticDimNotMatched' : 'dimMismatch',
      data: { ...shapes, index, value, modelDim: m },
    });
    return;
  }
}

/** A value the backend accepts for model dim `d`, keeping `value` where it does. */
function passingDim(d: TensorInfo['shape'] extends (infer D)[] | null ? D : never, value: number, minusOneSkipped: boolean): number {
  if ((minusOneSkipped && value === -1) || doesMatch(d, value)) return value;
  const bounds = dimBounds(d);
  if (bounds === 'static') return d as number;
  if (minusOneSkipped) return -1;
  return bounds.max === null || bounds.min + 1 < bounds.max ? bounds.min + 1 : value;
}

/** The dims that would pass: the model's (without the batch axis), keeping an input's pinned sizes. */
function suggestedDims(dims: readonly number[], modelShape: readonly number[], mbs: number, isInput: boolean): number[] {
  const item = mbs > 0 ? modelShape.slice(1) : [...modelShape];
  if (!item.length) return [1];
  if (!isInput || dims.length !== item.length) return item;
  return item.map((m, i) => (m === -1 ? dims[i]! : m));
}

// max_batch_size > 0 promises Triton a batch axis first on every tensor; an ONNX model exported
// without dynamic_axes has a fixed first dim (usually 1) there and cannot take a batch. The reverse
// case, a model fixed at batch 1 served with max_batch_size 0, loads but never batches. TensorFlow's
// auto-complete refuses it first, over every signature tensor of rank > 0 (tensorflow_backend
// AutoCompleteHelper::FixBatchingSupport, ModelSupportsBatch).
import type { ModelConfig } from '../../../config/model-config.js';
import type { ModelSignature, TensorInfo } from '../../../model-file/signature.js';
import { ioChecks } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import {
  batchOutputTargets,
  checkedConfig,
  configTensors,
  dimsText,
  hasFixedFirstDim,
  maxBatchSize,
  modelShapeText,
  modelTensor,
  tritonShape,
  validatedSides,
  type Direction,
} from '../../tensors.js';
import { firstWritten } from '../../written-path.js';
import { backendRecord } from '../../../triton/backend-records.js';
import { batchAxisTensors, dynamicAxesText, partialBatchAxis, type DirectedTensor } from '../../../triton/io-mapping.js';

interface Bad {
  direction: Direction;
  tensor: TensorInfo;
}

export const missingDynamicAxis = defineModelRule({
  meta: {
    id: 'missing-dynamic-axis',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: 'With max_batch_size > 0 every model input and output needs a dynamic first (batch) dimension',
    messages: {
      batchAxisFixed:
        'max_batch_size: {{maxBatchSize}} needs a dynamic first (batch) dimension on every model input and output, but the model has {{list}}. Re-export the model with a dynamic batch axis (torch.onnx.export(..., dynamic_axes={{dynamicAxes}})), or set max_batch_size: 0 and give the full shape in dims ({{fullDims}})',
      batchAxisFixedNoShape:
        'max_batch_size: {{maxBatchSize}} needs a dynamic first (batch) dimension on every model input and output, but the model has {{list}}. Re-export the model with a dynamic batch axis (torch.onnx.export(..., dynamic_axes={{dynamicAxes}})), or set max_batch_size: 0',
      batchAxisFixedSignature:
        "max_batch_size: {{maxBatchSize}} needs -1 as the first dimension of every tensor of the model's serving signature, but it has {{list}}, so Triton's {{backend}} backend refuses to auto-complete it; re-export the model with None as the first dimension of each input's TensorSpec, or set max_batch_size: 0",
      fixedBatchOfOne:
        "the model's inputs have a fixed batch of 1 ({{shown}}) and max_batch_size is 0, so Triton runs one request at a time and leaves throughput on the table. Re-export the model with a dynamic first axis (dynamic_axes={{dynamicAxes}}), then set max_batch_size (e.g. 8), dims without the batch axis ({{dims}}) and dynamic_batching { }",
      partialBatchAxis:
        "the model cannot batch, so Triton runs one request at a time: the first (batch) dimension is dynamic on {{dynamicList}} but fixed on {{fixedList}}, a batch axis exported on part of the tensors. Re-export with the batch axis on every input and output (torch.onnx.export(..., dynamic_axes={{dynamicAxes}})); if a first dim stays fixed, the model's forward hard-codes the example's batch (a reshape or view to (1, ...)): keep it symbolic (x.flatten(1)). Then set max_batch_size (e.g. 8), dims without the batch axis and dynamic_batching { }",
    },
    prevents: [
      "model '<model>', tensor '<name>': for the model to support batching the shape should have at least 1 dimension and the first dimension must be -1; but shape expected by the model is <shape>",
      "autofill failed for model '<model>': model does not support batching while non-zero max_batch_size is specified",
      "unable to autofill for '<model>', configuration specified max-batch <N> but model signature does not support batching",
    ],
  },
  check(ctx) {
    // A backend that reshapes the model's first dim to max_batch_size at load (OpenVINO: ov::set_batch)
    // needs no dynamic batch axis.
    if (!ioChecks(ctx).batchDimMustBeDynamic) return;
    const sig = ctx.signature!;
    const checked = checkedConfig(ctx);
    if (checked.unchecked) return;
    if (checked.checks.batchHintFromDims && ctx.settings.server.autoCompleteConfig && maxBatchSize(ctx.config) > 0 && !sig.batchable) {
      const bad = [...sig.inputs.map((t) => ['input', t] as const), ...sig.outputs.map((t) => ['output', t] as const)].filter(
        ([, t]) => (t.shape?.length ?? 0) > 0 && t.shape![0] !== -1,
      );
      const backend = ctx.model.autofill(ctx.config).config.backend ?? '';
      ctx.report({
        path: ['max_batch_size'],
        messageId: 'batchAxisFixedSignature',
        data: {
          maxBatchSize: maxBatchSize(ctx.config),
          list: bad.map(([d, t]) => `${d} '${t.name}' ${modelShapeText(t)}`).join(', '),
          backend: backendRecord(backend)?.title ?? backend,
          tensors: bad.map(([direction, t]) => ({ direction, name: t.name, shape: t.shape })),
        },
      });
      return;
    }
    if (checked.halted) return;
    const config = checked.config;
    const mbs = maxBatchSize(config);
    if (mbs > 0) {
      const bad = unbatchable(config, sig, checked.sides);
      if (!bad.length) return;
      // The tensors with their shapes, a value: "input 'x' [1,4], output 'y' []".
      const list = bad.map((b) => `${b.direction} '${b.tensor.name}' ${modelShapeText(b.tensor)}`).join(', ');

      const first = bad.find((b) => b.tensor.shape?.length)?.tensor;
      const fullDims = first ? dimsText(tritonShape(first.shape!)) : undefined;
      // Every input and output gets the axis, not only the fixed ones (a batch axis on part of the tensors is the tutorial's mistake).
      const data = {
        maxBatchSize: mbs,
        list,
        dynamicAxes: dynamicAxesText(batchAxisTensors(sig)),
        tensors: bad.map((b) => ({ direction: b.direction, name: b.tensor.name, shape: b.tensor.shape })),
      };
      ctx.report({
        path: ['max_batch_size'],
        ...(fullDims ? { messageId: 'batchAxisFixed' as const, data: { ...data, fullDims } } : { messageId: 'batchAxisFixedNoShape' as const, data }),
      });
      return;
    }
    // max_batch_size 0 with a batch axis on part of the tensors: it was meant to batch, and cannot.
    const partial = partialBatchAxis(sig);
    if (partial) {
      const side = (t: DirectedTensor): string => `${t.direction} '${t.tensor.name}'`;
      ctx.report({
        path: firstWritten(config, [['max_batch_size'], ['name']]),
        severity: 'warning',
        messageId: 'partialBatchAxis',
        data: {
          dynamicList: partial.dynamic.map((t) => `${side(t)} ${modelShapeText(t.tensor)}`).join(', '),
          fixedList: partial.fixed.map((t) => `${side(t)} ${modelShapeText(t.tensor)}`).join(', '),
          dynamicAxes: dynamicAxesText(partial.all),
          tensors: partial.fixed.map((t) => ({ direction: t.direction, name: t.tensor.name, shape: t.tensor.shape })),
        },
      });
      return;
    }
    // max_batch_size 0 with a model fixed at batch 1: loads, but every request runs alone.
    const inputs = sig.inputs;
    const fixedOne = inputs.length > 0 && inputs.every((t) => t.kind === 'tensor' && t.shape !== null && t.shape.length > 0 && t.shape[0] === 1);
    if (!fixedOne || !inputs.some((t) => (t.shape?.length ?? 0) >= 2)) return;
    const firstInput = inputs[0]!;
    const listed = configTensors(config, 'input').find((t) => t.name === firstInput.name);
    const path = firstWritten(config, [['max_batch_size'], ...(listed ? [[...listed.path, 'dims', 0]] : []), ['name']]);
    const shown = inputs
      .slice(0, 3)
      .map((t) => `'${t.name}' ${modelShapeText(t)}`)
      .join(', ');
    const rest = tritonShape(firstInput.shape!).slice(1);
    ctx.report({
      path,
      severity: 'warning',
      messageId: 'fixedBatchOfOne',
      data: {
        shown: `${shown}${inputs.length > 3 ? ', ...' : ''}`,
        dynamicAxes: dynamicAxesText(batchAxisTensors(sig)),
        dims: dimsText(rest.length ? rest : [1]),
        maxBatchSize: 0,
        tensors: inputs.map((t) => ({ direction: 'input', name: t.name, shape: t.shape })),
      },
    });
  },
});

/**
 * The tensors that stop batching, among those Triton checks: every model tensor when auto-complete
 * runs (AutoCompleteMaxBatch: rank >= 1 and a dynamic first dim), else the listed ones (their
 * CompareDimsSupported check).
 */
function unbatchable(config: ModelConfig, sig: ModelSignature, sides: ReturnType<typeof validatedSides>): Bad[] {
  if (sides.autoComplete) {
    const all: Bad[] = [
      ...sig.inputs.map((tensor) => ({ direction: 'input' as const, tensor })),
      ...sig.outputs.map((tensor) => ({ direction: 'output' as const, tensor })),
    ];
    return all.filter((b) => b.tensor.kind === 'tensor' && b.tensor.shape !== null && (b.tensor.shape.length === 0 || hasFixedFirstDim(b.tensor)));
  }
  const skipOutputs = batchOutputTargets(config);
  const out: Bad[] = [];
  for (const direction of ['input', 'output'] as const) {
    for (const t of configTensors(config, direction)) {
      if (direction === 'output' && skipOutputs.has(t.name)) continue;
      const tensor = modelTensor(sig, direction, t.name);
      if (tensor && hasFixedFirstDim(tensor) && !out.some((b) => b.tensor === tensor)) out.push({ direction, tensor });
    }
  }
  return out;
}

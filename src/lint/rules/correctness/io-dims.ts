// Every config input and output as core's ValidateModelIOConfig checks it (core src/model_config_utils.cc,
// ValidateIOShape / ValidateModelInput / ValidateModelOutput): a name, a data_type, non-empty
// dims of -1 or >= 1, a reshape of the same element count (segment by segment between variable
// dims), no empty reshape without batching, 3 dims for NHWC/NCHW and non-linear formats, and the
// TensorRT-only flags only on TensorRT. Duplicate names are not checked by core but are a mistake.
import type { ModelConfig, ModelInput, ModelOutput } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend, type SettledBackend } from '../../backend.js';
import { typeName } from '../../../triton/data-types.js';
import { maxBatchSize } from '../../tensors.js';
import { isTensorrtPlatform } from '../../../triton/backend-records.js';

const INT64_MAX = 9223372036854775807n;

/**
 * Whether the backend's auto-complete may fill in a tensor the config lists only partly. The ONNX
 * Runtime and PyTorch backends keep a listed side as written (AutoCompleteConfig), ensembles have no backend, and
 * a model whose backend Triton cannot determine gets no auto-complete at all: those configs must be
 * complete as written. TensorRT, Python, DALI and other backends complete listed tensors.
 */
export function backendCompletesTensors(settled: SettledBackend): boolean {
  // A backend chosen at deploy from model files not here may complete them (TensorRT, Python do).
  if (settled.unknown) return true;
  if (settled.platform === 'ensemble' || !settled.backend) return false;
  return settled.backend !== 'onnxruntime' && settled.backend !== 'pytorch';
}

/** Whether max_batch_size 0 may still be raised by the backend's auto-complete (ORT's AutoCompleteMaxBatch). */
function batchMayBeRaised(config: ModelConfig, settled: SettledBackend, serverAutoCompletes: boolean): boolean {
  if (!serverAutoCompletes) return false;
  if (backendCompletesTensors(settled)) return true;
  const bothSides = (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) > 0 && (config.output?.length ?? 0) > 0;
  return settled.backend === 'onnxruntime' && !bothSides;
}

/** Element count the way triton::common::GetElementCount computes it: -1 with any -1, 0 when empty. */
function elementCount(dims: readonly bigint[]): bigint {
  if (dims.some((d) => d === -1n)) return -1n;
  if (!dims.length) return 0n;
  return dims.reduce((a, b) => a * b, 1n);
}

/** Products of the fixed dims between variable (-1) dims: [2,4,-1,6] -> [8,6]. */
function segments(dims: readonly bigint[]): bigint[] {
  const out: bigint[] = [];
  let cur = 1n;
  for (const d of dims) {
    if (d === -1n) {
      out.push(cur);
      cur = 1n;
    } else cur *= d;
  }
  out.push(cur);
  return out;
}

const text = (dims: readonly bigint[]): string => `[${dims.join(',')}]`;

const messages = {
  listedTwice: `{{direction}} '{{name}}' is listed twice (also {{direction}}[{{first}}]); core does not check this, but a request can carry each {{direction}} only once{{ort}}; remove the duplicate`,
  noName: `this {{direction}} has no name, so Triton refuses the model ("{{prefix}}must specify 'name'{{suffix}}"); set name to the model's {{direction}} name`,
  noDataType: `{{direction}} '{{name}}' has no data_type, so Triton refuses the model{{completeNote}} ("{{who}}must specify 'data_type'{{suffix}}"); set data_type, e.g. data_type: TYPE_FP32`,
  unknownDataType: 'data_type {{data_type}} is not a Triton data type (TYPE_BOOL ... TYPE_BF16 are 1 to 14); core lets the number through and the backend fails on it; write the type by name, e.g. data_type: TYPE_FP32',
  noDims: `{{direction}} '{{name}}' has no dims, so Triton refuses the model{{completeNote}} ("{{who}}must specify 'dims'{{suffix}}"); list the shape without the batch axis, e.g. dims: [ 3, 224, 224 ] (a scalar per batch item is dims: [ 1 ] with reshape { shape: [ ] })`,
  emptyReshapeWithoutBatching: `reshape { shape: [ ] } makes each item a scalar, which only works with batching (the batch axis keeps the tensor non-empty), and max_batch_size is {{mbs}}, so Triton refuses the model{{autoCompleteNote}} ("{{who}}cannot have empty reshape for non-batching model as scalar tensors are not supported{{suffix}}"); set max_batch_size, or remove the reshape and write the model's shape in dims`,
  dimNotSize: 'dim {{dim}} is not a size, so Triton refuses the model ("{{who}}dimension must be integer >= 1, or -1 to indicate a variable-size dimension{{suffix}}"); use the size, or -1 for a size that varies',
  reshapeDimNotSize: 'reshape dim {{dim}} is not a size, so Triton refuses the model ("{{who}}reshape dimensions must be integer >= 1, or -1 to indicate a variable-size dimension{{suffix}}"); use the size, or -1 for a size that varies',
  formatNeedsThreeDims: 'format {{format}} describes an image of 3 dims ({{layout}}) but dims {{text}} have {{length}}, so Triton refuses the model ("model input NHWC/NCHW require 3 dims{{suffix}}"); give 3 dims without the batch axis, or remove format',
  shapeTensorNotTensorrt: 'is_shape_tensor is a TensorRT flag and the platform is {{platformShown}}, so Triton refuses the model ("shape tensors are only supported for TensorRT platform{{suffix}}"); remove is_shape_tensor',
  nonLinearFormatNotTensorrt: 'is_non_linear_format_io is a TensorRT flag and the platform is {{platformShown}}, so Triton refuses the model ("Non-linear IO format is only supported for the TensorRT platform{{suffix}}"); remove is_non_linear_format_io',
  nonLinearFormatDims: 'a non-linear format tensor has 3 dims, but dims {{text}} have {{length}}, so Triton refuses the model ("Non-linear IO format {{direction}} requires 3 dims{{suffix}}"); give 3 dims without the batch axis',
  elementCountOverflow: `{{label}} {{text}} hold more elements than an int64 counts, so Triton refuses the model ("element count for tensor '{{name}} {{label}}' exceeds maximum size of 9223372036854775807{{suffix}}"); check the dims`,
  reshapeSizeMismatch: 'reshape {{reshapeShown}} does not hold the same elements as dims {{dimsShown}}, so Triton refuses the model ("{{who}}has different size for dims and reshape{{suffix}}"); {{why}}',
  reshapeVariableCount: 'reshape {{reshapeText}} has {{reshapeVariables}} variable dims (-1) and dims {{dimsText}} have {{dimsVariables}}, so Triton refuses the model ("{{who}}has different number of variable-size dimensions for dims and reshape{{suffix}}"); use the same number of -1s in both',
  reshapeFixedMismatch: 'reshape {{reshapeText}} does not hold the same elements as dims {{dimsText}}: between the variable dims, the fixed dims multiply to {{reshapeFixed}} in dims and {{dimsFixed}} in reshape, so Triton refuses the model ("{{who}}has different size for dims and reshape{{suffix}}"); make each stretch between -1s multiply to the same size',
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const ioDims = defineModelRule({
  meta: {
    id: 'io-dims',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'inputs and outputs need a name, a data_type, valid dims, and a reshape of the same size',
    prevents: [
      "model input must specify 'name' for <name>",
      "model input '<n>' must specify 'data_type' for <name>",
      "model input '<n>' must specify 'dims' for <name>",
      "model input '<n>' cannot have empty reshape for non-batching model as scalar tensors are not supported for <name>",
      "model input '<n>' dimension must be integer >= 1, or -1 to indicate a variable-size dimension for <name>",
      "model input '<n>' reshape dimensions must be integer >= 1, or -1 to indicate a variable-size dimension for <name>",
      "model input '<n>' has different size for dims and reshape for <name>",
      "model input '<n>' has different number of variable-size dimensions for dims and reshape for <name>",
      "element count for tensor '<n> dims' exceeds maximum size of 9223372036854775807 for <name>",
      'model input NHWC/NCHW require 3 dims for <name>',
      'shape tensors are only supported for TensorRT platform for <name>',
      'Non-linear IO format is only supported for the TensorRT platform for <name>',
      'Non-linear IO format input requires 3 dims for <name>',
      "(and each of the model input messages as model output '<n>' ...)",
    ],
    messages,
  },
  check(ctx) {
    const settled = settledBackend(ctx);
    for (const direction of ['input', 'output'] as const) {
      const list: (ModelInput | ModelOutput)[] = (direction === 'input' ? ctx.config.input : ctx.config.output) ?? [];
      const seen = new Map<string, number>();
      list.forEach((io, i) => {
        checkTensor(ctx, settled, direction, io, [direction, i]);
        const n = io.name ?? '';
        if (!n) return;
        const first = seen.get(n);
        if (first !== undefined) {
          ctx.report({
            path: [direction, i, 'name'],
            severity: 'warning',
            messageId: 'listedTwice',
            data: { name: n, direction, first, ort: settledBackend(ctx).backend === 'onnxruntime' ? ' and the ONNX Runtime backend counts both entries and refuses the config' : '' },
          });
        } else seen.set(n, i);
      });
    }
  },
});

function checkTensor(ctx: Ctx, settled: SettledBackend, direction: 'input' | 'output', io: ModelInput | ModelOutput, path: PathSegment[]): void {
  const model = modelName(ctx);
  const suffix = ` for ${model}`;
  const prefix = `model ${direction} `;
  if (!io.name) {
    ctx.report({
      path: [...path, 'name'],
      messageId: 'noName',
      data: { direction, prefix, suffix },
    });
    return;
  }
  const who = `${prefix}'${io.name}' `;
  // With auto-complete off, core checks the config as written before any backend sees it.
  const completes = ctx.settings.server.autoCompleteConfig && backendCompletesTensors(settled);
  const completeNote = completes ? ` unless the ${settled.backend} backend's auto-complete fills it in (it does not when the server runs with --disable-auto-complete-config)` : '';
  // Left for a backend chosen at deploy from model files not here: unknown, and unchecked-model says so once.
  const leftUnknown = completes && settled.unknown;

  const type = typeName(io.data_type);
  if (type === 'TYPE_INVALID') {
    if (!leftUnknown) {
      ctx.report({
        path: io.data_type !== undefined ? [...path, 'data_type'] : [...path, 'name'],
        severity: completes ? 'warning' : 'error',
        messageId: 'noDataType',
        data: { name: io.name, direction, completeNote, who, suffix },
      });
    }
  } else if (typeof io.data_type === 'number') {
    ctx.report({
      path: [...path, 'data_type'],
      messageId: 'unknownDataType',
      data: { name: io.name, dataType: io.data_type, data_type: io.data_type },
    });
  }

  const dims = (io.dims ?? []).map((d) => BigInt(d));
  if (!dims.length && !leftUnknown) {
    ctx.report({
      path: io.dims !== undefined ? [...path, 'dims'] : [...path, 'name'],
      severity: completes ? 'warning' : 'error',
      messageId: 'noDims',
      data: { name: io.name, direction, completeNote, who, suffix },
    });
  }

  const reshape = io.reshape ? (io.reshape.shape ?? []).map((d) => BigInt(d)) : undefined;
  const mbs = maxBatchSize(ctx.config);
  if (reshape && !reshape.length && mbs === 0) {
    const raised = batchMayBeRaised(ctx.config, settled, ctx.settings.server.autoCompleteConfig);
    ctx.report({
      path: [...path, 'reshape'],
      severity: raised ? 'warning' : 'error',
      messageId: 'emptyReshapeWithoutBatching',
      data: { name: io.name, mbs: ctx.config.max_batch_size === undefined ? 'not set (0)' : '0', autoCompleteNote: raised ? ' unless the backend\'s auto-complete raises max_batch_size' : '', who, suffix },
    });
  }

  let valid = dims.length > 0;
  dims.forEach((d, k) => {
    if (d >= 1n || d === -1n) return;
    valid = false;
    ctx.report({
      path: [...path, 'dims', k],
      messageId: 'dimNotSize',
      data: { name: io.name, index: k, dim: String(d), who, suffix },
    });
  });
  if (reshape) {
    reshape.forEach((d, k) => {
      if (d >= 1n || d === -1n) return;
      valid = false;
      ctx.report({
        path: [...path, 'reshape', 'shape', k],
        messageId: 'reshapeDimNotSize',
        data: { name: io.name, index: k, dim: String(d), who, suffix },
      });
    });
  }
  if (reshape && valid) checkReshape(ctx, io.name, who, suffix, dims, reshape, path);

  if (direction === 'input') {
    const format = (io as ModelInput).format;
    const f = typeof format === 'number' ? (['FORMAT_NONE', 'FORMAT_NHWC', 'FORMAT_NCHW'][format] ?? '') : (format ?? 'FORMAT_NONE');
    if ((f === 'FORMAT_NHWC' || f === 'FORMAT_NCHW') && dims.length && dims.length !== 3) {
      ctx.report({
        path: [...path, 'format'],
        messageId: 'formatNeedsThreeDims',
        data: { name: io.name, format: f, layout: f === 'FORMAT_NHWC' ? 'H, W, C' : 'C, H, W', text: text(dims), length: dims.length, suffix },
      });
    }
  }

  const platform = settled.platform;
  // Without a version directory to look in, a config without platform may still be a TensorRT model.
  const severity = settled.guessed ? 'warning' : 'error';
  const unknown = settled.guessed ? 'not set (and there is no version directory with a model.plan to infer it from)' : 'not TensorRT';
  if (io.is_shape_tensor && !isTensorrtPlatform(platform)) {
    ctx.report({
      path: [...path, 'is_shape_tensor'],
      severity,
      messageId: 'shapeTensorNotTensorrt',
      data: { name: io.name, platform: platform ?? '', platformShown: platform ? `'${platform}'` : unknown, suffix },
    });
  }
  if (io.is_non_linear_format_io) {
    if (!isTensorrtPlatform(platform)) {
      ctx.report({
        path: [...path, 'is_non_linear_format_io'],
        severity,
        messageId: 'nonLinearFormatNotTensorrt',
        data: { name: io.name, platform: platform ?? '', platformShown: platform ? `'${platform}'` : unknown, suffix },
      });
    } else if (dims.length !== 3) {
      ctx.report({
        path: [...path, 'is_non_linear_format_io'],
        messageId: 'nonLinearFormatDims',
        data: { name: io.name, text: text(dims), length: dims.length, direction, suffix },
      });
    }
  }
}

function checkReshape(ctx: Ctx, name: string, who: string, suffix: string, dims: bigint[], reshape: bigint[], path: PathSegment[]): void {
  const dimsCount = elementCount(dims);
  const reshapeCount = elementCount(reshape);
  const counts: [bigint, 'dims' | 'reshape'][] = [[dimsCount, 'dims'], [reshapeCount, 'reshape']];
  for (const [count, label] of counts) {
    if (count > INT64_MAX) {
      ctx.report({
        path: [...path, label],
        messageId: 'elementCountOverflow',
        data: { name, label, text: text(label === 'dims' ? dims : reshape), suffix },
      });
      return;
    }
  }
  const reshapePath = [...path, 'reshape', 'shape'];
  const describe = (dims: bigint[], count: bigint): string => (count === -1n ? `${text(dims)} (variable)` : `${text(dims)} (${count} element${count === 1n ? '' : 's'})`);
  if (dimsCount !== reshapeCount && (reshapeCount !== 0n || dimsCount !== 1n)) {
    ctx.report({
      path: reshape.length ? reshapePath : [...path, 'reshape'],
      messageId: 'reshapeSizeMismatch',
      data: { name, dims: dims.map(String), reshape: reshape.map(String), reshapeShown: describe(reshape, reshapeCount), dimsShown: describe(dims, dimsCount), who, suffix, why: reshape.length === 0 ? 'an empty reshape needs dims of one element, e.g. dims: [ 1 ]' : dimsCount === -1n || reshapeCount === -1n ? 'put -1 in both at the same place, with the same product of fixed dims between the -1s' : 'make the products of the dims equal' },
    });
    return;
  }
  if (dimsCount !== -1n) return;
  const a = segments(dims);
  const b = segments(reshape);
  if (a.length !== b.length) {
    ctx.report({
      path: reshapePath,
      messageId: 'reshapeVariableCount',
      data: { name, dims: dims.map(String), reshape: reshape.map(String), reshapeText: text(reshape), reshapeVariables: b.length - 1, dimsText: text(dims), dimsVariables: a.length - 1, who, suffix },
    });
    return;
  }
  const k = a.findIndex((v, i) => v !== b[i]);
  if (k >= 0) {
    ctx.report({
      path: reshapePath,
      messageId: 'reshapeFixedMismatch',
      data: { name, dims: dims.map(String), reshape: reshape.map(String), reshapeText: text(reshape), dimsText: text(dims), reshapeFixed: a.join(', '), dimsFixed: b.join(', '), who, suffix },
    });
  }
}

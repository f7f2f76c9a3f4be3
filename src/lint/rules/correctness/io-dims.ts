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
import { holdsIn } from '../../../triton/releases/catalog.js';
import { ELEMENT_COUNT_OVERFLOW, ioSubject } from '../../../triton/core-releases.js';
import { backendMayFillTensors, ioChecksOf, isEnsemble, isTensorrtPlatform, ONNXRUNTIME } from '../../../triton/backend-records.js';

const INT64_MAX = 9223372036854775807n;

/**
 * Whether the backend's auto-complete may fill in a tensor the config lists only partly. The ONNX
 * Runtime and PyTorch backends keep a listed side as written (AutoCompleteConfig), ensembles have no backend, and
 * a model whose backend Triton cannot determine gets no auto-complete at all: those configs must be
 * complete as written. TensorRT, TensorFlow, Python, DALI and other backends complete listed tensors.
 */
export function backendCompletesTensors(settled: SettledBackend): boolean {
  // A backend chosen at deploy from model files not here may complete them (TensorRT, Python do).
  if (settled.unknown) return true;
  if (isEnsemble(settled) || !settled.backend) return false;
  // TensorFlow completes each listed tensor the model has (AutoCompleteHelper::FillMissingValues).
  return backendMayFillTensors(settled) || ioChecksOf(settled.config).addsMissingInputs === true;
}

/** Whether max_batch_size 0 may still be raised by the backend's auto-complete (ORT's AutoCompleteMaxBatch). */
function batchMayBeRaised(config: ModelConfig, settled: SettledBackend, serverAutoCompletes: boolean): boolean {
  if (!serverAutoCompletes) return false;
  if (backendCompletesTensors(settled)) return true;
  const bothSides = (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) > 0 && (config.output?.length ?? 0) > 0;
  return settled.backend === ONNXRUNTIME.name && !bothSides;
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

// Each wording is a message of its own (placeholders hold values): the auto-complete and max_batch_size
// variants, and the platform as named, unset or guessed, are separate ids.
const NO_DATA_TYPE = `{{direction}} '{{name}}' has no data_type, so Triton refuses the model`;
const NO_DATA_TYPE_TRITON = `("{{subject}} must specify 'data_type' for {{model}}"); set data_type, e.g. data_type: TYPE_FP32`;
const NO_DIMS = `{{direction}} '{{name}}' has no dims, so Triton refuses the model`;
const NO_DIMS_TRITON = `("{{subject}} must specify 'dims' for {{model}}"); list the shape without the batch axis, e.g. dims: [ 3, 224, 224 ] (a scalar per batch item is dims: [ 1 ] with reshape { shape: [ ] })`;
const UNLESS_COMPLETED = ` unless the {{backend}} backend's auto-complete fills it in (it does not when the server runs with --disable-auto-complete-config)`;
const EMPTY_RESHAPE =
  'reshape { shape: [ ] } makes each item a scalar, which only works with batching (the batch axis keeps the tensor non-empty), and max_batch_size is';
const EMPTY_RESHAPE_TRITON = `("{{subject}} cannot have empty reshape for non-batching model as scalar tensors are not supported for {{model}}"); set max_batch_size, or remove the reshape and write the model's shape in dims`;
const UNLESS_RAISED = ` unless the backend's auto-complete raises max_batch_size`;
const SHAPE_TENSOR = 'is_shape_tensor is a TensorRT flag and the platform is';
const SHAPE_TENSOR_TRITON = 'so Triton refuses the model ("shape tensors are only supported for TensorRT platform for {{model}}"); remove is_shape_tensor';
const NON_LINEAR = 'is_non_linear_format_io is a TensorRT flag and the platform is';
const NON_LINEAR_TRITON =
  'so Triton refuses the model ("Non-linear IO format is only supported for the TensorRT platform for {{model}}"); remove is_non_linear_format_io';
const PLATFORM_GUESSED = 'not set (and there is no version directory with a model.plan to infer it from)';
const SIZE_TRITON = `so Triton refuses the model ("{{subject}} has different size for dims and reshape for {{model}}")`;

const messages = {
  listedTwice: `{{direction}} '{{name}}' is listed twice (also {{direction}}[{{first}}]); core does not check this, but a request can carry each {{direction}} only once; remove the duplicate`,
  listedTwiceOnnxRuntime: `{{direction}} '{{name}}' is listed twice (also {{direction}}[{{first}}]); core does not check this, but a request can carry each {{direction}} only once and the ONNX Runtime backend counts both entries and refuses the config; remove the duplicate`,
  noName: `this {{direction}} has no name, so Triton refuses the model ("model {{direction}} must specify 'name' for {{model}}"); set name to the model's {{direction}} name`,
  noDataType: `${NO_DATA_TYPE} ${NO_DATA_TYPE_TRITON}`,
  noDataTypeUnlessCompleted: `${NO_DATA_TYPE}${UNLESS_COMPLETED} ${NO_DATA_TYPE_TRITON}`,
  unknownDataType:
    'data_type {{data_type}} is not a Triton data type (TYPE_BOOL ... TYPE_BF16 are 1 to 14); core lets the number through and the backend fails on it; write the type by name, e.g. data_type: TYPE_FP32',
  noDims: `${NO_DIMS} ${NO_DIMS_TRITON}`,
  noDimsUnlessCompleted: `${NO_DIMS}${UNLESS_COMPLETED} ${NO_DIMS_TRITON}`,
  emptyReshapeWithoutBatching: `${EMPTY_RESHAPE} 0, so Triton refuses the model ${EMPTY_RESHAPE_TRITON}`,
  emptyReshapeBatchingUnset: `${EMPTY_RESHAPE} not set (0), so Triton refuses the model ${EMPTY_RESHAPE_TRITON}`,
  emptyReshapeUnlessBatchRaised: `${EMPTY_RESHAPE} 0, so Triton refuses the model${UNLESS_RAISED} ${EMPTY_RESHAPE_TRITON}`,
  emptyReshapeBatchingUnsetUnlessRaised: `${EMPTY_RESHAPE} not set (0), so Triton refuses the model${UNLESS_RAISED} ${EMPTY_RESHAPE_TRITON}`,
  dimNotSize: `dim {{dim}} is not a size, so Triton refuses the model ("{{subject}} dimension must be integer >= 1, or -1 to indicate a variable-size dimension for {{model}}"); use the size, or -1 for a size that varies`,
  reshapeDimNotSize: `reshape dim {{dim}} is not a size, so Triton refuses the model ("{{subject}} reshape dimensions must be integer >= 1, or -1 to indicate a variable-size dimension for {{model}}"); use the size, or -1 for a size that varies`,
  formatNeedsThreeDims:
    'format {{format}} describes an image of 3 dims ({{layout}}) but dims {{text}} have {{length}}, so Triton refuses the model ("model input NHWC/NCHW require 3 dims for {{model}}"); give 3 dims without the batch axis, or remove format',
  shapeTensorNotTensorrt: `${SHAPE_TENSOR} '{{platform}}', ${SHAPE_TENSOR_TRITON}`,
  shapeTensorNoPlatform: `${SHAPE_TENSOR} not TensorRT, ${SHAPE_TENSOR_TRITON}`,
  shapeTensorPlatformGuessed: `${SHAPE_TENSOR} ${PLATFORM_GUESSED}, ${SHAPE_TENSOR_TRITON}`,
  nonLinearFormatNotTensorrt: `${NON_LINEAR} '{{platform}}', ${NON_LINEAR_TRITON}`,
  nonLinearFormatNoPlatform: `${NON_LINEAR} not TensorRT, ${NON_LINEAR_TRITON}`,
  nonLinearFormatPlatformGuessed: `${NON_LINEAR} ${PLATFORM_GUESSED}, ${NON_LINEAR_TRITON}`,
  nonLinearFormatDims:
    'a non-linear format tensor has 3 dims, but dims {{text}} have {{length}}, so Triton refuses the model ("Non-linear IO format {{direction}} requires 3 dims for {{model}}"); give 3 dims without the batch axis',
  elementCountOverflow: `{{label}} {{text}} hold more elements than an int64 counts, so Triton {{release}} refuses the model, as every release from 26.03 on does ("element count for tensor '{{name}} {{label}}' exceeds maximum size of 9223372036854775807 for {{model}}"); check the dims`,
  inputElementCountOverflow: `dims {{text}} hold more elements than an int64 counts, so Triton {{release}} refuses the model once its instances are made, as every release from 26.03 on does ("element count for tensor '{{name}}' exceeds maximum size of 9223372036854775807"); check the dims`,
  reshapeSizeMismatch: `reshape {{reshapeText}} (element count {{reshapeCount}}) does not hold the same elements as dims {{dimsText}} (element count {{dimsCount}}), ${SIZE_TRITON}; make the products of the dims equal`,
  emptyReshapeSizeMismatch: `an empty reshape does not hold the same elements as dims {{dimsText}}, ${SIZE_TRITON}; an empty reshape needs dims of one element, e.g. dims: [ 1 ]`,
  reshapeVariableSizeMismatch: `reshape {{reshapeText}} does not hold the same elements as dims {{dimsText}}: one of them has a variable dim (-1) and the other has none, ${SIZE_TRITON}; put -1 in both at the same place, with the same product of fixed dims between the -1s`,
  reshapeVariableCount: `reshape {{reshapeText}} has {{reshapeVariables}} variable dims (-1) and dims {{dimsText}} have {{dimsVariables}}, so Triton refuses the model ("{{subject}} has different number of variable-size dimensions for dims and reshape for {{model}}"); use the same number of -1s in both`,
  reshapeFixedMismatch: `reshape {{reshapeText}} does not hold the same elements as dims {{dimsText}}: between the variable dims, the fixed dims multiply to {{reshapeFixed}} in dims and {{dimsFixed}} in reshape, so Triton refuses the model ("{{subject}} has different size for dims and reshape for {{model}}"); make each stretch between -1s multiply to the same size`,
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
      "element count for tensor '<n>' exceeds maximum size of 9223372036854775807",
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
            messageId: settledBackend(ctx).backend === ONNXRUNTIME.name ? 'listedTwiceOnnxRuntime' : 'listedTwice',
            data: { name: n, direction, first },
          });
        } else seen.set(n, i);
      });
    }
  },
});

function checkTensor(ctx: Ctx, settled: SettledBackend, direction: 'input' | 'output', io: ModelInput | ModelOutput, path: PathSegment[]): void {
  const model = modelName(ctx);
  if (!io.name) {
    ctx.report({
      path: [...path, 'name'],
      messageId: 'noName',
      data: { direction, model },
    });
    return;
  }
  const name = io.name;
  const release = ctx.settings.server.target.release;
  // How the release's core names the tensor in its messages.
  const subject = ioSubject(direction, name, release);
  const typeSubject = ioSubject(direction, name, release, 'data_type');
  // With auto-complete off, core checks the config as written before any backend sees it.
  const completes = ctx.settings.server.autoCompleteConfig && backendCompletesTensors(settled);
  // Left for a backend chosen at deploy from model files not here: unknown, and unchecked-model says so once.
  const leftUnknown = completes && settled.unknown;

  const type = typeName(io.data_type);
  if (type === 'TYPE_INVALID') {
    if (!leftUnknown) {
      ctx.report({
        path: io.data_type !== undefined ? [...path, 'data_type'] : [...path, 'name'],
        severity: completes ? 'warning' : 'error',
        ...(completes
          ? { messageId: 'noDataTypeUnlessCompleted' as const, data: { name, direction, model, subject: typeSubject, backend: settled.backend ?? '' } }
          : { messageId: 'noDataType' as const, data: { name, direction, model, subject: typeSubject } }),
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
      ...(completes
        ? { messageId: 'noDimsUnlessCompleted' as const, data: { name, direction, model, subject, backend: settled.backend ?? '' } }
        : { messageId: 'noDims' as const, data: { name, direction, model, subject } }),
    });
  }

  const reshape = io.reshape ? (io.reshape.shape ?? []).map((d) => BigInt(d)) : undefined;
  const mbs = maxBatchSize(ctx.config);
  if (reshape && !reshape.length && mbs === 0) {
    const raised = batchMayBeRaised(ctx.config, settled, ctx.settings.server.autoCompleteConfig);
    ctx.report({
      path: [...path, 'reshape'],
      severity: raised ? 'warning' : 'error',
      messageId:
        ctx.config.max_batch_size === undefined
          ? raised
            ? 'emptyReshapeBatchingUnsetUnlessRaised'
            : 'emptyReshapeBatchingUnset'
          : raised
            ? 'emptyReshapeUnlessBatchRaised'
            : 'emptyReshapeWithoutBatching',
      data: { name, direction, model, subject, mbs: 0 },
    });
  }

  let valid = dims.length > 0;
  dims.forEach((d, k) => {
    if (d >= 1n || d === -1n) return;
    valid = false;
    ctx.report({
      path: [...path, 'dims', k],
      messageId: 'dimNotSize',
      data: { name, direction, model, subject, index: k, dim: String(d) },
    });
  });
  if (reshape) {
    reshape.forEach((d, k) => {
      if (d >= 1n || d === -1n) return;
      valid = false;
      ctx.report({
        path: [...path, 'reshape', 'shape', k],
        messageId: 'reshapeDimNotSize',
        data: { name, direction, model, subject, index: k, dim: String(d) },
      });
    });
  }
  const overflowRefused = holdsIn(ELEMENT_COUNT_OVERFLOW.releases, release);
  if (reshape && valid) checkReshape(ctx, { name, direction, model, subject }, dims, reshape, path, overflowRefused);
  // core r26.03 src/backend_model.cc TritonModel::SetConfiguredScheduler: the element count of every
  // input but a shape tensor, for a model with a backend (an ensemble has no scheduler of this kind).
  // With a reshape, ValidateIOShape has refused overflowing dims already (above).
  else if (overflowRefused && valid && direction === 'input' && !(io as ModelInput).is_shape_tensor && !isEnsemble(settled) && elementCount(dims) > INT64_MAX)
    ctx.report({
      path: [...path, 'dims'],
      messageId: 'inputElementCountOverflow',
      data: { name, text: text(dims), release: ctx.settings.server.target.release.container },
    });

  if (direction === 'input') {
    const format = (io as ModelInput).format;
    const f = typeof format === 'number' ? (['FORMAT_NONE', 'FORMAT_NHWC', 'FORMAT_NCHW'][format] ?? '') : (format ?? 'FORMAT_NONE');
    if ((f === 'FORMAT_NHWC' || f === 'FORMAT_NCHW') && dims.length && dims.length !== 3) {
      ctx.report({
        path: [...path, 'format'],
        messageId: 'formatNeedsThreeDims',
        data: { name: io.name, format: f, layout: f === 'FORMAT_NHWC' ? 'H, W, C' : 'C, H, W', text: text(dims), length: dims.length, model },
      });
    }
  }

  const platform = settled.platform;
  // Without a version directory to look in, a config without platform may still be a TensorRT model.
  const severity = settled.guessed ? 'warning' : 'error';
  const which = platform ? 'named' : settled.guessed ? 'guessed' : 'none';
  if (io.is_shape_tensor && !isTensorrtPlatform(platform)) {
    ctx.report({
      path: [...path, 'is_shape_tensor'],
      severity,
      messageId: which === 'named' ? 'shapeTensorNotTensorrt' : which === 'guessed' ? 'shapeTensorPlatformGuessed' : 'shapeTensorNoPlatform',
      data: { name, platform, model },
    });
  }
  if (io.is_non_linear_format_io) {
    if (!isTensorrtPlatform(platform)) {
      ctx.report({
        path: [...path, 'is_non_linear_format_io'],
        severity,
        messageId: which === 'named' ? 'nonLinearFormatNotTensorrt' : which === 'guessed' ? 'nonLinearFormatPlatformGuessed' : 'nonLinearFormatNoPlatform',
        data: { name, platform, model },
      });
    } else if (dims.length !== 3) {
      ctx.report({
        path: [...path, 'is_non_linear_format_io'],
        messageId: 'nonLinearFormatDims',
        data: { name, text: text(dims), length: dims.length, direction, model },
      });
    }
  }
}

/** The tensor a finding is about, as Triton's message names it. */
interface Tensor {
  name: string;
  direction: 'input' | 'output';
  model: string;
  /** As core's messages name it in the target release (ioSubject). */
  subject: string;
}

function checkReshape(ctx: Ctx, tensor: Tensor, dims: bigint[], reshape: bigint[], path: PathSegment[], overflowRefused: boolean): void {
  // Before 26.03 common's GetElementCount multiplies in int64 and wraps (r26.02 src/model_config_utils.cc
  // ValidateIOShape compares the wrapped counts); from 26.03 an overflow is refused.
  const wrap = (count: bigint): bigint => (overflowRefused || count < 0n ? count : BigInt.asIntN(64, count));
  const dimsCount = wrap(elementCount(dims));
  const reshapeCount = wrap(elementCount(reshape));
  const counts: [bigint, 'dims' | 'reshape'][] = [
    [dimsCount, 'dims'],
    [reshapeCount, 'reshape'],
  ];
  for (const [count, label] of counts) {
    if (count > INT64_MAX) {
      ctx.report({
        path: [...path, label],
        messageId: 'elementCountOverflow',
        data: { ...tensor, label, text: text(label === 'dims' ? dims : reshape), release: ctx.settings.server.target.release.container },
      });
      return;
    }
  }
  const reshapePath = [...path, 'reshape', 'shape'];
  if (dimsCount !== reshapeCount && (reshapeCount !== 0n || dimsCount !== 1n)) {
    const data = { ...tensor, dims: dims.map(String), reshape: reshape.map(String), reshapeText: text(reshape), dimsText: text(dims) };
    ctx.report({
      path: reshape.length ? reshapePath : [...path, 'reshape'],
      // Counts differ: an empty reshape, one side variable (-1) and the other fixed, or two fixed counts.
      ...(reshape.length === 0
        ? { messageId: 'emptyReshapeSizeMismatch' as const, data }
        : dimsCount === -1n || reshapeCount === -1n
          ? { messageId: 'reshapeVariableSizeMismatch' as const, data }
          : { messageId: 'reshapeSizeMismatch' as const, data: { ...data, reshapeCount: String(reshapeCount), dimsCount: String(dimsCount) } }),
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
      data: {
        ...tensor,
        dims: dims.map(String),
        reshape: reshape.map(String),
        reshapeText: text(reshape),
        reshapeVariables: b.length - 1,
        dimsText: text(dims),
        dimsVariables: a.length - 1,
      },
    });
    return;
  }
  const k = a.findIndex((v, i) => v !== b[i]);
  if (k >= 0) {
    ctx.report({
      path: reshapePath,
      messageId: 'reshapeFixedMismatch',
      data: {
        ...tensor,
        dims: dims.map(String),
        reshape: reshape.map(String),
        reshapeText: text(reshape),
        dimsText: text(dims),
        reshapeFixed: a.join(', '),
        dimsFixed: b.join(', '),
      },
    });
  }
}

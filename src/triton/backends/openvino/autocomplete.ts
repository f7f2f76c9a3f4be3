// The OpenVINO backend's AutoCompleteConfig (openvino_backend src/openvino.cc ModelState::AutoCompleteConfig,
// AutoCompleteBatching, AutoCompleteInputOrOutput): what it adds to a config from the IR when Triton
// loads it with auto-complete on. Unlike ONNX Runtime's it never skips:
// - batching is decided by the layouts alone: the model "supports batching" iff every input and output
//   has a layout with a batch dimension N (ov::layout::has_batch); then a max_batch_size of 0 becomes
//   the backend's default-max-batch-size (at least 1), and with max_batch_size > 1 dynamic_batching is
//   added unless the config has dynamic or sequence batching. Without such layouts a non-zero
//   max_batch_size only draws a warning (and loads: the backend reshapes the batch dim at load);
// - each of input and output is filled only when the config lists none of it: every model tensor in
//   the model's order, named by get_any_name(), typed by OpenVINOElementToModelConfigDataType
//   (openvino_utils.cc), dims from the partial shape without the first dim when max_batch_size > 0,
//   and every dim -1 when any dim of the shape is dynamic (`io_shape.is_static() ? get_length() : -1`).
import type { DataType, ModelConfig } from '../../../config/model-config.js';
import type { ModelSignature, TensorInfo } from '../../../model-file/signature.js';
import { compareDims, hasBatch } from '../../../openvino/names.js';
import { step, type ResolveProblem, type ResolveStep } from '../../changes.js';
import type { Completion, CompletionOptions } from '../record.js';

/** core injects default-max-batch-size=4 into every backend's config (SetBackendConfigDefaults). */
const CORE_DEFAULT_MAX_BATCH_SIZE = 4;

/** The first model tensor without a batch layout: what keeps the backend from batching. */
export function tensorWithoutBatchLayout(sig: ModelSignature): { tensor: TensorInfo; direction: 'input' | 'output' } | undefined {
  for (const direction of ['input', 'output'] as const) {
    const tensor = (direction === 'input' ? sig.inputs : sig.outputs).find((t) => !hasBatch(t.layout));
    if (tensor) return { tensor, direction };
  }
  return undefined;
}

/** The config entry the backend writes for one model tensor (AutoCompleteInputOrOutput). */
export function openVinoEntry(t: TensorInfo, maxBatchSize: number): { name: string; data_type: DataType; dims: number[] } {
  const shape = t.shape ?? [];
  const isStatic = shape.every((d) => typeof d === 'number' && d >= 0);
  const dims = shape.slice(maxBatchSize > 0 ? 1 : 0).map((d) => (isStatic ? (d as number) : -1));
  return { name: t.name, data_type: (t.tritonType ?? 'TYPE_INVALID') as DataType, dims };
}

export function autoCompleteOpenVino(input: ModelConfig, sig: ModelSignature, options: CompletionOptions = {}): Completion {
  const config: ModelConfig = structuredClone(input);
  const steps: ResolveStep[] = [];
  const problems: ResolveProblem[] = [];
  const model = config.name ?? '';

  const blocker = tensorWithoutBatchLayout(sig);
  if (!blocker) {
    if ((config.max_batch_size ?? 0) === 0) {
      const filled = Math.max(options.defaultMaxBatchSize ?? CORE_DEFAULT_MAX_BATCH_SIZE, 1);
      config.max_batch_size = filled;
      steps.push(
        step(
          'autocomplete',
          'set',
          ['max_batch_size'],
          `autofilled max_batch_size to ${filled} for model '${model}' since batching is supported but no max_batch_size is specified in model configuration: every model input and output has a layout with a batch dimension N; ${filled} is the backend's default-max-batch-size (Triton's default: ${CORE_DEFAULT_MAX_BATCH_SIZE}). Set max_batch_size for a larger batch`,
          filled,
        ),
      );
    }
    if ((config.max_batch_size ?? 0) > 1 && !config.dynamic_batching && !config.sequence_batching) {
      config.dynamic_batching = {};
      steps.push(
        step(
          'autocomplete',
          'add',
          ['dynamic_batching'],
          `the model's layouts support batching and max_batch_size is ${config.max_batch_size}, so the OpenVINO backend turns on dynamic batching`,
          {},
        ),
      );
    }
  } else if ((config.max_batch_size ?? 0) !== 0) {
    const layout = blocker.tensor.layout === undefined ? 'no layout' : `the layout ${blocker.tensor.layout}`;
    steps.push(
      step(
        'autocomplete',
        'note',
        ['max_batch_size'],
        `model layout for model ${model} does not support batching while non-zero max_batch_size is specified (a warning: ${blocker.direction} '${blocker.tensor.name}' has ${layout}, without N; the backend still loads it, reshaping the first dimension to max_batch_size)`,
      ),
    );
  }

  const mbs = config.max_batch_size ?? 0;
  for (const side of ['input', 'output'] as const) {
    if ((side === 'input' ? config.input?.length : config.output?.length) ?? 0) {
      steps.push(step('autocomplete', 'note', [side], `skipping ${side} model configuration auto-complete for '${model}': ${side} already specified`));
      continue;
    }
    const tensors = side === 'input' ? sig.inputs : sig.outputs;
    const entries = tensors.map((t) => openVinoEntry(t, mbs));
    if (side === 'input') config.input = entries;
    else config.output = entries;
    steps.push(
      step(
        'autocomplete',
        'replace',
        [side],
        `no ${side} in the config: the OpenVINO backend lists every model ${side} (${tensors.length}), named by the smallest of each tensor's names`,
        entries,
      ),
    );
    // The backend then validates what it wrote like any config (ValidateInputs / ValidateOutputs); its
    // all -1 dims for a shape with a dynamic dim fail CompareDimsSupported where another dim is static
    // (an output always, an input without batching).
    for (const [k, t] of tensors.entries()) {
      const dims = entries[k]!.dims;
      if (t.shape === null || problems.length) continue;
      if (mbs > 0 && t.shape.length === 0) {
        problems.push({
          stage: 'validate',
          path: [side, k],
          message: `model '${model}', tensor '${t.name}': for the model to support batching the shape should have at least 1 dimension`,
          fix: `${side} '${t.name}' is a scalar; set max_batch_size: 0`,
        });
        continue;
      }
      const at = compareDims(t.shape, dims, mbs, side === 'output');
      if (at === undefined) continue;
      const modelShape = `[${t.shape.map((d, i) => (side === 'output' && mbs > 0 && i === 0 ? mbs : typeof d === 'number' && d >= 0 ? d : -1)).join(',')}]`;
      const full = mbs > 0 ? [mbs, ...dims] : dims;
      const specifies =
        mbs > 0
          ? `${full.length} dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [${full.join(',')}])`
          : `${full.length} dimensions (shape [${full.join(',')}])`;
      problems.push({
        stage: 'validate',
        path: [side, k, 'dims'],
        message: `model '${model}', tensor '${t.name}': the model expects ${t.shape.length} dimensions (shape ${modelShape}) but the model configuration specifies ${specifies}`,
        fix: `the OpenVINO backend auto-completes every dim of a shape with a dynamic dim as -1 and then refuses that -1 against the model's static dim; write the ${side}s in the config with the model's static dims (tritonc generate writes them)`,
      });
    }
    const invalid = tensors.find((t) => t.tritonType === null);
    if (invalid && !problems.length) {
      problems.push({
        stage: 'validate',
        path: [side],
        message: `model ${side} '${invalid.name}' must specify 'data_type' for ${model}`,
        fix: `${side} '${invalid.name}' has the element type ${invalid.elemType ?? 'unknown'}, which the OpenVINO backend cannot serve (TYPE_INVALID); convert the model with a supported type (f32, f16, i8..i64, u8..u64, boolean) on it`,
      });
    }
  }
  return { config, steps, problems };
}

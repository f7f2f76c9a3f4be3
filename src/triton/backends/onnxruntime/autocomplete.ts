// The ONNX Runtime backend's AutoCompleteConfig (onnxruntime_backend src/onnxruntime.cc
// ModelState::AutoCompleteConfig, AutoCompleteMaxBatch, AutoCompleteIO): what it adds to a config
// from the model's signature when Triton loads it with auto-complete on (the default).
//
// - Skip rule: with >= 1 input (batch_input entries count) AND >= 1 output, nothing changes at all;
//   an omitted max_batch_size stays 0 even for a model that could batch.
// - Otherwise AutoCompleteMaxBatch runs, then each side with no entries is generated from the model
//   (all of its tensors, ioFromSignature, in the iteration order of the backend's
//   std::unordered_map of them: libstdcxx-unordered-order.ts); a partly written side is kept as written.
// Problems are returned as data; the caller decides what Triton's refusal means for it.
import { ioFromSignature, shapeText, unbatchableTensors } from '../../io-mapping.js';
import type { ModelSignature, TensorInfo } from '../../../model-file/signature.js';
import { step, type ResolveProblem, type ResolveStep } from '../../changes.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { libstdcxxUnorderedOrder } from '../../libstdcxx-unordered-order.js';
import { holdsIn } from '../../releases/catalog.js';
import type { TritonTarget } from '../../releases/target.js';
import { ORT_BF16_TENSORS } from './releases.js';

/** core injects default-max-batch-size=4 into every backend's config (SetBackendConfigDefaults). */
export const DEFAULT_MAX_BATCH_SIZE = 4;

export interface OnnxAutoCompleteOptions {
  /** Triton's --backend-config=onnxruntime,default-max-batch-size=N (default 4). */
  defaultMaxBatchSize?: number;
  /** The Triton judged against (unset: the newest release tritonc knows). */
  target?: TritonTarget | undefined;
}

export interface OnnxAutoCompleteResult {
  config: ModelConfig;
  steps: ResolveStep[];
  /** Why Triton refuses the model during (or because of) auto-complete; empty when it does not. */
  problems: ResolveProblem[];
}

/** The skip rule: true when the ORT backend leaves the config alone (and never opens the model). */
export function onnxAutoCompleteSkipped(config: ModelConfig): boolean {
  const inputs = (config.input?.length ?? 0) + (config.batch_input?.length ?? 0);
  return inputs > 0 && (config.output?.length ?? 0) > 0;
}

/** The note for a skipped auto-complete: Triton's INFO log line, and what it means for the config. */
export function skippedStep(model: string): ResolveStep {
  return step(
    'autocomplete',
    'note',
    [],
    `skipping model configuration auto-complete for '${model}': inputs and outputs already specified (so max_batch_size is not filled in and no dynamic_batching is added)`,
  );
}

const ONNX_KIND_NAMES: Record<TensorInfo['kind'], string> = {
  tensor: 'ONNX_TYPE_TENSOR',
  sequence: 'ONNX_TYPE_SEQUENCE',
  map: 'ONNX_TYPE_MAP',
  optional: 'ONNX_TYPE_OPTIONAL',
  sparse_tensor: 'ONNX_TYPE_SPARSETENSOR',
  opaque: 'ONNX_TYPE_OPAQUE',
  unknown: 'ONNX_TYPE_UNKNOWN',
};

export function autoCompleteOnnx(input: ModelConfig, read: ModelSignature, options: OnnxAutoCompleteOptions = {}): OnnxAutoCompleteResult {
  const config: ModelConfig = structuredClone(input);
  // Before 26.03 the backend has no TYPE_BF16 (onnxruntime_utils.cc OnnxDataTypeToModelConfigDataType
  // writes TYPE_INVALID, which core refuses: "model input 'x' must specify 'data_type'", tritonserver 2.51).
  const sig = options.target && !holdsIn(ORT_BF16_TENSORS, options.target.release) ? withoutBf16(read) : read;
  const steps: ResolveStep[] = [];
  const model = config.name ?? '';
  if (onnxAutoCompleteSkipped(config)) return { config, steps: [skippedStep(model)], problems: [] };

  // The backend lists the model's inputs and outputs first; a non-tensor one fails right there.
  for (const t of [...sig.inputs, ...sig.outputs]) {
    if (t.kind !== 'tensor') {
      return {
        config,
        steps,
        problems: [
          {
            stage: 'autocomplete',
            message: `Unsupported ONNX Type '${ONNX_KIND_NAMES[t.kind]}' for I/O '${t.name}', expected 'ONNX_TYPE_TENSOR'.`,
            fix: `'${t.name}' is a ${t.kind.replace('_', ' ')}; Triton's ONNX Runtime backend serves tensors only. Re-export the model with tensor inputs and outputs`,
          },
        ],
      };
    }
  }

  // AutoCompleteMaxBatch runs when either side is missing. A fixed or missing first dimension on any
  // model input or output rules batching out (unbatchableTensors).
  const blocker = unbatchableTensors(sig)[0];
  const maxBatch = config.max_batch_size ?? 0;
  if (!blocker) {
    if (maxBatch === 0) {
      const filled = Math.max(options.defaultMaxBatchSize ?? DEFAULT_MAX_BATCH_SIZE, 0);
      config.max_batch_size = filled;
      steps.push(
        step(
          'autocomplete',
          'set',
          ['max_batch_size'],
          `autofilled max_batch_size to ${filled} for model '${model}': every model input and output has a dynamic first dimension, so the model can batch, and the config gives no max_batch_size; ${filled} is the backend's default-max-batch-size (Triton's default: ${DEFAULT_MAX_BATCH_SIZE}). Set max_batch_size for a larger batch`,
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
          `the model can batch and max_batch_size is ${config.max_batch_size}, so the backend turns on dynamic batching`,
          {},
        ),
      );
    }
  } else if (maxBatch !== 0) {
    const t = blocker.tensor;
    const which = `${blocker.direction} '${t.name}'`;
    const why =
      t.shape === null
        ? `${which} declares no shape (ONNX Runtime reports it as a scalar)`
        : t.shape.length === 0
          ? `${which} is a scalar (rank 0)`
          : `${which} has the fixed first dimension ${t.shape[0]} (shape ${shapeText(t.shape)})`;
    return {
      config,
      steps,
      problems: [
        {
          stage: 'autocomplete',
          path: ['max_batch_size'],
          message: `autofill failed for model '${model}': model does not support batching while non-zero max_batch_size is specified`,
          fix: `${why}, so the model cannot batch: set max_batch_size: 0 (or remove it), or re-export the model with a dynamic batch dimension`,
        },
      ],
    };
  }

  // The backend writes each side by iterating a std::unordered_map of the model's tensors
  // (OnnxTensorInfoMap): the server lists them in that map's order, not the model's.
  const inMapOrder = (tensors: readonly TensorInfo[]): TensorInfo[] => libstdcxxUnorderedOrder(tensors, (t) => t.name) ?? [...tensors];
  const generated = ioFromSignature({ ...sig, inputs: inMapOrder(sig.inputs), outputs: inMapOrder(sig.outputs) }, config.max_batch_size ?? 0);
  const problems: ResolveProblem[] = [];
  for (const side of ['input', 'output'] as const) {
    const count = side === 'input' ? (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) : (config.output?.length ?? 0);
    if (count > 0) continue;
    const entries = side === 'input' ? generated.input : generated.output;
    if (side === 'input') config.input = generated.input;
    else config.output = generated.output;
    const tensors = side === 'input' ? sig.inputs : sig.outputs;
    steps.push(
      step(
        'autocomplete',
        'replace',
        [side],
        `no ${side} in the config: the backend lists every model ${side} (${tensors.length}), in the order of its std::unordered_map of them, not the model's`,
        entries,
      ),
    );
    // An element type Triton has no data type for is written as TYPE_INVALID, which core then refuses.
    for (const p of generated.problems.filter((p) => p.direction === side)) {
      problems.push({
        stage: 'validate',
        path: [side],
        message: `model ${side} '${p.tensor}' must specify 'data_type' for ${model}`,
        fix:
          sig !== read && tensors.find((t) => t.name === p.tensor)?.elemType === 'BFLOAT16'
            ? `${side} '${p.tensor}' is BFLOAT16, which Triton's ONNX Runtime backend serves only from ${ORT_BF16_TENSORS.since} on; cast it to FLOAT16 or FLOAT in the exported graph, or run Triton ${ORT_BF16_TENSORS.since} or later`
            : p.message,
      });
    }
  }
  return { config, steps, problems: problems.slice(0, 1) };
}

/** The signature as a backend without BF16 sees it: BFLOAT16 tensors have no Triton type. */
function withoutBf16(sig: ModelSignature): ModelSignature {
  const strip = (ts: readonly TensorInfo[]): TensorInfo[] => ts.map((t) => (t.elemType === 'BFLOAT16' ? { ...t, tritonType: null } : t));
  return { ...sig, inputs: strip(sig.inputs), outputs: strip(sig.outputs) };
}

// ModelSignature + options -> ModelConfig. The model decides names, types, dims and whether batching
// is possible (with the same rules as the backend's auto-complete: ONNX Runtime's, or for another
// backend its record's); the options decide batching limits, scheduling, instances and acceleration.
// Problems are returned as data.
import type { ModelConfig, ModelInstanceGroup, ModelOptimizationPolicy_ExecutionAccelerators_Accelerator } from '../config/model-config.js';
import type { ModelSignature } from '../model-file/signature.js';
import { batchAxisTensors, dynamicAxesText, ioFromSignature, onnxShapeText, partialBatchAxis, unbatchableTensors } from '../triton/io-mapping.js';
import type { GenerateOptions } from './options.js';
import { ONNXRUNTIME, ONNX_MODEL_FILE, backendRecord, platformOfBackend, type BackendRecord } from '../triton/backend-records.js';
import type { ModelInput, ModelOutput } from '../config/model-config.js';
import { pytorchProblems } from './pytorch.js';
import { ORT_ACCELERATORS } from '../triton/backends/onnxruntime/accelerators.js';
import { ORT_BF16_TENSORS, ORT_CUDA_ACCELERATOR, TRT_BF16_PRECISION, ortIn, ortRefusal } from '../triton/backends/onnxruntime/releases.js';
import { holdsIn } from '../triton/releases/catalog.js';
import { DEFAULT_TARGET } from '../triton/releases/target.js';

/** Triton's default max_batch_size for a model that can batch (--backend-config default-max-batch-size). */
export const TRITON_DEFAULT_MAX_BATCH_SIZE = 4;

export interface GenerateProblem {
  code:
    | 'dynamic-axis-mismatch'
    | 'partial-batch-axis'
    | 'unsupported-tensor'
    | 'conflicting-options'
    | 'untyped-model'
    | 'not-in-release'
    | 'model-too-new'
    | 'model-refused';
  message: string;
  tensor?: string;
}

export interface GenerateResult {
  config: ModelConfig | undefined;
  problems: GenerateProblem[];
  /** What the config is right for but the user likely did not mean (a model exported to batch that cannot). */
  warnings?: GenerateProblem[];
}

export interface GenerateInput {
  signature: ModelSignature;
  /** The model directory's name. */
  modelName: string;
  /** The model file's name inside the version directory, when it is not model.onnx. */
  modelFileName?: string;
  /** How the model file is shown in messages, e.g. classifier/1/model.onnx. */
  shownPath?: string;
  /** The backend that serves it (default onnxruntime). */
  backend?: string;
}

export function generateConfig(input: GenerateInput, opts: GenerateOptions = {}): GenerateResult {
  const { signature: sig } = input;
  const shown = input.shownPath ?? sig.path;
  // A PyTorch model records no data types or shapes: what can be known, and what the user must write.
  if (sig.format === 'torchscript' || sig.format === 'pt2') return { config: undefined, problems: pytorchProblems(sig, shown, input.modelName, opts) };
  const problems: GenerateProblem[] = [];

  const record = backendRecord(input.backend) ?? ONNXRUNTIME;
  const ort = record === ONNXRUNTIME;
  const maxBatchSize = opts.maxBatchSize ?? (sig.batchable ? (opts.defaultMaxBatchSize ?? TRITON_DEFAULT_MAX_BATCH_SIZE) : 0);
  if (maxBatchSize > 0 && !sig.batchable && (record.io?.batchDimMustBeDynamic ?? true)) problems.push(dynamicAxisMismatch(sig, shown, maxBatchSize));

  const conflict = (message: string): void => void problems.push({ code: 'conflicting-options', message });
  let io: { input: ModelInput[]; output: ModelOutput[] };
  if (ort) {
    const generated = ioFromSignature(sig, maxBatchSize);
    for (const p of generated.problems) problems.push({ code: 'unsupported-tensor', message: `${shown}: ${p.message}`, tensor: p.tensor });
    io = generated;
  } else {
    io = ioByAutoComplete(record, sig, input.modelName, maxBatchSize, shown, problems);
    if (opts.accelerator) conflict(`--accelerator configures ONNX Runtime's execution providers; Triton's ${record.title ?? record.name} backend reads none`);
  }
  const dynamicBatching = opts.dynamicBatching ?? maxBatchSize > 1;
  if (dynamicBatching && maxBatchSize === 0 && opts.dynamicBatching) {
    conflict('--dynamic-batching needs batching: the model is generated with max_batch_size 0 (give --max-batch-size N)');
  }
  if (!dynamicBatching && (opts.preferredBatchSize || opts.maxQueueDelayMicroseconds !== undefined)) {
    conflict(
      `--preferred-batch-size and --max-queue-delay configure dynamic batching, which is off${maxBatchSize <= 1 ? ` (max_batch_size is ${maxBatchSize})` : ''}`,
    );
  }
  for (const size of opts.preferredBatchSize ?? []) {
    if (size > maxBatchSize) {
      conflict(
        `--preferred-batch-size ${size} is larger than max_batch_size ${maxBatchSize}; Triton refuses it ("dynamic batching preferred size must be <= max batch size")`,
      );
    }
  }
  if (opts.kind === 'cpu' && opts.gpus) conflict('--gpus places instances on GPUs, but --kind cpu asks for CPU instances');
  const kind = opts.kind ?? (opts.gpus ? 'gpu' : undefined);
  if (opts.accelerator && opts.accelerator.name !== ORT_ACCELERATORS.openvino && kind === 'cpu') {
    conflict(`--accelerator ${opts.accelerator.name} runs on GPU instances; Triton silently ignores GPU accelerators on KIND_CPU instances`);
  }
  if (opts.accelerator?.name === ORT_ACCELERATORS.openvino && kind === 'gpu') {
    conflict('--accelerator openvino is a CPU accelerator; it has no effect on --kind gpu instances');
  }
  if (ort) for (const p of releaseProblems(sig, shown, input.modelName, opts)) problems.push(p);
  if (problems.length) return { config: undefined, problems };

  const config: ModelConfig = { name: opts.name ?? input.modelName };
  const platform = platformOfBackend(record.name);
  if (opts.field === 'platform' && platform) config.platform = platform;
  else config.backend = record.name;
  const defaultFile = ort ? ONNX_MODEL_FILE : (record.platforms[0]?.defaultModelFile ?? record.defaultModelFile);
  if (input.modelFileName && input.modelFileName !== defaultFile) config.default_model_filename = input.modelFileName;
  config.max_batch_size = maxBatchSize;
  config.input = io.input;
  config.output = io.output;
  if (dynamicBatching && maxBatchSize > 0) {
    config.dynamic_batching = {};
    if (opts.preferredBatchSize) config.dynamic_batching.preferred_batch_size = opts.preferredBatchSize;
    if (opts.maxQueueDelayMicroseconds !== undefined) config.dynamic_batching.max_queue_delay_microseconds = opts.maxQueueDelayMicroseconds;
  }
  if (opts.instances !== undefined || kind !== undefined) {
    const group: ModelInstanceGroup = { count: opts.instances ?? 1, kind: kind === 'cpu' ? 'KIND_CPU' : 'KIND_GPU' };
    if (opts.gpus) group.gpus = opts.gpus;
    config.instance_group = [group];
  }
  if (opts.accelerator) config.optimization = { execution_accelerators: acceleratorConfig(opts.accelerator) };
  // A batch axis on part of the tensors: generated without batching, which --max-batch-size 0 asks for
  // knowingly; otherwise it is what the author did not mean.
  const partial = opts.maxBatchSize === undefined && maxBatchSize === 0 && (record.io?.batchDimMustBeDynamic ?? true) ? partialBatchAxis(sig) : undefined;
  const warnings = [...(partial ? [partialBatchAxisWarning(partial, shown)] : []), ...(ort ? modelTooNew(sig, shown, opts) : [])];
  return { config, problems, ...(warnings.length ? { warnings } : {}) };
}

/**
 * What the target release's ONNX Runtime backend does not have yet (triton/backends/onnxruntime/releases.ts):
 * the config would be refused there, so it is not written.
 */
function releaseProblems(sig: ModelSignature, shown: string, model: string, opts: GenerateOptions): GenerateProblem[] {
  const release = (opts.target ?? DEFAULT_TARGET).release;
  const at = `Triton ${release.container}`;
  const out: GenerateProblem[] = [];
  const acc = opts.accelerator;
  if (acc?.name === ORT_ACCELERATORS.tensorrt && acc.precision === 'BF16' && !holdsIn(TRT_BF16_PRECISION, release))
    out.push({
      code: 'not-in-release',
      message: `--accelerator tensorrt:bf16: the TensorRT precision_mode BF16 arrived in Triton ${TRT_BF16_PRECISION.since}, and ${at} refuses it ("unsupported precision mode 'BF16' is requested"); use tensorrt:fp16, or generate for ${TRT_BF16_PRECISION.since} or later (--triton-version ${TRT_BF16_PRECISION.since})`,
    });
  if (acc?.name === ORT_ACCELERATORS.cuda && !holdsIn(ORT_CUDA_ACCELERATOR, release))
    out.push({
      code: 'not-in-release',
      message: `--accelerator cuda: the cuda execution accelerator arrived in Triton ${ORT_CUDA_ACCELERATOR.since}, and ${at} refuses it ("unknown Execution Accelerator 'cuda' is requested"); leave it out (GPU instances run the CUDA execution provider anyway), or generate for ${ORT_CUDA_ACCELERATOR.since} or later`,
    });
  if (!holdsIn(ORT_BF16_TENSORS, release)) {
    for (const [direction, tensors] of [
      ['input', sig.inputs],
      ['output', sig.outputs],
    ] as const) {
      for (const t of tensors) {
        if (t.kind !== 'tensor' || t.elemType !== 'BFLOAT16') continue;
        out.push({
          code: 'not-in-release',
          tensor: t.name,
          message: `${shown}: ${direction} '${t.name}' is BFLOAT16, and Triton's ONNX Runtime backend serves BFLOAT16 tensors only from ${ORT_BF16_TENSORS.since} on: ${at} refuses the model ("unsupported datatype TYPE_BF16 for ${direction} '${t.name}' for model '${model}'"); cast it to FLOAT16 or FLOAT in the exported graph, or generate for ${ORT_BF16_TENSORS.since} or later (--triton-version ${ORT_BF16_TENSORS.since})`,
        });
      }
    }
  }
  return out;
}

/** A model the target's ONNX Runtime refuses: the config is right, the model file needs re-exporting (lint's onnx-runtime-version). */
function modelTooNew(sig: ModelSignature, shown: string, opts: GenerateOptions): GenerateProblem[] {
  const release = (opts.target ?? DEFAULT_TARGET).release;
  const refusal = ortRefusal(sig, release);
  if (!refusal) return [];
  if (refusal.kind === 'noOpset')
    return [
      {
        code: 'model-refused',
        message: `${shown} imports no opset: every ONNX Runtime refuses it ("Missing opset in the model. All ModelProtos MUST have at least one entry that specifies which version of the ONNX OperatorSet is being imported."); re-export it`,
      },
    ];
  const ort = `Triton ${release.container} bundles ONNX Runtime ${ortIn(release).version}, which refuses it`;
  const later = refusal.loadsFrom ? `, or run Triton ${refusal.loadsFrom.container} or later` : '';
  const message =
    refusal.kind === 'ir'
      ? `${shown} has IR version ${refusal.irVersion}: ${ort} ("Unsupported model IR version: ${refusal.irVersion}, max supported IR version: ${refusal.maxIr}"); re-export it with IR version ${refusal.maxIr} or older${later}`
      : `${shown} imports opset ${refusal.version} of ${refusal.domain}: ${ort} ("... Current official support for domain ${refusal.domain} is till opset ${refusal.max}."); re-export it with opset ${refusal.max} or older${later}`;
  return [{ code: 'model-too-new', message }];
}

function partialBatchAxisWarning(partial: NonNullable<ReturnType<typeof partialBatchAxis>>, shown: string): GenerateProblem {
  const side = (t: (typeof partial.fixed)[number]): string => `${t.direction} '${t.tensor.name}'`;
  return {
    code: 'partial-batch-axis',
    tensor: partial.fixed[0]!.tensor.name,
    message: [
      `${shown} cannot batch, so the config has max_batch_size 0 and Triton runs one request at a time: ${partial.dynamic.map(side).join(', ')} ${partial.dynamic.length > 1 ? 'have' : 'has'} a dynamic first dim, but ${partial.fixed.map((t) => `${side(t)} has the fixed shape ${onnxShapeText(t.tensor.shape)}`).join(', ')}.`,
      `Fix: re-export with the batch axis on every input and output, torch.onnx.export(..., dynamic_axes=${dynamicAxesText(partial.all)}); if a first dim stays fixed, the model's forward hard-codes the example's batch (a reshape or view to (1, ...)): keep it symbolic (x.flatten(1)). Or give --max-batch-size 0 to generate without batching knowingly.`,
    ].join('\n'),
  };
}

/**
 * Inputs and outputs as the backend's own auto-complete writes them (its record's), for a config of
 * `maxBatchSize`; a max_batch_size the backend would change at load is a conflict (the OpenVINO backend
 * sets its default-max-batch-size whenever every layout has N, so a 0 does not stay 0).
 */
function ioByAutoComplete(
  record: BackendRecord,
  sig: ModelSignature,
  name: string,
  maxBatchSize: number,
  shown: string,
  problems: GenerateProblem[],
): { input: ModelInput[]; output: ModelOutput[] } {
  const how = record.autoComplete;
  if (how?.from !== 'model') {
    problems.push({
      code: 'unsupported-tensor',
      message: `${shown}: Triton's ${record.title ?? record.name} backend does not complete configs from its model; tritonc generates for backends that do`,
    });
    return { input: [], output: [] };
  }
  const done = how.complete({ name, backend: record.name, max_batch_size: maxBatchSize }, sig, {});
  // Refused dims of the backend's own entries are fixed below (pin): the other problems stand.
  for (const p of done.problems.filter((q) => q.path?.[2] !== 'dims'))
    problems.push({ code: 'unsupported-tensor', message: `${shown}: ${p.message}: ${p.fix}` });
  const filled = done.config.max_batch_size ?? 0;
  if (filled !== maxBatchSize) {
    const why = done.steps.find((s) => s.path[0] === 'max_batch_size')?.reason ?? '';
    problems.push({
      code: 'conflicting-options',
      message: `max_batch_size ${maxBatchSize} does not stay: at load Triton's ${record.title ?? record.name} backend makes it ${filled} (${why}); give --max-batch-size ${filled} (or any N >= 1)`,
    });
  }
  // The OpenVINO backend writes every dim -1 when any dim of a tensor is dynamic (AutoCompleteInputOrOutput:
  // `io_shape.is_static() ? get_length() : -1`), and then refuses an output's -1 against a static dim
  // (CompareDimsSupported, compare_exact). A generated config keeps each static dim as the model has it.
  const pin = <T extends ModelInput | ModelOutput>(entries: T[] | undefined, tensors: ModelSignature['inputs']): T[] =>
    (entries ?? []).map((e) => {
      const shape = tensors.find((t) => t.name === e.name)?.shape;
      const item = shape ? shape.slice(filled > 0 ? 1 : 0) : undefined;
      if (!item || !e.dims || item.length !== e.dims.length) return e;
      return { ...e, dims: item.map((d, i) => (typeof d === 'number' && d >= 0 ? d : Number(e.dims![i]))) };
    });
  return { input: pin(done.config.input, sig.inputs), output: pin(done.config.output, sig.outputs) };
}

function acceleratorConfig(a: NonNullable<GenerateOptions['accelerator']>): NonNullable<NonNullable<ModelConfig['optimization']>['execution_accelerators']> {
  if (a.name === ORT_ACCELERATORS.openvino) return { cpu_execution_accelerator: [{ name: 'openvino' }] };
  const entry: ModelOptimizationPolicy_ExecutionAccelerators_Accelerator = { name: a.name };
  if (a.name === ORT_ACCELERATORS.tensorrt) entry.parameters = { precision_mode: a.precision };
  return { gpu_execution_accelerator: [entry] };
}

/** The tutorial's "dynamic axis mismatch": batching asked of a model whose first dim is fixed. */
function dynamicAxisMismatch(sig: ModelSignature, shown: string, maxBatchSize: number): GenerateProblem {
  const fixed = unbatchableTensors(sig);
  const lines = fixed.map(
    ({ tensor, direction }) =>
      `  ${direction} '${tensor.name}' has shape ${onnxShapeText(tensor.shape)}${tensor.shape?.length ? ` (first dim ${tensor.shape[0]} is fixed)` : ' (no batch dim)'}`,
  );
  // A first dim fixed beside dynamic ones: the export's forward hard-codes the example's batch.
  const hardCoded = partialBatchAxis(sig)
    ? ` If a first dim stays fixed, the model's forward hard-codes the example's batch (a reshape or view to (1, ...)): keep it symbolic (x.flatten(1)).`
    : '';
  return {
    code: 'dynamic-axis-mismatch',
    tensor: fixed[0]?.tensor.name,
    message: [
      `${shown} cannot batch, but max_batch_size ${maxBatchSize} asks Triton to send it batches: every input and output needs a dynamic first dim.`,
      ...lines,
      `Fix: re-export with a dynamic batch axis on dim 0 of every input and output, torch.onnx.export(..., dynamic_axes=${dynamicAxesText(batchAxisTensors(sig))}), or generate without batching (--max-batch-size 0).${hardCoded}`,
    ].join('\n'),
  };
}

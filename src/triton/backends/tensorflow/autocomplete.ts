// The TensorFlow backend's auto-complete of a SavedModel (tensorflow_backend src/tensorflow.cc
// ModelState::AutoCompleteConfig -> AutoCompleteHelper::Fix): what it changes in a config from the
// model's serving signature when Triton loads it with auto-complete on. Unlike ONNX Runtime's there is
// no "inputs and outputs already specified" skip: it always runs (a GraphDef excepted: "Nothing to be
// filled for graphdef").
//
// - FixBatchingSupport: the signature supports batching when every tensor of rank > 0 has -1 first
//   (src/tensorflow_utils.cc ModelSupportsBatch). max_batch_size > 0 without that is refused. Else each
//   config tensor (inputs, then outputs) found in the model is a hint: dims of the model's rank - 1 say
//   "batching", any other non-empty dims say "no batching", and the two together are refused as
//   "contradicting"; an allow_ragged_batch tensor says "batching" and ends the look; empty dims on a
//   tensor of rank > 0 are a weak "batching". No config tensors at all: the signature decides. A
//   max_batch_size of 0 becomes default-max-batch-size (4) when batching, and max_batch_size > 1
//   without a scheduler gets dynamic_batching { }.
// - FixConfigInputs: each config input the model has gets data_type (unset or TYPE_INVALID) and dims
//   (unset or empty) from the model; model inputs the config does not list (nor names as a
//   batch_input target or a sequence control input) are appended.
// - FixConfigOutputs: no outputs in the config: all of the model's; otherwise the listed ones that
//   the model has get what they lack (its errors ignored there).
// Dims come from the model's shape, without the first when batching; none left is dims [1] with
// reshape { shape: [ ] }. Problems are returned as data, the first one fails the load.
import type { ModelConfig, ModelInput, ModelOutput } from '../../../config/model-config.js';
import type { ModelSignature, TensorInfo } from '../../../model-file/signature.js';
import { step, type ResolveProblem, type ResolveStep } from '../../changes.js';
import { DEFAULT_MAX_BATCH_SIZE } from '../onnxruntime/autocomplete.js';
import { tritonDim } from '../../io-mapping.js';
import type { Completion, CompletionOptions } from '../record.js';

/**
 * The meta graph and signature the backend loads, when the config's parameters name others than the
 * ones tritonc reads ({ serve }, serving_default): tensorflow_backend ModelState::ParseParameters reads
 * TF_GRAPH_TAG and TF_SIGNATURE_DEF and TRITONTF_ModelCreateFromSavedModel loads what they name.
 */
export function otherSignatureNamed(config: ModelConfig): string | undefined {
  const value = (key: string): string => config.parameters?.[key]?.string_value ?? '';
  const tag = value('TF_GRAPH_TAG');
  const signature = value('TF_SIGNATURE_DEF');
  if (tag !== '' && tag !== 'serve') return `TF_GRAPH_TAG "${tag}"`;
  if (signature !== '' && signature !== 'serving_default') return `TF_SIGNATURE_DEF "${signature}"`;
  return undefined;
}

/**
 * tensorflow_backend ModelState::AutoCompleteConfig: nothing is filled in for a GraphDef. tritonc also
 * leaves a SavedModel alone whose parameters name another signature than the one it reads.
 */
export const tensorflowAutoCompleteSkipped = (config: ModelConfig): boolean =>
  config.platform === 'tensorflow_graphdef' || otherSignatureNamed(config) !== undefined;

export function tensorflowSkippedNote(model: string, config?: ModelConfig): string {
  const other = config && otherSignatureNamed(config);
  return other && config.platform !== 'tensorflow_graphdef'
    ? `tritonc reads the serving_default signature of the meta graph tagged serve; the config's ${other} names another, so what the TensorFlow backend fills in for '${model}' from it is not worked out here`
    : `the TensorFlow backend does not auto-complete '${model}': a GraphDef records nothing to fill in ("Nothing to be filled for graphdef"), so the config must be complete as written`;
}

const rank = (t: TensorInfo): number => t.shape?.length ?? 0;

/** How each side's config tensors hint at batching; the contradiction is a problem (FixBatchingSupport). */
export interface HintTensor {
  direction: 'input' | 'output';
  index: number;
  name: string;
  dims: number[];
  /** The model tensor's shape. */
  shape: number[];
  /** Whether its dims leave out the batch dimension (the model's rank - 1). */
  batch: boolean;
}

export function batchingHint(config: ModelConfig, sig: ModelSignature): { hint: boolean; contradiction?: HintTensor; first?: HintTensor } {
  const entries: { direction: 'input' | 'output'; index: number; entry: ModelInput | ModelOutput }[] = [
    ...(config.input ?? []).map((entry, index) => ({ direction: 'input' as const, index, entry })),
    ...(config.output ?? []).map((entry, index) => ({ direction: 'output' as const, index, entry })),
  ];
  if (!entries.length) return { hint: sig.batchable };
  let hint = false;
  let explicit: 'unset' | 'batch' | 'no-batch' = 'unset';
  let first: HintTensor | undefined;
  for (const { direction, index, entry } of entries) {
    if ('allow_ragged_batch' in entry && entry.allow_ragged_batch) return { hint: true };
    if (!entry.name) continue;
    const dims = (entry.reshape ? (entry.reshape.shape ?? []) : (entry.dims ?? [])).map(Number);
    const model = (direction === 'input' ? sig.inputs : sig.outputs).find((t) => t.name === entry.name);
    if (!model) continue;
    const r = rank(model);
    if (r > 0 && dims.length === 0 && explicit === 'unset') hint = true;
    else if (r > 0 && dims.length > 0) {
      const t: HintTensor = { direction, index, name: entry.name, dims, shape: (model.shape ?? []).map(tritonDim), batch: dims.length === r - 1 };
      if (t.batch) {
        hint = true;
        if (explicit === 'no-batch') return { hint, contradiction: t, ...(first ? { first } : {}) };
        explicit = 'batch';
      } else if (explicit === 'batch') {
        return { hint, contradiction: t, ...(first ? { first } : {}) };
      } else {
        explicit = 'no-batch';
        hint = false;
      }
      first ??= t;
    }
  }
  return { hint, ...(first ? { first } : {}) };
}

export function autoCompleteTensorflow(input: ModelConfig, sig: ModelSignature, options: CompletionOptions = {}): Completion {
  const config: ModelConfig = structuredClone(input);
  const steps: ResolveStep[] = [];
  const model = config.name ?? '';
  const fail = (problem: ResolveProblem): Completion => ({ config, steps, problems: [problem] });

  // TRITONTF_ModelCreateFromSavedModel refuses a signature tensor whose type has no Triton type.
  for (const [direction, list] of [
    ['input', sig.inputs],
    ['output', sig.outputs],
  ] as const) {
    const bad = list.find((t) => t.tritonType === null);
    if (bad) {
      return fail({
        stage: 'autocomplete',
        message: `unable to process ${direction} '${bad.name}' for '${model}', unsupported datatype '${bad.elemType}'`,
        fix: `the serving signature's ${direction} '${bad.name}' is ${bad.elemType}, which Triton's TensorFlow backend cannot serve: cast it to a supported type in the exported signature`,
      });
    }
  }

  // FixBatchingSupport.
  const mbs = Number(config.max_batch_size ?? 0);
  if (!sig.batchable && mbs > 0) {
    const blocker = [...sig.inputs, ...sig.outputs].find((t) => rank(t) > 0 && t.shape![0] !== -1);
    return fail({
      stage: 'autocomplete',
      path: ['max_batch_size'],
      message: `unable to autofill for '${model}', configuration specified max-batch ${mbs} but model signature does not support batching`,
      fix: `${blocker ? `'${blocker.name}' has the fixed first dimension ${String(blocker.shape![0])}, so the model cannot batch` : 'the model cannot batch'}: set max_batch_size: 0, or re-export the model with -1 (None) as every tensor's first dimension`,
    });
  }
  let supportsBatching = false;
  if (sig.batchable) {
    const { hint, contradiction } = batchingHint(config, sig);
    if (contradiction) {
      return fail({
        stage: 'autocomplete',
        path: [contradiction.direction, contradiction.index, 'dims'],
        message: `unable to autofill for '${model}', model tensor configurations are contradicting each other in terms of whether batching is supported`,
        fix: `some tensors' dims leave out the batch dimension (the model's rank - 1) and others give the model's full rank: write every tensor's dims the same way (without the batch dimension when max_batch_size > 0)`,
      });
    }
    supportsBatching = hint && (options.defaultMaxBatchSize ?? DEFAULT_MAX_BATCH_SIZE) > 0;
  }
  if (mbs === 0) {
    const filled = supportsBatching ? Math.max(options.defaultMaxBatchSize ?? DEFAULT_MAX_BATCH_SIZE, 0) : 0;
    if (filled !== 0) {
      config.max_batch_size = filled;
      steps.push(
        step(
          'autocomplete',
          'set',
          ['max_batch_size'],
          `autofilled max_batch_size to ${filled} for model '${model}': the signature can batch and the config's tensors do not say otherwise; ${filled} is the backend's default-max-batch-size. Set max_batch_size for a larger batch`,
          filled,
        ),
      );
    }
  }
  if (Number(config.max_batch_size ?? 0) > 1 && !config.dynamic_batching && !config.sequence_batching) {
    config.dynamic_batching = {};
    steps.push(
      step(
        'autocomplete',
        'add',
        ['dynamic_batching'],
        `max_batch_size is ${config.max_batch_size} and no scheduler is set, so the backend turns on dynamic batching`,
        {},
      ),
    );
  }

  const dimsOf = (t: TensorInfo): { dims: number[]; reshape?: { shape: number[] } } => {
    const shape = (t.shape ?? []).map(tritonDim);
    const dims = supportsBatching ? shape.slice(1) : shape;
    return dims.length ? { dims } : { dims: [1], reshape: { shape: [] } };
  };
  /** FillMissingValues: a problem for a rank-0 tensor whose dims must be filled in. */
  const fill = <E extends ModelInput | ModelOutput>(entry: E, t: TensorInfo, path: (string | number)[]): ResolveProblem | undefined => {
    if (entry.data_type === undefined || entry.data_type === 'TYPE_INVALID') {
      entry.data_type = t.tritonType as E['data_type'];
      steps.push(step('autocomplete', 'set', [...path, 'data_type'], `the model's ${String(path[0])} '${t.name}' is ${t.elemType}`, entry.data_type));
    }
    if (!entry.dims?.length) {
      if (rank(t) === 0) {
        return {
          stage: 'autocomplete',
          path,
          message: `Unable to autofill for '${model}': the rank of model tensor '${t.name}' is 0 and dimensions are not defined`,
          fix: `the signature gives '${t.name}' no shape: write its dims in the config`,
        };
      }
      const d = dimsOf(t);
      entry.dims = d.dims;
      if (d.reshape) entry.reshape = d.reshape;
      steps.push(
        step(
          'autocomplete',
          'set',
          [...path, 'dims'],
          `the model's ${String(path[0])} '${t.name}' has shape [${(t.shape ?? []).map(tritonDim).join(',')}]`,
          d.dims,
        ),
      );
    }
    return undefined;
  };

  // FixConfigInputs.
  const remaining = [...sig.inputs];
  const take = (name: string | undefined): TensorInfo | undefined => {
    const i = remaining.findIndex((t) => t.name === name);
    return i < 0 ? undefined : remaining.splice(i, 1)[0];
  };
  const inputs = config.input ?? [];
  for (let i = 0; i < inputs.length; i++) {
    const t = take(inputs[i]!.name);
    if (!t) continue;
    const problem = fill(inputs[i]!, t, ['input', i]);
    if (problem) return fail(problem);
  }
  for (const b of config.batch_input ?? []) for (const name of b.target_name ?? []) take(name);
  for (const c of config.sequence_batching?.control_input ?? []) take(c.name);
  if (remaining.length) {
    const added: ModelInput[] = [];
    for (const t of remaining) {
      const entry: ModelInput = { name: t.name };
      const problem = fill(entry, t, ['input', inputs.length + added.length]);
      if (problem) return fail(problem);
      added.push(entry);
    }
    config.input = [...inputs, ...added];
    steps.push(
      step(
        'autocomplete',
        'add',
        ['input'],
        `the config does not list the model input${added.length > 1 ? 's' : ''} ${added.map((e) => `'${e.name}'`).join(', ')}: the backend adds ${added.length > 1 ? 'them' : 'it'}`,
        added,
      ),
    );
  }

  // FixConfigOutputs.
  if (!config.output?.length) {
    const generated: ModelOutput[] = [];
    for (const t of sig.outputs) {
      if (rank(t) === 0) {
        return fail({
          stage: 'autocomplete',
          path: ['output'],
          message: `Unable to autofill for '${model}': the rank of model tensor '${t.name}' is 0 which is not supported`,
          fix: `the signature gives output '${t.name}' no shape: list the outputs with their dims in the config`,
        });
      }
      generated.push({ name: t.name, data_type: t.tritonType as ModelOutput['data_type'], ...dimsOf(t) });
    }
    config.output = generated;
    steps.push(step('autocomplete', 'replace', ['output'], `no output in the config: the backend lists every model output (${generated.length})`, generated));
  } else {
    config.output.forEach((entry, i) => {
      const t = sig.outputs.find((o) => o.name === entry.name);
      // FixConfigOutputs ignores FillMissingValues' error here.
      if (t) fill(entry, t, ['output', i]);
    });
  }
  return { config, steps, problems: [] };
}

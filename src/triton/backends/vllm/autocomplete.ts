// The vLLM backend's auto-complete (vllm_backend src/model.py @ 8de0c148, TritonPythonModel.auto_complete_config,
// lines 48-160): it adds the inputs and outputs the config does not declare, by name only (a declared
// tensor is never compared), then asks for the decoupled transaction policy, then sets max_batch_size
// to 0 (vLLM batches by itself). Each through python_backend's helpers, whose ValueError fails the load.
import type { ModelConfig } from '../../../config/model-config.js';
import { step, type ResolveProblem, type ResolveStep } from '../../changes.js';
import { addTensor, setMaxBatchSize, setModelTransactionPolicy, type HelperResult, type PythonTensor } from '../python/model-config-helpers.js';

/** src/model.py lines 69-134. */
export const VLLM_INPUTS: readonly PythonTensor[] = [
  { name: 'text_input', data_type: 'TYPE_STRING', dims: [1] },
  { name: 'image', data_type: 'TYPE_STRING', dims: [-1], optional: true },
  { name: 'stream', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'sampling_parameters', data_type: 'TYPE_STRING', dims: [1], optional: true },
  { name: 'exclude_input_in_output', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'return_finish_reason', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'return_cumulative_logprob', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'return_logprobs', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'return_num_input_tokens', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'return_num_output_tokens', data_type: 'TYPE_BOOL', dims: [1], optional: true },
  { name: 'embedding_request', data_type: 'TYPE_STRING', dims: [1], optional: true },
];

/** src/model.py lines 136-143. */
export const VLLM_OUTPUTS: readonly PythonTensor[] = [
  { name: 'text_output', data_type: 'TYPE_STRING', dims: [-1] },
  { name: 'finish_reason', data_type: 'TYPE_STRING', dims: [-1] },
  { name: 'cumulative_logprob', data_type: 'TYPE_FP32', dims: [-1] },
  { name: 'logprobs', data_type: 'TYPE_STRING', dims: [-1] },
  { name: 'num_input_tokens', data_type: 'TYPE_UINT32', dims: [1] },
  { name: 'num_output_tokens', data_type: 'TYPE_UINT32', dims: [-1] },
];

export interface VllmAutoCompleteResult {
  config: ModelConfig;
  steps: ResolveStep[];
  problems: ResolveProblem[];
}

export function autoCompleteVllm(input: ModelConfig): VllmAutoCompleteResult {
  let config = structuredClone(input);
  const steps: ResolveStep[] = [];
  const fail = (r: Extract<HelperResult, { ok: false }>, path: string[], fix: string): VllmAutoCompleteResult => ({
    config,
    steps,
    problems: [{ stage: 'autocomplete', path, message: r.message, fix }],
  });

  for (const side of ['input', 'output'] as const) {
    const declared = new Set((config[side] ?? []).map((t) => t.name));
    const added: string[] = [];
    for (const t of side === 'input' ? VLLM_INPUTS : VLLM_OUTPUTS) {
      if (declared.has(t.name)) continue;
      const r = addTensor(config, side, t);
      if (!r.ok) return fail(r, [side], `declare ${side} '${t.name}' as the vLLM backend does, or leave it out`);
      config = r.config;
      added.push(t.name);
    }
    if (added.length)
      steps.push(
        step(
          'autocomplete',
          'add',
          [side],
          `the vLLM backend adds the ${side}s the config does not declare: ${added.join(', ')}`,
          (config[side] ?? []).filter((t) => added.includes(t.name ?? '')),
        ),
      );
  }
  const policy = setModelTransactionPolicy(config, { decoupled: true });
  if (!policy.ok)
    return fail(
      policy,
      ['model_transaction_policy', 'decoupled'],
      'the vLLM backend streams its responses and must be decoupled: set model_transaction_policy { decoupled: true }, or remove the block',
    );
  config = policy.config;
  if (policy.changed)
    steps.push(
      step(
        'autocomplete',
        'set',
        ['model_transaction_policy', 'decoupled'],
        'the vLLM backend asks for the decoupled transaction policy, to stream tokens and keep the engine saturated',
        true,
      ),
    );
  const batch = setMaxBatchSize(config, 0);
  if (!batch.ok)
    return fail(batch, ['max_batch_size'], 'vLLM batches requests itself, and its auto-complete sets max_batch_size 0: remove max_batch_size (or set it to 0)');
  config = batch.config;
  steps.push(
    step(
      'autocomplete',
      'note',
      ['max_batch_size'],
      'the vLLM backend sets max_batch_size to 0: Triton does not batch, vLLM batches the requests it receives itself',
    ),
  );
  return { config, steps, problems: [] };
}

// tensorrtllm-parameters on the shapes of the TensorRT-LLM templates (tensorrtllm_backend
// all_models/inflight_batcher_llm/tensorrt_llm/config.pbtxt, triton_cli templates/trt_llm), filled.
import { describe, expect, it } from 'vitest';
import { TRTLLM_PARAMETERS } from '../../src/triton/backends/tensorrtllm/parameters.js';
import { testRule } from '../support/rule-tester.js';

const ID = 'tensorrtllm-parameters';
const param = (key: string, value: string) => `parameters { key: "${key}" value: { string_value: "${value}" } }\n`;
const REQUIRED =
  param('gpt_model_type', 'inflight_fused_batching') +
  param('gpt_model_path', '/engines/llama') +
  param('tokenizer_dir', '') +
  param('xgrammar_tokenizer_info_path', '') +
  param('guided_decoding_backend', '');
const CPP = `backend: "tensorrtllm"\nmax_batch_size: 64\nmodel_transaction_policy { decoupled: true }\n${REQUIRED}`;
const PY = `backend: "python"\nmax_batch_size: 64\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llama')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}`;
const release = (r: string) => ({ rules: { [ID]: ['error', { release: r }] } });
const OLD = `backend: "tensorrtllm"\nmax_batch_size: 8\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llava')}`;
const LOOKAHEAD = CPP + param('decoding_mode', 'lookahead');

testRule(ID, {
  valid: [
    { name: 'the required keys, filled', config: CPP },
    {
      name: 'every accepted boolean spelling',
      config:
        CPP +
        ['True', 'true', 'TRUE', '1', 'False', 'false', 'FALSE', '0']
          .map((v, i) =>
            param(
              [
                'enable_kv_cache_reuse',
                'normalize_log_probs',
                'enable_chunked_context',
                'kv_cache_onboard_blocks',
                'multi_block_mode',
                'cuda_graph_mode',
                'exclude_input_in_output',
                'enable_context_fmha_fp32_acc',
              ][i]!,
              v,
            ),
          )
          .join(''),
    },
    {
      name: 'enums and numbers in range',
      config:
        CPP +
        param('batch_scheduler_policy', 'max_utilization') +
        param('decoding_mode', 'top_k_top_p') +
        param('kv_cache_free_gpu_mem_fraction', '0.9') +
        param('max_beam_width', '1') +
        param('max_attention_window_size', '4096,4096') +
        param('gpu_device_ids', '0,1;2,3') +
        param('medusa_choices', '{0, 0, 0}, {0, 1}'),
    },
    {
      name: 'an encoder-only model',
      config: `backend: "tensorrtllm"\n${param('gpt_model_type', 'v1')}${param('encoder_model_path', '/engines/t5-enc')}${param('tokenizer_dir', '')}${param('xgrammar_tokenizer_info_path', '')}${param('guided_decoding_backend', '')}`,
    },
    {
      name: 'lookahead decoding with its three sizes',
      config: LOOKAHEAD + param('lookahead_window_size', '4') + param('lookahead_ngram_size', '3') + param('lookahead_verification_set_size', '2'),
    },
    { name: 'lookahead keys ignored under another mode', config: CPP + param('lookahead_window_size', 'x') },
    { name: 'placeholders: unfilled-placeholder reports them', config: CPP + param('max_beam_width', '${max_beam_width}') },
    { name: 'keys the templates carry for other readers', config: CPP + param('FORCE_CPU_ONLY_INPUT_TENSORS', 'no') },
    {
      name: 'the Python runtime: case-insensitive enums, auto, empty values unset',
      config: PY + param('decoding_mode', 'auto') + param('gpt_model_type', 'Inflight_Fused_Batching') + param('max_beam_width', ''),
    },
    { name: 'not a TensorRT-LLM model', config: 'backend: "python"\n' + param('batch_scheduler_policy', 'whatever') },
    {
      name: 'logits in FP32 on both outputs',
      config:
        CPP +
        'output [ { name: "context_logits" data_type: TYPE_FP32 dims: [ -1, -1 ] }, { name: "generation_logits" data_type: TYPE_FP32 dims: [ -1, -1, -1 ] } ]\n',
    },
    { name: 'v0.9.0, which the Llava tutorial pins, requires no guided-decoding key', config: OLD, settings: release('0.9.0') },
    // The issue's repository, pinned to the 24.11 trtllm image (TensorRT-LLM 0.15.0), and 25.04's (0.18.2).
    { name: "Triton 24.11's trtllm image (TensorRT-LLM 0.15.0) requires no guided-decoding key", config: OLD, settings: { triton: '24.11-trtllm-python-py3' } },
    { name: "Triton 25.04's trtllm image (TensorRT-LLM 0.18.2) requires no guided-decoding key", config: OLD, settings: { triton: '25.04' } },
    { name: "a key read from 0.15.0 on, for Triton 24.11's image (0.15.0)", config: OLD + param('cuda_graph_mode', 'true'), settings: { triton: '24.11' } },
    {
      name: "the rule's release option wins over the target's",
      config: OLD,
      settings: { triton: '26.07-trtllm-python-py3', ...release('0.18.0') },
    },
    { name: 'guided decoding off while the info path is unset', config: CPP + param('guided_decoding_backend', 'outlines') },
  ],
  invalid: [
    // The C++ backend.
    {
      name: "required keys missing, and no engine: errors with the backend's messages",
      config: `backend: "tensorrtllm"\nmax_batch_size: 8\n${param('gpt_model_type', 'v1')}`,
      errors: [
        { messageId: 'noEnginePath', severity: 'error' },
        {
          messageId: 'missingRequiredSince',
          severity: 'error',
          data: { key: 'guided_decoding_backend', release: '1.2.1', since: '0.19.0', olderRelease: '25.04' },
        },
        { messageId: 'missingRequiredSince', severity: 'error', data: { key: 'tokenizer_dir' } },
        { messageId: 'missingRequiredSince', severity: 'error', data: { key: 'xgrammar_tokenizer_info_path' } },
      ],
    },
    {
      name: 'gpt_model_type is required by every release',
      config: `backend: "tensorrtllm"\n${param('gpt_model_path', '/engines/llava')}`,
      settings: { triton: '24.11-trtllm-python-py3' },
      errors: [{ messageId: 'missingRequired', severity: 'error', data: { key: 'gpt_model_type', example: 'inflight_fused_batching' } }],
    },
    {
      name: 'v0.19.0 requires all three guided-decoding keys',
      config: OLD,
      settings: release('0.19.0'),
      errors: ['guided_decoding_backend', 'tokenizer_dir', 'xgrammar_tokenizer_info_path'].map((key) => ({
        messageId: 'missingRequiredSince',
        data: { key, release: '0.19.0', since: '0.19.0' },
      })),
    },
    // The version the target's trtllm image bundles (server docs/introduction/compatibility.md @ r26.08):
    // 25.04 bundles 0.18.2, 25.05 bundles 0.19.0, the first to require the guided-decoding keys.
    {
      name: "Triton 25.05's trtllm image (TensorRT-LLM 0.19.0) requires the guided-decoding keys",
      config: OLD,
      settings: { triton: 'nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3' },
      errors: ['guided_decoding_backend', 'tokenizer_dir', 'xgrammar_tokenizer_info_path'].map((key) => ({
        messageId: 'missingRequiredSince',
        data: { key, release: '0.19.0', since: '0.19.0' },
      })),
    },
    {
      name: "a key read from 0.15.0 on, for Triton 24.10's image (0.14.0): not read there",
      config: OLD + param('cuda_graph_mode', 'true'),
      settings: { triton: '24.10-trtllm-python-py3' },
      errors: [{ messageId: 'notInRelease', severity: 'warning', data: { key: 'cuda_graph_mode', since: '0.15.0', release: '0.14.0', firstRelease: '24.11' } }],
    },
    {
      name: 'a key a later release added, in a config for v0.9.0: not read there',
      config: OLD + param('tokenizer_dir', '/tok') + param('cuda_graph_mode', 'true'),
      settings: release('0.9.0'),
      errors: [
        { messageId: 'notInRelease', severity: 'warning', data: { key: 'tokenizer_dir', since: '0.19.0', release: '0.9.0' } },
        { messageId: 'notInRelease', severity: 'warning', data: { key: 'cuda_graph_mode', since: '0.15.0' } },
      ],
    },
    {
      name: 'gpt_model_type outside its set fails the load; a close value is suggested, never applied by --fix',
      config: CPP.replace('"inflight_fused_batching"', '"inflight_fused_batchng"'),
      errors: [
        {
          messageId: 'modelTypeFailsSuggest',
          severity: 'error',
          token: '"inflight_fused_batchng"',
          data: { key: 'gpt_model_type', value: 'inflight_fused_batchng', suggestion: 'inflight_fused_batching' },
        },
      ],
      suggestions: [CPP],
      output: null,
    },
    {
      name: 'gpt_model_type far from any value',
      config: CPP.replace('"inflight_fused_batching"', '"zzz"'),
      errors: [
        {
          messageId: 'modelTypeFails',
          severity: 'error',
          data: { key: 'gpt_model_type', value: 'zzz', values: 'V1, v1, inflight_batching, inflight_fused_batching' },
        },
      ],
      output: null,
    },
    {
      name: 'guided decoding on with a backend other than xgrammar fails the load',
      config: CPP.replace(param('xgrammar_tokenizer_info_path', ''), param('xgrammar_tokenizer_info_path', '/info.json')).replace(
        param('guided_decoding_backend', ''),
        param('guided_decoding_backend', 'outlines'),
      ),
      errors: [{ messageId: 'guidedDecodingFails', severity: 'error', data: { key: 'guided_decoding_backend', value: 'outlines', values: 'xgrammar' } }],
    },
    {
      name: 'guided decoding on with xgrammar misspelled',
      config: CPP.replace(param('xgrammar_tokenizer_info_path', ''), param('xgrammar_tokenizer_info_path', '/info.json')).replace(
        param('guided_decoding_backend', ''),
        param('guided_decoding_backend', 'xgramar'),
      ),
      errors: [
        { messageId: 'guidedDecodingFailsSuggest', severity: 'error', data: { key: 'guided_decoding_backend', value: 'xgramar', suggestion: 'xgrammar' } },
      ],
    },
    {
      name: 'enum values compared with their case: a warning naming the default the backend uses; the value in its case is a fix',
      config: CPP + param('batch_scheduler_policy', 'MAX_UTILIZATION') + param('decoding_mode', 'zzz'),
      errors: [
        {
          messageId: 'enumDefaultsSuggest',
          severity: 'warning',
          data: { key: 'batch_scheduler_policy', default: 'guaranteed_no_evict', suggestion: 'max_utilization' },
        },
        { messageId: 'enumDefaults', severity: 'warning', data: { key: 'decoding_mode', value: 'zzz', default: 'top_k_top_p' } },
      ],
      output: CPP + param('batch_scheduler_policy', 'max_utilization') + param('decoding_mode', 'zzz'),
    },
    {
      name: "decoding_mode's default with more than one beam is beam search",
      config: CPP + param('max_beam_width', '4') + param('decoding_mode', 'beam'),
      errors: [
        {
          messageId: 'enumDefaultsSuggest',
          severity: 'warning',
          data: { key: 'decoding_mode', value: 'beam', default: 'beam_search', suggestion: 'beam_search' },
        },
      ],
    },
    {
      name: 'booleans outside the accepted spellings are the default; yes/no get a fix',
      config: CPP + param('enable_kv_cache_reuse', 'no') + param('normalize_log_probs', 'tRue') + param('cuda_graph_mode', 'maybe'),
      errors: [
        { messageId: 'boolDefaults', severity: 'warning', data: { key: 'enable_kv_cache_reuse', value: 'no', default: 'true' } },
        { messageId: 'boolDefaults', data: { key: 'normalize_log_probs', default: 'true' } },
        { messageId: 'boolDefaults', data: { key: 'cuda_graph_mode', default: 'false' } },
      ],
      output: CPP + param('enable_kv_cache_reuse', 'false') + param('normalize_log_probs', 'true') + param('cuda_graph_mode', 'maybe'),
    },
    {
      name: "numbers: partial reads, text, negatives of unsigned keys, and the executor's ranges",
      config:
        CPP +
        param('max_beam_width', '2.5') +
        param('stats_check_period_ms', 'often') +
        param('kv_cache_host_memory_bytes', '-1') +
        param('kv_cache_free_gpu_mem_fraction', '1.0') +
        param('sink_token_length', '0') +
        param('max_attention_window_size', '4096,0') +
        param('iter_stats_max_iterations', '-1'),
      errors: [
        { messageId: 'numberPartial', severity: 'warning', data: { key: 'max_beam_width', value: '2.5', read: '2', rest: '.5' } },
        { messageId: 'numberDefaults', severity: 'warning', data: { key: 'stats_check_period_ms', value: 'often', default: '100' } },
        { messageId: 'negativeWraps', severity: 'warning', data: { key: 'kv_cache_host_memory_bytes', wrapped: '18446744073709551615' } },
        { messageId: 'fractionOutOfRange', severity: 'error', data: { key: 'kv_cache_free_gpu_mem_fraction', value: 1, min: 0, max: 1 } },
        { messageId: 'notPositive', severity: 'error', data: { key: 'sink_token_length', value: 0, min: 0 } },
        { messageId: 'notPositive', severity: 'error', data: { key: 'max_attention_window_size', value: 0 } },
        { messageId: 'belowMinimum', severity: 'error', data: { key: 'iter_stats_max_iterations', value: -1, min: 0 } },
      ],
      output:
        CPP +
        param('max_beam_width', '2') +
        param('stats_check_period_ms', 'often') +
        param('kv_cache_host_memory_bytes', '-1') +
        param('kv_cache_free_gpu_mem_fraction', '1.0') +
        param('sink_token_length', '0') +
        param('max_attention_window_size', '4096,0') +
        param('iter_stats_max_iterations', '-1'),
    },
    {
      name: 'a number whose key has no default of its own (TensorRT-LLM leaves it unset)',
      config: CPP + param('sink_token_length', 'none') + param('max_tokens_in_paged_kv_cache', 'lots'),
      errors: [
        { messageId: 'numberDefaultsOwn', severity: 'warning', data: { key: 'sink_token_length', value: 'none' } },
        { messageId: 'numberDefaultsOwn', severity: 'warning', data: { key: 'max_tokens_in_paged_kv_cache', value: 'lots' } },
      ],
    },
    {
      name: 'GPU ids and participant ids that are not groups of ids',
      config: CPP + param('gpu_device_ids', '0 1') + param('participant_ids', '0;a'),
      errors: [
        { messageId: 'gpuDeviceIdsDefaults', severity: 'warning', data: { key: 'gpu_device_ids', value: '0 1' } },
        { messageId: 'participantIdsDefaults', severity: 'warning', data: { key: 'participant_ids', value: '0;a' } },
      ],
    },
    {
      name: 'lists and brace groups the backend cannot read',
      config:
        CPP +
        param('max_attention_window_size', 'wide') +
        param('decoding_mode', 'medusa') +
        param('medusa_choices', '[[0,0],[0,1]]') +
        param('eagle_choices', '{0,1},{2'),
      errors: [
        { messageId: 'intListDefaults', severity: 'warning', data: { key: 'max_attention_window_size', value: 'wide', default: 'max_sequence_length' } },
        { messageId: 'bracesNoGroupDefaults', severity: 'warning', data: { key: 'medusa_choices', value: '[[0,0],[0,1]]', default: 'mc_sim_7b_63' } },
        { messageId: 'bracesOutsideDefaults', severity: 'info', data: { key: 'eagle_choices', text: '"{2"', default: 'mc_sim_7b_63' } },
      ],
    },
    {
      name: 'a brace group of other than integers',
      config: CPP + param('medusa_choices', '{0, a}'),
      errors: [{ messageId: 'bracesNotIntsDefaults', severity: 'info', data: { key: 'medusa_choices', group: '{0, a}' } }],
    },
    {
      name: 'lookahead decoding without its sizes fails the load',
      config: LOOKAHEAD + param('lookahead_window_size', '4'),
      errors: [
        { messageId: 'lookaheadMissing', severity: 'error', data: { key: 'lookahead_ngram_size' } },
        { messageId: 'lookaheadMissing', severity: 'error', data: { key: 'lookahead_verification_set_size' } },
      ],
    },
    {
      name: 'lookahead decoding with a size that is not a number fails the load',
      config: LOOKAHEAD + param('lookahead_window_size', 'x') + param('lookahead_ngram_size', '3') + param('lookahead_verification_set_size', '2'),
      errors: [{ messageId: 'lookaheadNotNumber', severity: 'error', token: '"x"', data: { key: 'lookahead_window_size', value: 'x' } }],
    },
    {
      name: 'unknown and obsolete keys, with a did-you-mean',
      config: CPP + param('max_tokens_in_kv_cache', '8192') + param('worker_path', '/opt/worker') + param('zzz_unheard_of', '1'),
      errors: [
        { messageId: 'unknownKeySuggest', severity: 'warning', data: { key: 'max_tokens_in_kv_cache', suggestion: 'max_tokens_in_paged_kv_cache' } },
        { messageId: 'obsoleteKey', severity: 'warning', data: { key: 'worker_path' } },
        { messageId: 'unknownKey', severity: 'warning', data: { key: 'zzz_unheard_of' } },
      ],
    },
    {
      name: 'logits outputs of two types',
      config:
        CPP +
        'output [ { name: "context_logits" data_type: TYPE_FP32 dims: [ -1, -1 ] }, { name: "generation_logits" data_type: TYPE_FP16 dims: [ -1, -1, -1 ] } ]\n',
      errors: [
        {
          messageId: 'logitsMismatch',
          severity: 'warning',
          token: 'TYPE_FP16',
          data: { name: 'generation_logits', type: 'TYPE_FP16', other: 'context_logits', otherType: 'TYPE_FP32' },
        },
      ],
    },
    {
      name: 'logits outputs of a type the backend does not return',
      config: CPP + 'output [ { name: "generation_logits" data_type: TYPE_BF16 dims: [ -1, -1, -1 ] } ]\n',
      errors: [{ messageId: 'logitsType', severity: 'warning', token: 'TYPE_BF16', data: { name: 'generation_logits', type: 'TYPE_BF16' } }],
    },
    {
      name: 'a model directory with a TensorRT-LLM engine beside the config is checked the same',
      targets: ['tensorrt_llm'],
      files: { 'tensorrt_llm/config.pbtxt': CPP + param('batch_scheduler_policy', 'fcfs'), 'tensorrt_llm/1/.tmp': '' },
      errors: [{ messageId: 'enumDefaults', data: { key: 'batch_scheduler_policy', value: 'fcfs' } }],
    },
    // The Python runtime.
    {
      name: "a bad enum value fails the load with model.py's message",
      config: PY + param('decoding_mode', 'greedy'),
      errors: [{ messageId: 'enumFailsPython', severity: 'error', data: { key: 'decoding_mode', value: 'greedy' } }],
    },
    {
      name: 'a misspelled enum value fails the load, with a did-you-mean',
      config: PY + param('decoding_mode', 'top_kk'),
      errors: [{ messageId: 'enumFailsPythonSuggest', severity: 'error', data: { key: 'decoding_mode', value: 'top_kk', suggestion: 'top_k' } }],
    },
    {
      name: 'numbers are read whole, and a bad one fails the load',
      config: PY + param('max_beam_width', '2.5') + param('kv_cache_free_gpu_mem_fraction', ' 0.5 '),
      errors: [{ messageId: 'numberFails', severity: 'error', data: { key: 'max_beam_width', value: '2.5' } }],
    },
    {
      name: 'booleans other than 1/true/0/false are read as false; enable_trt_overlap true fails',
      config: PY + param('enable_kv_cache_reuse', 'yes') + param('enable_trt_overlap', 'True'),
      errors: [
        { messageId: 'boolReadFalse', severity: 'warning', data: { key: 'enable_kv_cache_reuse', value: 'yes' } },
        { messageId: 'overlapFails', severity: 'error' },
      ],
    },
    {
      name: 'gpu_device_ids takes one comma list',
      config: PY + param('gpu_device_ids', '0,1;2,3'),
      errors: [{ messageId: 'gpuListFails', severity: 'error', data: { key: 'gpu_device_ids', value: '0,1;2,3' } }],
    },
    {
      name: 'a list of integers that is not one fails the load',
      config: PY + param('max_attention_window_size', 'wide'),
      errors: [{ messageId: 'intListFails', severity: 'error', data: { key: 'max_attention_window_size', value: 'wide' } }],
    },
    {
      name: 'brace groups the Python runtime cannot read fail the load',
      config: PY + param('medusa_choices', '[[0]]') + param('eagle_choices', '{0,1},{2'),
      errors: [
        { messageId: 'bracesNoGroupFails', severity: 'error', data: { key: 'medusa_choices' } },
        { messageId: 'bracesOutsideFails', severity: 'error', data: { key: 'eagle_choices', text: '"{2"' } },
      ],
    },
    {
      name: 'a brace group of other than integers fails the Python runtime',
      config: PY + param('medusa_choices', '{0, a}'),
      errors: [{ messageId: 'bracesNotIntsFails', severity: 'error', data: { key: 'medusa_choices', group: '{0, a}' } }],
    },
    {
      name: 'keys the Python runtime does not read',
      config: PY + param('max_tokens_in_kv_cache', '8192') + param('zzz_unheard_of', '1'),
      errors: [
        { messageId: 'unknownKeyPythonSuggest', severity: 'warning', data: { key: 'max_tokens_in_kv_cache', suggestion: 'max_tokens_in_paged_kv_cache' } },
        { messageId: 'unknownKeyPython', severity: 'warning', data: { key: 'zzz_unheard_of' } },
      ],
    },
  ],
});

describe('tensorrtllm-parameters: the defaults the backend falls back on', () => {
  it('are values (as the config writes them) for every key whose kind reports one in {{default}}', () => {
    // numbers may have none of their own (numberDefaultsOwn); the GPU groups name theirs in the template.
    const missing = Object.entries(TRTLLM_PARAMETERS)
      .filter(
        ([key, p]) =>
          ['enum', 'bool', 'int-list', 'brace-groups'].includes(p.type) && !p.badFails && p.default === undefined && key !== 'guided_decoding_backend',
      )
      .map(([key]) => key);
    expect(missing).toEqual([]);
  });
});

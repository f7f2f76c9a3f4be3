// tensorrtllm-parameters on the shapes of the TensorRT-LLM templates (tensorrtllm_backend
// all_models/inflight_batcher_llm/tensorrt_llm/config.pbtxt, triton_cli templates/trt_llm), filled.
import { describe, expect, it } from 'vitest';
import { lintConfigData as lintConfig, lintFilesData } from './rule-data.js';

const ID = 'tensorrtllm-parameters';
const param = (key: string, value: string) => `parameters { key: "${key}" value: { string_value: "${value}" } }\n`;
const REQUIRED = param('gpt_model_type', 'inflight_fused_batching') + param('gpt_model_path', '/engines/llama') + param('tokenizer_dir', '') + param('xgrammar_tokenizer_info_path', '') + param('guided_decoding_backend', '');
const CPP = `backend: "tensorrtllm"\nmax_batch_size: 64\nmodel_transaction_policy { decoupled: true }\n${REQUIRED}`;
const PY = `backend: "python"\nmax_batch_size: 64\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llama')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}`;

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['the required keys, filled', CPP],
      ['every accepted boolean spelling', CPP + ['True', 'true', 'TRUE', '1', 'False', 'false', 'FALSE', '0'].map((v, i) => param(['enable_kv_cache_reuse', 'normalize_log_probs', 'enable_chunked_context', 'kv_cache_onboard_blocks', 'multi_block_mode', 'cuda_graph_mode', 'exclude_input_in_output', 'enable_context_fmha_fp32_acc'][i]!, v)).join('')],
      ['enums and numbers in range', CPP + param('batch_scheduler_policy', 'max_utilization') + param('decoding_mode', 'top_k_top_p') + param('kv_cache_free_gpu_mem_fraction', '0.9') + param('max_beam_width', '1') + param('max_attention_window_size', '4096,4096') + param('gpu_device_ids', '0,1;2,3') + param('medusa_choices', '{0, 0, 0}, {0, 1}')],
      ['an encoder-only model', `backend: "tensorrtllm"\n${param('gpt_model_type', 'v1')}${param('encoder_model_path', '/engines/t5-enc')}${param('tokenizer_dir', '')}${param('xgrammar_tokenizer_info_path', '')}${param('guided_decoding_backend', '')}`],
      ['lookahead decoding with its three sizes', CPP + param('decoding_mode', 'lookahead') + param('lookahead_window_size', '4') + param('lookahead_ngram_size', '3') + param('lookahead_verification_set_size', '2')],
      ['lookahead keys ignored under another mode', CPP + param('lookahead_window_size', 'x')],
      ['placeholders: unfilled-placeholder reports them', CPP + param('max_beam_width', '${max_beam_width}')],
      ['keys the templates carry for other readers', CPP + param('FORCE_CPU_ONLY_INPUT_TENSORS', 'no')],
      ['the Python runtime: case-insensitive enums, auto, empty values unset', PY + param('decoding_mode', 'auto') + param('gpt_model_type', 'Inflight_Fused_Batching').replace('gpt_model_type', 'gpt_model_type') + param('max_beam_width', '')],
      ['not a TensorRT-LLM model', 'backend: "python"\n' + param('batch_scheduler_policy', 'whatever')],
      ['logits in FP32 on both outputs', CPP + 'output [ { name: "context_logits" data_type: TYPE_FP32 dims: [ -1, -1 ] }, { name: "generation_logits" data_type: TYPE_FP32 dims: [ -1, -1, -1 ] } ]\n'],
    ])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid: the C++ backend', () => {
    it('required keys missing, and no engine: errors with the backend\'s messages', async () => {
      const found = await lintConfig(ID, `backend: "tensorrtllm"\nmax_batch_size: 8\n${param('gpt_model_type', 'v1')}`);
      expect(found.map((f) => [f.messageId, f.data?.key])).toEqual([
        ['noEnginePath', undefined],
        ['missingRequired', 'guided_decoding_backend'],
        ['missingRequired', 'tokenizer_dir'],
        ['missingRequired', 'xgrammar_tokenizer_info_path'],
      ]);
      expect(found.every((f) => f.severity === 'error')).toBe(true);
      expect(found[1]!.message).toContain('"unexpected error when creating modelInstanceState: Cannot find parameter with name: guided_decoding_backend"');
    });

    it("per release (the rule's release option): v0.9.0, which the Llava tutorial pins, requires no guided-decoding key and reads none; v0.19.0 requires all three", async () => {
      const settings = (release: string) => JSON.stringify({ rules: { [ID]: ['error', { release }] } });
      const old = `backend: "tensorrtllm"\nmax_batch_size: 8\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llava')}`;
      expect(await lintFilesData(ID, { 'tritonc.config.json': settings('0.9.0'), 'm/config.pbtxt': old })).toEqual([]);
      const newer = await lintFilesData(ID, { 'tritonc.config.json': settings('0.19.0'), 'm/config.pbtxt': old });
      expect(newer.map((f) => [f.messageId, f.data?.key])).toEqual([['missingRequired', 'guided_decoding_backend'], ['missingRequired', 'tokenizer_dir'], ['missingRequired', 'xgrammar_tokenizer_info_path']]);
      // A key a later release added, in a config for v0.9.0: not read there.
      const later = await lintFilesData(ID, { 'tritonc.config.json': settings('0.9.0'), 'm/config.pbtxt': old + param('tokenizer_dir', '/tok') + param('cuda_graph_mode', 'true') });
      expect(later.map((f) => [f.messageId, f.severity, f.data?.key, f.data?.since])).toEqual([['notInRelease', 'warning', 'tokenizer_dir', '0.19.0'], ['notInRelease', 'warning', 'cuda_graph_mode', '0.15.0']]);
    });

    it('gpt_model_type outside its set fails the load; a close value gets a fix', async () => {
      const [f, ...rest] = await lintConfig(ID, CPP.replace('"inflight_fused_batching"', '"inflight_fused_batchng"'));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', messageId: 'enumFails', token: '"inflight_fused_batchng"' });
      expect(f!.message).toContain('("Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching."); did you mean "inflight_fused_batching"?');
      expect(f!.fix).toBe('"inflight_fused_batching"');
    });

    it('enum values compared with their case: a warning naming the default the backend uses', async () => {
      const found = await lintConfig(ID, CPP + param('batch_scheduler_policy', 'MAX_UTILIZATION') + param('decoding_mode', 'topk'));
      expect(found.map((f) => [f.severity, f.messageId, f.data?.default])).toEqual([
        ['warning', 'enumDefaults', 'guaranteed_no_evict'],
        ['warning', 'enumDefaults', 'top_k_top_p (beam_search when max_beam_width > 1)'],
      ]);
      expect(found[0]!.fix).toBe('"max_utilization"');
    });

    it('booleans outside the accepted spellings are the default; yes/no get a fix', async () => {
      const found = await lintConfig(ID, CPP + param('enable_kv_cache_reuse', 'no') + param('normalize_log_probs', 'tRue') + param('cuda_graph_mode', 'maybe'));
      expect(found.map((f) => [f.data?.key, f.data?.default, f.fix])).toEqual([
        ['enable_kv_cache_reuse', 'true', '"false"'],
        ['normalize_log_probs', 'true', '"true"'],
        ['cuda_graph_mode', 'false', undefined],
      ]);
      expect(found[0]!.message).toContain('("Cannot convert no to a boolean.")');
    });

    it('numbers: partial reads, text, negatives of unsigned keys, and the executor\'s ranges', async () => {
      const found = await lintConfig(ID, CPP + param('max_beam_width', '2.5') + param('stats_check_period_ms', 'often') + param('kv_cache_host_memory_bytes', '-1') + param('kv_cache_free_gpu_mem_fraction', '1.0') + param('sink_token_length', '0') + param('max_attention_window_size', '4096,0'));
      expect(found.map((f) => [f.severity, f.messageId, f.data?.key])).toEqual([
        ['warning', 'numberPartial', 'max_beam_width'],
        ['warning', 'numberDefaults', 'stats_check_period_ms'],
        ['warning', 'negativeWraps', 'kv_cache_host_memory_bytes'],
        ['error', 'outOfRange', 'kv_cache_free_gpu_mem_fraction'],
        ['error', 'outOfRange', 'sink_token_length'],
        ['error', 'outOfRange', 'max_attention_window_size'],
      ]);
      expect(found[0]!.fix).toBe('"2"');
      expect(found[2]!.data?.wrapped).toBe('18446744073709551615');
    });

    it('lists and brace groups the backend cannot read', async () => {
      const found = await lintConfig(ID, CPP + param('gpu_device_ids', '0 1') + param('decoding_mode', 'medusa') + param('medusa_choices', '[[0,0],[0,1]]') + param('eagle_choices', '{0,1},{2'));
      expect(found.map((f) => [f.severity, f.data?.key])).toEqual([
        ['warning', 'gpu_device_ids'],
        ['warning', 'medusa_choices'],
        ['info', 'eagle_choices'],
      ]);
    });

    it('lookahead decoding without its sizes fails the load', async () => {
      const found = await lintConfig(ID, CPP + param('decoding_mode', 'lookahead') + param('lookahead_window_size', '4'));
      expect(found.map((f) => [f.messageId, f.data?.key])).toEqual([
        ['lookaheadMissing', 'lookahead_ngram_size'],
        ['lookaheadMissing', 'lookahead_verification_set_size'],
      ]);
    });

    it('unknown and obsolete keys, with a did-you-mean', async () => {
      const found = await lintConfig(ID, CPP + param('max_tokens_in_kv_cache', '8192') + param('worker_path', '/opt/worker'));
      expect(found.map((f) => [f.messageId, f.data?.key])).toEqual([
        ['unknownKey', 'max_tokens_in_kv_cache'],
        ['obsoleteKey', 'worker_path'],
      ]);
      expect(found[0]!.message).toContain('did you mean "max_tokens_in_paged_kv_cache"?');
    });

    it('logits outputs of a type the backend does not return, or of two types', async () => {
      const found = await lintConfig(ID, CPP + 'output [ { name: "context_logits" data_type: TYPE_FP32 dims: [ -1, -1 ] }, { name: "generation_logits" data_type: TYPE_FP16 dims: [ -1, -1, -1 ] } ]\n');
      expect(found.map((f) => f.messageId)).toEqual(['logitsMismatch']);
      const bf16 = await lintConfig(ID, CPP + 'output [ { name: "generation_logits" data_type: TYPE_BF16 dims: [ -1, -1, -1 ] } ]\n');
      expect(bf16.map((f) => [f.messageId, f.token])).toEqual([['logitsType', 'TYPE_BF16']]);
    });
  });

  describe('invalid: the Python runtime', () => {
    it('a bad enum value fails the load with model.py\'s message', async () => {
      const [f] = await lintConfig(ID, PY + param('decoding_mode', 'greedy'));
      expect(f).toMatchObject({ severity: 'error', messageId: 'enumFails' });
      expect(f!.message).toContain(`("decoding_mode value of 'greedy' is not supported.")`);
    });
    it('numbers are read whole, and a bad one fails the load', async () => {
      const found = await lintConfig(ID, PY + param('max_beam_width', '2.5') + param('kv_cache_free_gpu_mem_fraction', ' 0.5 '));
      expect(found.map((f) => [f.severity, f.messageId, f.data?.key])).toEqual([['error', 'numberFails', 'max_beam_width']]);
    });
    it('booleans other than 1/true/0/false are read as false; enable_trt_overlap true fails', async () => {
      const found = await lintConfig(ID, PY + param('enable_kv_cache_reuse', 'yes') + param('enable_trt_overlap', 'True'));
      expect(found.map((f) => [f.severity, f.messageId])).toEqual([
        ['warning', 'boolReadFalse'],
        ['error', 'overlapFails'],
      ]);
    });
    it('gpu_device_ids takes one comma list', async () => {
      const [f] = await lintConfig(ID, PY + param('gpu_device_ids', '0,1;2,3'));
      expect(f).toMatchObject({ severity: 'error', messageId: 'listFails' });
    });
  });

  it('a model directory with a TensorRT-LLM engine beside the config is checked the same', async () => {
    const found = await lintFilesData(ID, { 'tensorrt_llm/config.pbtxt': CPP + param('batch_scheduler_policy', 'fcfs'), 'tensorrt_llm/1/.tmp': '' }, ['tensorrt_llm']);
    expect(found.map((f) => f.messageId)).toEqual(['enumDefaults']);
  });
});

// unfilled-placeholder on the shapes of the TensorRT-LLM ensemble templates (tensorrt_llm,
// tensorrt_llm_bls, preprocessing, postprocessing of all_models/inflight_batcher_llm and triton_cli).
import { describe, expect, it } from 'vitest';
import { lintConfigData } from './rule-data.js';

const ID = 'unfilled-placeholder';
const param = (key: string, value: string) => `parameters { key: "${key}" value: { string_value: "${value}" } }\n`;
const TRTLLM = `backend: "tensorrtllm"\nmax_batch_size: 64\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llama')}`;

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['a filled config', TRTLLM + param('max_beam_width', '1')],
      ['a dollar that is no placeholder', TRTLLM + param('executor_worker_path', '/opt/$HOME/worker') + 'name: "cost_$5"\n'],
      ['an empty value', TRTLLM + param('tokenizer_dir', '')],
    ])('%s', async (_, config) => {
      expect(await lintConfigData(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('the backend itself: Triton finds no backend of that name', async () => {
      const [f] = await lintConfigData(ID, 'backend: "${triton_backend}"\nmax_batch_size: 8\n');
      expect(f).toMatchObject({ severity: 'error', messageId: 'backend', token: '"${triton_backend}"' });
    });

    it('tensorrtllm: the keys it fails on, the ones it defaults, and guided decoding turned off', async () => {
      const found = await lintConfigData(
        ID,
        `backend: "tensorrtllm"\n${param('gpt_model_type', '${batching_strategy}')}${param('gpt_model_path', '${engine_dir}')}${param('max_beam_width', '${max_beam_width}')}${param('guided_decoding_backend', '${guided_decoding_backend}')}${param('xgrammar_tokenizer_info_path', '${xgrammar_tokenizer_info_path}')}${param('lora_prefetch_dir', '${lora_prefetch_dir}')}`,
      );
      expect(found.map((f) => [f.severity, f.messageId, f.data?.key])).toEqual([
        ['error', 'fails', 'gpt_model_type'],
        ['error', 'fails', 'gpt_model_path'],
        ['warning', 'defaults', 'max_beam_width'],
        ['info', 'noEffect', 'guided_decoding_backend'],
        ['info', 'noEffect', 'xgrammar_tokenizer_info_path'],
        ['warning', 'defaults', 'lora_prefetch_dir'],
      ]);
      expect(found[1]!.message).toContain('("Both encoder and decoder model paths are empty")');
      expect(found[2]!.message).toContain('logs "max_beam_width is not specified" and uses 1');
      expect(found[0]!.message).toContain('tritonc fill CONFIG "batching_strategy:<value>"');
    });

    it('an unfilled decoder path with an encoder engine is a warning, not a failure', async () => {
      const found = await lintConfigData(ID, `backend: "tensorrtllm"\n${param('gpt_model_type', 'v1')}${param('encoder_model_path', '/engines/enc')}${param('gpt_model_path', '${engine_dir}')}`);
      expect(found.map((f) => [f.severity, f.messageId])).toEqual([['warning', 'defaults']]);
    });

    it('the Python runtime of TensorRT-LLM treats a placeholder as unset', async () => {
      const [f] = await lintConfigData(ID, `backend: "python"\n${param('gpt_model_type', 'v1')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}${param('kv_cache_free_gpu_mem_fraction', '${kv_cache_free_gpu_mem_fraction}')}`);
      expect(f).toMatchObject({ severity: 'warning', messageId: 'defaults' });
      expect(f!.message).toContain('Python runtime of TensorRT-LLM treats it as unset, without a word, and uses 0.9');
    });

    it('preprocessing hands tokenizer_dir to Hugging Face; BLS treats its placeholders as unset', async () => {
      const [pre] = await lintConfigData(ID, `backend: "python"\n${param('tokenizer_dir', '${tokenizer_dir}')}${param('add_special_tokens', 'true')}`, 'preprocessing');
      expect(pre).toMatchObject({ severity: 'error', messageId: 'fails' });
      const [bls] = await lintConfigData(ID, `backend: "python"\n${param('tensorrt_llm_model_name', '${tensorrt_llm_model_name}')}${param('accumulate_tokens', 'false')}`, 'tensorrt_llm_bls');
      expect(bls).toMatchObject({ severity: 'warning', messageId: 'defaults' });
      expect(bls!.message).toContain('uses "tensorrt_llm"');
    });

    it('anywhere else: the literal text is the value', async () => {
      const [f] = await lintConfigData(ID, 'backend: "onnxruntime"\ndefault_model_filename: "${model_file}"\n');
      expect(f).toMatchObject({ severity: 'warning', messageId: 'literal', token: '"${model_file}"' });
    });
  });
});

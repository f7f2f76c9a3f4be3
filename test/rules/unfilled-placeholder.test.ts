// unfilled-placeholder on the shapes of the TensorRT-LLM ensemble templates (tensorrt_llm,
// tensorrt_llm_bls, preprocessing, postprocessing of all_models/inflight_batcher_llm and triton_cli).
import { testRule } from '../support/rule-tester.js';

const param = (key: string, value: string) => `parameters { key: "${key}" value: { string_value: "${value}" } }\n`;
const TRTLLM = `backend: "tensorrtllm"\nmax_batch_size: 64\n${param('gpt_model_type', 'inflight_fused_batching')}${param('gpt_model_path', '/engines/llama')}`;
const P = (key: string, name = key) => ({ key, placeholder: `\${${name}}`, name });

testRule('unfilled-placeholder', {
  valid: [
    { name: 'a filled config', config: TRTLLM + param('max_beam_width', '1') },
    { name: 'a dollar that is no placeholder', config: TRTLLM + param('executor_worker_path', '/opt/$HOME/worker') + 'name: "cost_$5"\n' },
    { name: 'an empty value', config: TRTLLM + param('tokenizer_dir', '') },
    {
      name: 'guided decoding keys with the info path filled',
      config: TRTLLM + param('guided_decoding_backend', 'xgrammar') + param('xgrammar_tokenizer_info_path', '/info.json'),
    },
  ],
  invalid: [
    {
      name: 'the backend itself: Triton finds no backend of that name',
      config: 'backend: "${triton_backend}"\nmax_batch_size: 8\n',
      errors: [
        {
          messageId: 'backend',
          severity: 'error',
          token: '"${triton_backend}"',
          data: { field: 'backend', value: '${triton_backend}', name: 'triton_backend' },
        },
      ],
    },
    {
      name: 'tensorrtllm: the keys it fails on, the ones it defaults, and guided decoding turned off',
      config: `backend: "tensorrtllm"\n${param('gpt_model_type', '${batching_strategy}')}${param('gpt_model_path', '${engine_dir}')}${param('max_beam_width', '${max_beam_width}')}${param('guided_decoding_backend', '${guided_decoding_backend}')}${param('xgrammar_tokenizer_info_path', '${xgrammar_tokenizer_info_path}')}${param('lora_prefetch_dir', '${lora_prefetch_dir}')}`,
      errors: [
        { messageId: 'failsModelType', severity: 'error', line: 2, data: P('gpt_model_type', 'batching_strategy') },
        { messageId: 'failsEnginePaths', severity: 'error', line: 3, data: P('gpt_model_path', 'engine_dir') },
        { messageId: 'defaults', severity: 'warning', data: { ...P('max_beam_width'), default: '1' } },
        { messageId: 'guidedDecodingOff', severity: 'info', data: P('guided_decoding_backend') },
        { messageId: 'guidedDecodingOff', severity: 'info', data: P('xgrammar_tokenizer_info_path') },
        { messageId: 'defaultsOwn', severity: 'warning', data: P('lora_prefetch_dir') },
      ],
    },
    {
      name: 'tensorrtllm: an unfilled decoder path with an encoder engine is a warning, not a failure (no decoder engine of its own)',
      config: `backend: "tensorrtllm"\n${param('gpt_model_type', 'v1')}${param('encoder_model_path', '/engines/enc')}${param('gpt_model_path', '${engine_dir}')}`,
      errors: [{ messageId: 'defaultsOwn', severity: 'warning', data: P('gpt_model_path', 'engine_dir') }],
    },
    {
      name: "tensorrtllm: decoding_mode's default is beam search with more than one beam",
      config: TRTLLM + param('max_beam_width', '2') + param('decoding_mode', '${decoding_mode}'),
      errors: [{ messageId: 'defaults', severity: 'warning', data: { ...P('decoding_mode'), default: 'beam_search' } }],
    },
    {
      name: 'tensorrtllm: tokenizer_dir is required and unused',
      config: TRTLLM + param('tokenizer_dir', '${tokenizer_dir}'),
      errors: [{ messageId: 'tokenizerDirUnused', severity: 'info', token: '"${tokenizer_dir}"', data: P('tokenizer_dir') }],
    },
    {
      name: 'tensorrtllm: a lookahead size unfilled with lookahead decoding fails the load',
      config: TRTLLM + param('decoding_mode', 'lookahead') + param('lookahead_window_size', '${lookahead_window_size}'),
      errors: [{ messageId: 'failsLookahead', severity: 'error', data: P('lookahead_window_size') }],
    },
    {
      name: 'tensorrtllm: a string without default, or a key it does not know, takes the literal text',
      config: TRTLLM + param('my_key', '${my_key}'),
      errors: [{ messageId: 'literalValue', severity: 'warning', data: P('my_key') }],
    },
    {
      name: 'the Python runtime of TensorRT-LLM treats a placeholder as unset',
      config: `backend: "python"\n${param('gpt_model_type', 'v1')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}${param('kv_cache_free_gpu_mem_fraction', '${kv_cache_free_gpu_mem_fraction}')}`,
      errors: [{ messageId: 'defaultsPythonRuntime', severity: 'warning', data: { ...P('kv_cache_free_gpu_mem_fraction'), default: '0.9' } }],
    },
    {
      name: 'the Python runtime: a key without a default of its own',
      config: `backend: "python"\n${param('gpt_model_type', 'v1')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}${param('sink_token_length', '${sink_token_length}')}`,
      errors: [{ messageId: 'defaultsPythonRuntimeOwn', severity: 'warning', data: P('sink_token_length') }],
    },
    {
      // tensorrt_llm/1/model.py initialize: trtllm.Executor(get_parameter(model_config, "gpt_model_path"), ...)
      // with None; tokenizer_dir is read only with guided decoding (get_guided_decoding_config).
      name: 'the Python runtime: an unfilled engine directory fails initialize as the tokenizer does elsewhere; tokenizer_dir unread without guided decoding',
      config: `backend: "python"
${param('gpt_model_type', 'inflight_fused_batching')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}${param('gpt_model_path', '${engine_dir}')}${param('tokenizer_dir', '${tokenizer_dir}')}`,
      errors: [
        { messageId: 'failsEnginePathPythonRuntime', severity: 'error', line: 4, data: P('gpt_model_path', 'engine_dir') },
        { messageId: 'unusedPythonRuntime', severity: 'info', line: 5, data: P('tokenizer_dir') },
      ],
    },
    {
      name: 'the Python runtime with guided decoding: an unfilled tokenizer_dir fails initialize',
      config: `backend: "python"
${param('gpt_model_type', 'inflight_fused_batching')}${param('batch_scheduler_policy', 'guaranteed_no_evict')}${param('gpt_model_path', '/engines/llama')}${param('guided_decoding_backend', 'xgrammar')}${param('tokenizer_dir', '${tokenizer_dir}')}`,
      errors: [{ messageId: 'failsTokenizerGuided', severity: 'error', data: P('tokenizer_dir') }],
    },
    {
      // preprocessing/1/model.py initialize (v0.17.0), on the template's own placeholders.
      name: 'preprocessing as the template ships it: the tokenizer fails, the engine directory is unread, the rest defaults',
      targets: ['preprocessing'],
      files: {
        'preprocessing/config.pbtxt': `backend: "python"
${param('tokenizer_dir', '${tokenizer_dir}')}${param('add_special_tokens', '${add_special_tokens}')}${param('multimodal_model_path', '${multimodal_model_path}')}${param('gpt_model_path', '${engine_dir}')}${param('max_num_images', '${max_num_images}')}`,
      },
      errors: [
        { messageId: 'failsTokenizer', severity: 'error', line: 2 },
        { messageId: 'defaultsTokens', severity: 'warning', line: 3, data: { ...P('add_special_tokens'), model: 'preprocessing' } },
        { messageId: 'unsetMultimodal', severity: 'info', line: 4, data: P('multimodal_model_path') },
        { messageId: 'unusedPreprocessing', severity: 'info', line: 5, data: P('gpt_model_path', 'engine_dir') },
        { messageId: 'defaultsMaxImages', severity: 'warning', line: 6, data: P('max_num_images') },
      ],
    },
    {
      name: 'preprocessing of a multimodal model: an unfilled engine directory fails the load as the tokenizer does',
      targets: ['preprocessing'],
      files: {
        'preprocessing/config.pbtxt': `backend: "python"
${param('tokenizer_dir', '/models/llava')}${param('multimodal_model_path', '/engines/vision')}${param('gpt_model_path', '${engine_dir}')}`,
      },
      errors: [{ messageId: 'failsPreprocessingEngine', severity: 'error', data: { ...P('gpt_model_path', 'engine_dir'), value: '${engine_dir}' } }],
    },
    {
      name: 'preprocessing: a multimodal path of another placeholder name is a directory it opens',
      targets: ['preprocessing'],
      files: {
        'preprocessing/config.pbtxt': `backend: "python"
${param('tokenizer_dir', '/models/llava')}${param('multimodal_model_path', '${visual_engine_dir}')}`,
      },
      errors: [
        { messageId: 'failsMultimodalPath', severity: 'error', data: { ...P('multimodal_model_path', 'visual_engine_dir'), value: '${visual_engine_dir}' } },
      ],
    },
    {
      name: 'postprocessing: skip_special_tokens unfilled is true',
      targets: ['postprocessing'],
      files: {
        'postprocessing/config.pbtxt': `backend: "python"
${param('tokenizer_dir', '/models/llama')}${param('skip_special_tokens', '${skip_special_tokens}')}`,
      },
      errors: [{ messageId: 'defaultsTokens', severity: 'warning', data: { ...P('skip_special_tokens'), model: 'postprocessing' } }],
    },
    {
      name: 'preprocessing hands tokenizer_dir to Hugging Face',
      targets: ['preprocessing'],
      files: { 'preprocessing/config.pbtxt': `backend: "python"\n${param('tokenizer_dir', '${tokenizer_dir}')}${param('add_special_tokens', 'true')}` },
      errors: [{ messageId: 'failsTokenizer', severity: 'error', data: { ...P('tokenizer_dir'), value: '${tokenizer_dir}' } }],
    },
    {
      name: 'BLS treats its placeholders as unset',
      targets: ['tensorrt_llm_bls'],
      files: {
        'tensorrt_llm_bls/config.pbtxt': `backend: "python"\n${param('tensorrt_llm_model_name', '${tensorrt_llm_model_name}')}${param('accumulate_tokens', 'false')}${param('bls_instance_count', '${bls_instance_count}')}`,
      },
      errors: [
        { messageId: 'defaultsBls', severity: 'warning', data: { ...P('tensorrt_llm_model_name'), default: '"tensorrt_llm"' } },
        { messageId: 'defaultsBlsOwn', severity: 'warning', line: 4, data: P('bls_instance_count') },
      ],
    },
    {
      name: 'anywhere else: the literal text is the value',
      config: 'backend: "onnxruntime"\ndefault_model_filename: "${model_file}"\n',
      errors: [
        {
          messageId: 'literal',
          severity: 'warning',
          token: '"${model_file}"',
          data: { field: 'default_model_filename', placeholder: '${model_file}', value: '${model_file}', name: 'model_file' },
        },
      ],
    },
    {
      name: 'a parameter of another backend: that backend reads the literal text',
      config: `backend: "onnxruntime"\n${param('my_key', '${my_key}')}`,
      errors: [{ messageId: 'literalParameter', severity: 'warning', data: { ...P('my_key'), backend: 'onnxruntime', value: '${my_key}' } }],
    },
    {
      name: "a parameter of a model whose backend is unfilled too: the model's backend reads it",
      config: `backend: "\${triton_backend}"\n${param('tokenizer_dir', '${tokenizer_dir}')}`,
      errors: [
        { messageId: 'backend', data: { name: 'triton_backend' } },
        { messageId: 'literalParameterUnknownBackend', severity: 'warning', data: { ...P('tokenizer_dir'), value: '${tokenizer_dir}' } },
      ],
    },
  ],
});

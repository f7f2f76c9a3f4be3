// vllm-model on the shapes of real vLLM repositories: vllm_backend samples/model_repository/vllm_model,
// the tutorials' Llama2 and speculative-decoding models, the OpenAI frontend's LoRA test
// (server python/openai/tests/test_lora.py), each with its model.json.
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const SAMPLE = 'backend: "vllm"\ninstance_group [ { count: 1 kind: KIND_MODEL } ]\n';
const SAMPLE_JSON = '{"model":"facebook/opt-125m","gpu_memory_utilization": 0.1,"enforce_eager": true}\n';
const repo = (config: string, modelJson?: string, extra: Record<string, string> = {}) => ({
  targets: ['vllm_model'],
  files: {
    'vllm_model/config.pbtxt': config,
    ...(modelJson === undefined ? { 'vllm_model/1/.keep': '' } : { 'vllm_model/1/model.json': modelJson }),
    ...extra,
  },
});
const JSON_FILE = 'vllm_model/1/model.json';
const version = (v: string) => ({ rules: { 'vllm-model': ['error', { version: v }] } });
const NO_AUTO_COMPLETE = { server: { disableAutoCompleteConfig: true } };

testRule('vllm-model', {
  valid: [
    { name: 'the vllm_backend sample', ...repo(SAMPLE, SAMPLE_JSON) },
    { name: 'the Llama2 tutorial', ...repo(SAMPLE, '{"model":"meta-llama/Llama-2-7b-chat-hf","trust_remote_code":true,"gpu_memory_utilization":0.9}') },
    {
      name: 'LoRA with its multi_lora.json (test_lora.py), no instance_group on one GPU',
      ...repo('backend: "vllm"\n', '{"model":"x","enable_lora": true,"max_lora_rank": 32}', { 'vllm_model/1/multi_lora.json': '{"doll": "/loras/doll"}' }),
    },
    { name: 'tensor parallel on KIND_MODEL', ...repo(SAMPLE, '{"model":"x","tensor_parallel_size": 2}') },
    { name: 'decoupled written out, max_batch_size 0', ...repo(`${SAMPLE}max_batch_size: 0\nmodel_transaction_policy { decoupled: true }\n`, SAMPLE_JSON) },
    {
      name: 'not a vLLM model',
      targets: ['vllm_model'],
      files: { 'vllm_model/config.pbtxt': 'backend: "python"\nmax_batch_size: 8\n', 'vllm_model/1/model.py': '' },
    },
    {
      name: 'a key an older release had, with that release set',
      ...repo(SAMPLE, '{"model":"x","disable_log_requests": true}'),
      settings: version('0.6.3.post1'),
    },
    // The vLLM the target's vllm image bundles (server docs/introduction/compatibility.md @ r26.08):
    // 25.08 bundles 0.9.2, which still has disable_log_requests; 25.09 bundles 0.10.1.1, which has not.
    {
      name: "a key Triton 25.08's vllm image (vLLM 0.9.2) has",
      ...repo(SAMPLE, '{"model":"x","disable_log_requests": true}'),
      settings: { triton: '25.08-vllm-python-py3' },
    },
  ],
  invalid: [
    {
      name: 'no model.json in the version directory',
      ...repo(SAMPLE),
      errors: [
        {
          messageId: 'noModelJson',
          severity: 'error',
          data: { version: '1', dir: `${MEMORY_ROOT}/vllm_model/1`, file: `${MEMORY_ROOT}/vllm_model/1/model.json` },
        },
      ],
    },
    {
      name: 'model.json that is not JSON: in the file, at the place',
      ...repo(SAMPLE, '{"model": x}'),
      errors: [{ messageId: 'badJson', file: JSON_FILE, line: 1, data: { line: 1, column: 11, found: '"x"' } }],
    },
    {
      name: 'a trailing comma in model.json, found where it stands',
      ...repo(SAMPLE, '{\n  "model": "x",\n  "enforce_eager": true,\n}\n'),
      errors: [{ messageId: 'badJson', file: JSON_FILE, line: 4, data: { line: 4, column: 1, found: '"}"' } }],
    },
    {
      name: 'model.json cut off: where the text ends',
      ...repo(SAMPLE, '{\n  "model": "x",\n  "enforce_eager": '),
      errors: [{ messageId: 'badJsonEnd', file: JSON_FILE, line: 3, data: { line: 3, column: 20 } }],
    },
    {
      name: 'model.json that is not an object',
      ...repo(SAMPLE, '["model"]'),
      errors: [{ messageId: 'notObject', file: JSON_FILE, data: { kind: 'an array' } }],
    },
    {
      name: 'keys no vLLM has are errors with a did-you-mean; keys later releases dropped are warnings',
      ...repo(
        SAMPLE,
        '{\n  "model": "facebook/opt-125m",\n  "max_model_length": 2048,\n  "speculative_model": "facebook/opt-125m",\n  "num_speculative_tokens": 5,\n  "zzz": 1\n}',
      ),
      errors: [
        {
          messageId: 'unknownArgSuggest',
          severity: 'error',
          file: JSON_FILE,
          token: '"max_model_length"',
          line: 3,
          data: { key: 'max_model_length', suggestion: 'max_model_len' },
        },
        { messageId: 'retiredArg', severity: 'warning', file: JSON_FILE, line: 4, data: { key: 'speculative_model', range: '0.4.3 to 0.8.1' } },
        { messageId: 'retiredArg', severity: 'warning', file: JSON_FILE, line: 5, data: { key: 'num_speculative_tokens' } },
        { messageId: 'unknownArg', severity: 'error', file: JSON_FILE, line: 6, data: { key: 'zzz' } },
      ],
    },
    {
      name: 'a key later releases dropped, close to a current one: no suggestion without a release',
      ...repo(SAMPLE, '{"model":"x","disable_log_requests": true}'),
      errors: [{ messageId: 'retiredArg', severity: 'warning', file: JSON_FILE, data: { key: 'disable_log_requests', range: '0.4.0.post1 to 0.10.0' } }],
    },
    {
      name: 'a retired key close to a current one',
      ...repo(SAMPLE, '{"model":"x","disable_log_request": true}'),
      settings: version('0.11.0'),
      errors: [
        {
          messageId: 'unknownArgInVersionSuggest',
          file: JSON_FILE,
          data: { key: 'disable_log_request', version: '0.11.0', suggestion: 'enable_log_requests' },
        },
      ],
    },
    {
      name: 'with the version option, keys are checked against that release',
      ...repo(SAMPLE, '{"model":"x","disable_log_requests": true,"enable_log_requests": true,"speculative_model": "y","num_speculative_tokens": 5,"zzz": 1}'),
      settings: version('0.11.0'),
      errors: [
        {
          messageId: 'unknownArgSinceVersionSuggest',
          severity: 'error',
          file: JSON_FILE,
          data: { key: 'disable_log_requests', version: '0.11.0', range: '0.4.0.post1 to 0.10.0', suggestion: 'enable_log_requests' },
        },
        { messageId: 'unknownArgSinceVersionSuggest', file: JSON_FILE, data: { key: 'speculative_model', suggestion: 'speculative_config' } },
        { messageId: 'unknownArgSinceVersion', file: JSON_FILE, data: { key: 'num_speculative_tokens' } },
        { messageId: 'unknownArgInVersion', severity: 'error', file: JSON_FILE, data: { key: 'zzz', version: '0.11.0' } },
      ],
    },
    {
      name: "the same key for Triton 25.09's vllm image (vLLM 0.10.1.1): refused, the version named",
      ...repo(SAMPLE, '{"model":"x","disable_log_requests": true}'),
      settings: { triton: 'nvcr.io/nvidia/tritonserver:25.09-vllm-python-py3' },
      errors: [
        {
          messageId: 'unknownArgSinceVersionSuggest',
          severity: 'error',
          file: JSON_FILE,
          data: { key: 'disable_log_requests', version: '0.10.1.1', range: '0.4.0.post1 to 0.10.0', suggestion: 'enable_log_requests' },
        },
      ],
    },
    {
      name: "a key no list of ours has, for Triton 24.10's vllm image (vLLM 0.5.5)",
      ...repo(SAMPLE, '{"model":"x","zzz": 1}'),
      settings: { triton: '24.10' },
      errors: [{ messageId: 'unknownArgInVersion', file: JSON_FILE, data: { key: 'zzz', version: '0.5.5' } }],
    },
    {
      name: 'values of the wrong JSON type and outside a Literal set',
      ...repo(SAMPLE, '{"model":"x","enforce_eager":"false","tensor_parallel_size":"1","dtype":"fp16","kv_cache_dtype":"fp9"}'),
      errors: [
        {
          messageId: 'argKind',
          severity: 'warning',
          file: JSON_FILE,
          data: { key: 'enforce_eager', kind: 'a string "false"', expected: 'a boolean', example: 'false' },
        },
        { messageId: 'argKind', file: JSON_FILE, data: { key: 'tensor_parallel_size', example: '1' } },
        { messageId: 'argValue', file: JSON_FILE, data: { key: 'dtype', value: '"fp16"' } },
        { messageId: 'argValueSuggest', file: JSON_FILE, data: { key: 'kv_cache_dtype', value: '"fp9"', suggestion: 'fp8' } },
      ],
    },
    {
      name: "auto-complete refuses max_batch_size > 0, with python_backend's message",
      ...repo(`${SAMPLE}max_batch_size: 8\n`, SAMPLE_JSON),
      errors: [
        {
          messageId: 'autoCompleteBatch',
          severity: 'error',
          token: '8',
          data: {
            model: 'vllm_model',
            maxBatchSize: 8,
            triton: "configuration specified max_batch_size 8, but in auto-complete-config function for model 'vllm_model' specified max_batch_size 0",
          },
        },
      ],
    },
    {
      name: 'auto-complete refuses a transaction policy that is not decoupled',
      ...repo(`${SAMPLE}model_transaction_policy { }\n`, SAMPLE_JSON),
      errors: [
        {
          messageId: 'autoCompleteDecoupled',
          severity: 'error',
          data: {
            model: 'vllm_model',
            triton: "trying to change decoupled property in auto-complete-config for model 'vllm_model', which is already set to 'False'.",
          },
        },
      ],
    },
    {
      name: 'with auto-complete off: text_output must be declared',
      ...repo(SAMPLE, SAMPLE_JSON),
      settings: NO_AUTO_COMPLETE,
      errors: [{ messageId: 'noTextOutput' }],
    },
    {
      name: 'with auto-complete off: the model must be decoupled',
      ...repo(
        `${SAMPLE}max_batch_size: 8\ninput [ { name: "text_input" data_type: TYPE_STRING dims: [ 1 ] } ]\noutput [ { name: "text_output" data_type: TYPE_STRING dims: [ -1 ] } ]\n`,
        SAMPLE_JSON,
      ),
      settings: NO_AUTO_COMPLETE,
      errors: [{ messageId: 'notDecoupled' }],
    },
    {
      name: 'a model spanning GPUs on KIND_GPU',
      ...repo('backend: "vllm"\ninstance_group [ { kind: KIND_GPU } ]\n', '{"model":"x","tensor_parallel_size": 2,"pipeline_parallel_size": 2}'),
      errors: [{ messageId: 'kindGpu', token: 'KIND_GPU', data: { gpus: 4 } }],
    },
    {
      name: 'a model spanning GPUs with no instance_group',
      ...repo('backend: "vllm"\n', '{"model":"x","tensor_parallel_size": 2}'),
      errors: [{ messageId: 'kindGpuDefault', path: [], data: { gpus: 2 } }],
    },
    {
      name: 'LoRA without multi_lora.json; metrics switched off by disable_log_stats',
      ...repo(
        `${SAMPLE}parameters { key: "REPORT_CUSTOM_METRICS" value: { string_value: "True" } }\n`,
        '{"model":"x","enable_lora":"True","disable_log_stats":true}',
      ),
      errors: [
        { messageId: 'noMultiLora', severity: 'error', file: JSON_FILE, data: { version: '1', file: `${MEMORY_ROOT}/vllm_model/1/multi_lora.json` } },
        { messageId: 'argKind', severity: 'warning', file: JSON_FILE, data: { key: 'enable_lora' } },
        { messageId: 'metricsOff', severity: 'warning', file: JSON_FILE },
      ],
    },
  ],
});

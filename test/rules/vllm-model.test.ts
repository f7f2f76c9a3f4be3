// vllm-model on the shapes of real vLLM repositories: vllm_backend samples/model_repository/vllm_model,
// the tutorials' Llama2 and speculative-decoding models, the OpenAI frontend's LoRA test
// (server python/openai/tests/test_lora.py), each with its model.json.
import { describe, expect, it } from 'vitest';
import { lintFilesData } from './rule-data.js';

const ID = 'vllm-model';
const SAMPLE = 'backend: "vllm"\ninstance_group [ { count: 1 kind: KIND_MODEL } ]\n';
const SAMPLE_JSON = '{"model":"facebook/opt-125m","gpu_memory_utilization": 0.1,"enforce_eager": true}\n';
const repo = (config: string, modelJson?: string, extra: Record<string, string> = {}) => ({
  'vllm_model/config.pbtxt': config,
  ...(modelJson === undefined ? { 'vllm_model/1/.keep': '' } : { 'vllm_model/1/model.json': modelJson }),
  ...extra,
});
const lint = (files: Record<string, string>, options: { configsOnly?: boolean } = {}, rule = ID) => lintFilesData(rule, files, ['vllm_model'], options);

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['the vllm_backend sample', repo(SAMPLE, SAMPLE_JSON)],
      ['the Llama2 tutorial', repo(SAMPLE, '{"model":"meta-llama/Llama-2-7b-chat-hf","disable_log_requests":"true","trust_remote_code":true,"gpu_memory_utilization":0.9}'.replace('"disable_log_requests":"true",', ''))],
      ['LoRA with its multi_lora.json (test_lora.py), no instance_group on one GPU', repo('backend: "vllm"\n', '{"model":"x","enable_lora": true,"max_lora_rank": 32}', { 'vllm_model/1/multi_lora.json': '{"doll": "/loras/doll"}' })],
      ['tensor parallel on KIND_MODEL', repo(SAMPLE, '{"model":"x","tensor_parallel_size": 2}')],
      ['decoupled written out, max_batch_size 0', repo(`${SAMPLE}max_batch_size: 0\nmodel_transaction_policy { decoupled: true }\n`, SAMPLE_JSON)],
      ['not a vLLM model', { 'vllm_model/config.pbtxt': 'backend: "python"\nmax_batch_size: 8\n', 'vllm_model/1/model.py': '' }],
    ])('%s', async (_, files) => {
      expect(await lint(files)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('no model.json in the version directory', async () => {
      const [f] = await lint(repo(SAMPLE));
      expect(f).toMatchObject({ file: 'vllm_model/config.pbtxt', severity: 'error', messageId: 'noModelJson' });
      expect(f!.message).toMatch(/\("'model\.json' containing vllm engine args must be provided in '.*vllm_model\/1'"\)/);
    });

    it('model.json that is not JSON, or not an object: in the file, at the place', async () => {
      const [bad] = await lint(repo(SAMPLE, '{\n  "model": "x",\n  "enforce_eager": true,\n}\n'));
      expect(bad).toMatchObject({ file: 'vllm_model/1/model.json', messageId: 'badJson' });
      expect(bad!.message).toContain('line 4, column 1');
      const [list] = await lint(repo(SAMPLE, '["model"]'));
      expect(list).toMatchObject({ messageId: 'notObject', data: { kind: 'an array' } });
    });

    it("keys no vLLM has are errors with a did-you-mean; keys later releases dropped are warnings", async () => {
      const found = await lint(repo(SAMPLE, '{\n  "model": "facebook/opt-125m",\n  "max_model_length": 2048,\n  "speculative_model": "facebook/opt-125m",\n  "num_speculative_tokens": 5\n}'));
      expect(found.map((f) => [f.severity, f.messageId, f.token])).toEqual([
        ['error', 'unknownArg', '"max_model_length"'],
        ['warning', 'retiredArg', '"speculative_model"'],
        ['warning', 'retiredArg', '"num_speculative_tokens"'],
      ]);
      expect(found[0]!.message).toContain('did you mean "max_model_len"?');
      expect(found[1]!.message).toContain('vLLM 0.4.3 to 0.8.1 only');
    });

    it('with the version option, keys are checked against that release', async () => {
      const settings = JSON.stringify({ rules: { [ID]: ['error', { version: '0.11.0' }] } });
      const found = await lint({ ...repo(SAMPLE, '{"model":"x","disable_log_requests": true,"enable_log_requests": true}'), 'tritonc.config.json': settings });
      expect(found.map((f) => [f.severity, f.messageId, f.token])).toEqual([['error', 'unknownArg', '"disable_log_requests"']]);
      expect(found[0]!.message).toContain('is not an engine argument of vLLM 0.11.0');
      expect(found[0]!.message).toContain('(vLLM 0.4.0.post1 to 0.10.0 had it)');
      const old = JSON.stringify({ rules: { [ID]: ['error', { version: '0.6.3.post1' }] } });
      expect(await lint({ ...repo(SAMPLE, '{"model":"x","disable_log_requests": true}'), 'tritonc.config.json': old })).toEqual([]);
    });

    it('values of the wrong JSON type and outside a Literal set', async () => {
      const found = await lint(repo(SAMPLE, '{"model":"x","enforce_eager":"false","tensor_parallel_size":"1","dtype":"fp16"}'));
      expect(found.map((f) => [f.messageId, f.token])).toEqual([
        ['argKind', '"false"'],
        ['argKind', '"1"'],
        ['argValue', '"fp16"'],
      ]);
      expect(found[0]!.message).toContain('write false');
    });

    it('auto-complete refuses max_batch_size > 0 and a transaction policy that is not decoupled, with python_backend\'s messages', async () => {
      const [mbs] = await lint(repo(`${SAMPLE}max_batch_size: 8\n`, SAMPLE_JSON));
      expect(mbs).toMatchObject({ severity: 'error', messageId: 'autoComplete', token: '8' });
      // The form server qa/L0_model_config/autofill_noplatform/python/conflicting_max_batch_size/expected holds.
      expect(mbs!.message).toContain("configuration specified max_batch_size 8, but in auto-complete-config function for model 'vllm_model' specified max_batch_size 0");
      const [policy] = await lint(repo(`${SAMPLE}model_transaction_policy { }\n`, SAMPLE_JSON));
      expect(policy!.message).toContain("trying to change decoupled property in auto-complete-config for model 'vllm_model', which is already set to 'False'.");
    });

    it('with auto-complete off: text_output must be declared and the model decoupled', async () => {
      const settings = JSON.stringify({ server: { disableAutoCompleteConfig: true } });
      const [io] = await lint({ ...repo(SAMPLE, SAMPLE_JSON), 'tritonc.config.json': settings });
      expect(io).toMatchObject({ messageId: 'noTextOutput' });
      const declared = `${SAMPLE}max_batch_size: 8\ninput [ { name: "text_input" data_type: TYPE_STRING dims: [ 1 ] } ]\noutput [ { name: "text_output" data_type: TYPE_STRING dims: [ -1 ] } ]\n`;
      const [policy, ...rest] = await lint({ ...repo(declared, SAMPLE_JSON), 'tritonc.config.json': settings });
      expect(rest).toEqual([]);
      expect(policy).toMatchObject({ messageId: 'notDecoupled' });
    });

    it('a model spanning GPUs on KIND_GPU, or with no instance_group', async () => {
      const [gpu] = await lint(repo('backend: "vllm"\ninstance_group [ { kind: KIND_GPU } ]\n', '{"model":"x","tensor_parallel_size": 2,"pipeline_parallel_size": 2}'));
      expect(gpu).toMatchObject({ messageId: 'kindGpu', token: 'KIND_GPU', data: { gpus: 4 } });
      const [none] = await lint(repo('backend: "vllm"\n', '{"model":"x","tensor_parallel_size": 2}'));
      expect(none!.message).toContain('without an instance_group Triton gives the model a KIND_GPU group');
    });

    it('LoRA without multi_lora.json; metrics switched off by disable_log_stats', async () => {
      const found = await lint(repo(`${SAMPLE}parameters { key: "REPORT_CUSTOM_METRICS" value: { string_value: "True" } }\n`, '{"model":"x","enable_lora":"True","disable_log_stats":true}'));
      expect(found.map((f) => [f.severity, f.messageId])).toEqual([
        ['error', 'noMultiLora'],
        ['warning', 'argKind'],
        ['warning', 'metricsOff'],
      ]);
    });
  });
});

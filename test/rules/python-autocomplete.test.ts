// python-autocomplete on TensorRT-LLM's LLM API model (tensorrtllm_backend all_models/llmapi/tensorrt_llm:
// config.pbtxt, 1/model.py, 1/model.yaml as the template ships them, changed one thing at a time).
import { describe, expect, it } from 'vitest';
import { readTritonConfig } from '../../src/triton/autocomplete-trtllm-llmapi.js';
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const ID = 'python-autocomplete';
const MODEL_PY = `import yaml
import triton_python_backend_utils as pb_utils

def get_model_config(filename, include_keys=None, exclude_keys=None):
    engine_args_filepath = os.path.join(pb_utils.get_model_dir(), filename)

class TritonPythonModel:
    @classmethod
    def auto_complete_config(cls, auto_complete_model_config):
        triton_config = get_model_config(os.environ.get('LLM_CONFIG_PATH', 'model.yaml'), include_keys=["triton_config"])["triton_config"]
        auto_complete_model_config.set_model_transaction_policy(dict(decoupled=bool(triton_config["decoupled"])))
        auto_complete_model_config.set_max_batch_size(int(triton_config["max_batch_size"]))
        return auto_complete_model_config
`;
const YAML = (tc: string) => `# ======= TRTLLM Model Configurations =======\nmodel: TinyLlama/TinyLlama-1.1B-Chat-v1.0\nbackend: "pytorch"\ntensor_parallel_size: 1\n\n${tc}`;
const TEMPLATE_TC = 'triton_config:\n  max_batch_size: 0 # The current implementation does not support batching\n  decoupled: False\n';
const CONFIG = 'name: "tensorrt_llm"\nbackend: "python"\ninstance_group [ { count: 1 kind : KIND_CPU } ]\n';
const repo = (config: string, yaml?: string, py = MODEL_PY) => ({ 'tensorrt_llm/config.pbtxt': config, 'tensorrt_llm/1/model.py': py, ...(yaml === undefined ? {} : { 'tensorrt_llm/1/model.yaml': yaml }) });
const repoCase = (config: string, yaml?: string, py = MODEL_PY) => ({ files: repo(config, yaml, py), targets: ['tensorrt_llm'] });

describe('readTritonConfig', () => {
  it('reads the block and flow styles, with YAML 1.1 booleans and comments', () => {
    expect(readTritonConfig(YAML(TEMPLATE_TC))).toMatchObject({ decoupled: false, maxBatchSize: 0 });
    expect(readTritonConfig(YAML('triton_config: {max_batch_size: 4, decoupled: yes}\n'))).toMatchObject({ decoupled: true, maxBatchSize: 4 });
    expect(readTritonConfig('model: x\n')).toBeUndefined();
    const text = YAML(TEMPLATE_TC);
    const at = readTritonConfig(text)!.at.decoupled!;
    expect(text.slice(at.start, at.end)).toBe('False');
  });
});

testRule(ID, {
  valid: [
    { name: 'the template as shipped', ...repoCase(CONFIG, YAML(TEMPLATE_TC)) },
    { name: 'the config agreeing with model.yaml', ...repoCase(`${CONFIG}max_batch_size: 0\nmodel_transaction_policy { decoupled: false }\n`, YAML(TEMPLATE_TC)) },
    { name: 'model.yaml raising max_batch_size over the config', ...repoCase(`${CONFIG}max_batch_size: 4\n`, YAML('triton_config:\n  max_batch_size: 8\n  decoupled: true\n')) },
    { name: 'another Python model, no model.yaml', ...repoCase('backend: "python"\nmax_batch_size: 8\n', undefined, 'class TritonPythonModel:\n    pass\n') },
    {
      name: 'nothing with auto-complete off: the config runs as written',
      ...repoCase(`${CONFIG}max_batch_size: 8\n`, YAML(TEMPLATE_TC)),
      settings: { server: { disableAutoCompleteConfig: true } },
    },
  ],
  invalid: [
    {
      name: "decoupled in the config that model.yaml contradicts: python_backend's message",
      ...repoCase(`${CONFIG}model_transaction_policy { decoupled: true }\n`, YAML(TEMPLATE_TC)),
      errors: [{
        messageId: 'refusedDecoupled',
        severity: 'error',
        token: 'true',
        path: ['model_transaction_policy', 'decoupled'],
        file: 'tensorrt_llm/config.pbtxt',
        data: { name: 'tensorrt_llm', configDecoupled: 'True', yamlDecoupled: false, triton: "trying to change decoupled property in auto-complete-config for model 'tensorrt_llm', which is already set to 'True'." },
      }],
    },
    {
      name: 'a larger max_batch_size in the config than model.yaml sets',
      ...repoCase(`${CONFIG}max_batch_size: 8\n`, YAML(TEMPLATE_TC)),
      errors: [{
        messageId: 'refusedMaxBatchSize',
        token: '8',
        path: ['max_batch_size'],
        file: 'tensorrt_llm/config.pbtxt',
        data: { name: 'tensorrt_llm', configMaxBatchSize: 8, yamlMaxBatchSize: 0, triton: "configuration specified max_batch_size 8, but in auto-complete-config function for model 'tensorrt_llm' specified max_batch_size 0" },
      }],
    },
    {
      name: 'no model.yaml',
      ...repoCase(CONFIG),
      errors: [{ messageId: 'noModelYaml', file: 'tensorrt_llm/config.pbtxt', data: { version: '1', dir: `${MEMORY_ROOT}/tensorrt_llm/1`, file: `${MEMORY_ROOT}/tensorrt_llm/1/model.yaml` } }],
    },
    {
      name: 'no triton_config in model.yaml',
      ...repoCase(CONFIG, 'model: x\n'),
      errors: [{ messageId: 'noTritonConfig', file: 'tensorrt_llm/1/model.yaml', line: 1 }],
    },
  ],
});

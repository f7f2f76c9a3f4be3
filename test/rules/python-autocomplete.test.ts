// python-autocomplete on TensorRT-LLM's LLM API model (tensorrtllm_backend all_models/llmapi/tensorrt_llm:
// config.pbtxt, 1/model.py, 1/model.yaml as the template ships them, changed one thing at a time).
import { describe, expect, it } from 'vitest';
import { readTritonConfig } from '../../src/triton/autocomplete-trtllm-llmapi.js';
import { lintFilesData } from './rule-data.js';

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
const lint = (files: Record<string, string>) => lintFilesData(ID, files, ['tensorrt_llm']);

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

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['the template as shipped', repo(CONFIG, YAML(TEMPLATE_TC))],
      ['the config agreeing with model.yaml', repo(`${CONFIG}max_batch_size: 0\nmodel_transaction_policy { decoupled: false }\n`, YAML(TEMPLATE_TC))],
      ['model.yaml raising max_batch_size over the config', repo(`${CONFIG}max_batch_size: 4\n`, YAML('triton_config:\n  max_batch_size: 8\n  decoupled: true\n'))],
      ['another Python model, no model.yaml', repo('backend: "python"\nmax_batch_size: 8\n', undefined, 'class TritonPythonModel:\n    pass\n')],
    ])('%s', async (_, files) => {
      expect(await lint(files)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it("decoupled in the config that model.yaml contradicts: python_backend's message", async () => {
      const [f] = await lint(repo(`${CONFIG}model_transaction_policy { decoupled: true }\n`, YAML(TEMPLATE_TC)));
      expect(f).toMatchObject({ severity: 'error', messageId: 'refused', token: 'true' });
      expect(f!.message).toContain("(\"trying to change decoupled property in auto-complete-config for model 'tensorrt_llm', which is already set to 'True'.\")");
    });
    it('a larger max_batch_size in the config than model.yaml sets', async () => {
      const [f] = await lint(repo(`${CONFIG}max_batch_size: 8\n`, YAML(TEMPLATE_TC)));
      expect(f!.message).toContain("configuration specified max_batch_size 8, but in auto-complete-config function for model 'tensorrt_llm' specified max_batch_size 0");
    });
    it('no model.yaml, or no triton_config in it', async () => {
      const [missing] = await lint(repo(CONFIG));
      expect(missing).toMatchObject({ messageId: 'noModelYaml' });
      expect(missing!.message).toMatch(/'model\.yaml' containing TRT-LLM engine args not found in '.*tensorrt_llm\/1'/);
      const [none] = await lint(repo(CONFIG, 'model: x\n'));
      expect(none).toMatchObject({ file: 'tensorrt_llm/1/model.yaml', messageId: 'noTritonConfig' });
    });
    it('nothing with auto-complete off: the config runs as written', async () => {
      expect(await lint({ ...repo(`${CONFIG}max_batch_size: 8\n`, YAML(TEMPLATE_TC)), 'tritonc.config.json': '{"server":{"disableAutoCompleteConfig":true}}' })).toEqual([]);
    });
  });
});

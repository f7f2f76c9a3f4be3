// python-autocomplete on TensorRT-LLM's LLM API model (tensorrtllm_backend all_models/llmapi/tensorrt_llm:
// config.pbtxt, 1/model.py, 1/model.yaml as the template ships them, changed one thing at a time), and on
// any model.py whose auto_complete_config is straight-line helper calls (Triton's qa model.py files, as
// in server qa/python_models/auto_complete/model.py, changed one thing at a time).
import { describe, expect, it } from 'vitest';
import { readTritonConfig } from '../../src/triton/backends/tensorrtllm/autocomplete-llmapi.js';
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
const YAML = (tc: string) =>
  `# ======= TRTLLM Model Configurations =======\nmodel: TinyLlama/TinyLlama-1.1B-Chat-v1.0\nbackend: "pytorch"\ntensor_parallel_size: 1\n\n${tc}`;
const TEMPLATE_TC = 'triton_config:\n  max_batch_size: 0 # The current implementation does not support batching\n  decoupled: False\n';
const CONFIG = 'name: "tensorrt_llm"\nbackend: "python"\ninstance_group [ { count: 1 kind : KIND_CPU } ]\n';
const repo = (config: string, yaml?: string, py = MODEL_PY) => ({
  'tensorrt_llm/config.pbtxt': config,
  'tensorrt_llm/1/model.py': py,
  ...(yaml === undefined ? {} : { 'tensorrt_llm/1/model.yaml': yaml }),
});
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

/** A model.py as Triton's qa ones are written: local dicts, then the helper calls, then `return`. */
const qaModelPy = (
  o: { mbs?: number; extra?: string; input1?: string; output1?: string; ret?: boolean; policy?: string } = {},
): string => `import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    @staticmethod
    def auto_complete_config(auto_complete_model_config):
        input0 = {"name": "INPUT0", "data_type": "TYPE_FP32", "dims": [4]}
        input1 = ${o.input1 ?? '{"name": "INPUT1", "data_type": "TYPE_FP32", "dims": [4]}'}
        output0 = {"name": "OUTPUT0", "data_type": "TYPE_FP32", "dims": [4]}
        output1 = ${o.output1 ?? '{"name": "OUTPUT1", "data_type": "TYPE_FP32", "dims": [4]}'}

        auto_complete_model_config.set_max_batch_size(${o.mbs ?? 0})
${o.extra ?? ''}${o.policy ? `        auto_complete_model_config.set_model_transaction_policy(${o.policy})\n` : ''}        auto_complete_model_config.add_input(input0)
        auto_complete_model_config.add_input(input1)
        auto_complete_model_config.add_output(output0)
        auto_complete_model_config.add_output(output1)
${o.ret === false ? '' : '\n        return auto_complete_model_config\n'}
    def execute(self, requests):
        pass
`;
const qa = (config: string, py: string) => ({ files: { 'm/config.pbtxt': config, 'm/1/model.py': py }, targets: ['m'] });
const IO = 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]\n';

testRule(ID, {
  valid: [
    { name: "Triton's auto_complete model.py with an empty config", ...qa('backend: "python"\n', qaModelPy()) },
    {
      name: 'a config that agrees, and one with tensors the script never adds',
      ...qa(
        'backend: "python"\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] }, { name: "EXTRA" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        qaModelPy(),
      ),
    },
    {
      name: 'set_dynamic_batching with dynamic_batching in the config: a no-op',
      ...qa(
        'backend: "python"\nmax_batch_size: 4\ndynamic_batching {}\n',
        qaModelPy({ mbs: 4, extra: '        auto_complete_model_config.set_dynamic_batching()\n' }),
      ),
    },
    {
      name: 'a call the reader cannot follow: nothing is guessed after it',
      ...qa(
        'backend: "python"\nmax_batch_size: 8\n',
        qaModelPy({ mbs: 4 }).replace('auto_complete_model_config.set_max_batch_size(4)', 'auto_complete_model_config.set_max_batch_size(compute())'),
      ),
    },
    {
      name: 'decoupled agreeing through dict(decoupled=True)',
      ...qa('backend: "python"\nmodel_transaction_policy { decoupled: true }\n', qaModelPy({ policy: 'dict(decoupled=True)' })),
    },
    { name: 'the template as shipped', ...repoCase(CONFIG, YAML(TEMPLATE_TC)) },
    {
      name: 'the config agreeing with model.yaml',
      ...repoCase(`${CONFIG}max_batch_size: 0\nmodel_transaction_policy { decoupled: false }\n`, YAML(TEMPLATE_TC)),
    },
    {
      name: 'model.yaml raising max_batch_size over the config',
      ...repoCase(`${CONFIG}max_batch_size: 4\n`, YAML('triton_config:\n  max_batch_size: 8\n  decoupled: true\n')),
    },
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
      errors: [
        {
          messageId: 'refusedDecoupled',
          severity: 'error',
          token: 'true',
          path: ['model_transaction_policy', 'decoupled'],
          file: 'tensorrt_llm/config.pbtxt',
          data: {
            name: 'tensorrt_llm',
            configDecoupled: 'True',
            yamlDecoupled: false,
            triton: "trying to change decoupled property in auto-complete-config for model 'tensorrt_llm', which is already set to 'True'.",
          },
        },
      ],
    },
    {
      name: 'a larger max_batch_size in the config than model.yaml sets',
      ...repoCase(`${CONFIG}max_batch_size: 8\n`, YAML(TEMPLATE_TC)),
      errors: [
        {
          messageId: 'refusedMaxBatchSize',
          token: '8',
          path: ['max_batch_size'],
          file: 'tensorrt_llm/config.pbtxt',
          data: {
            name: 'tensorrt_llm',
            configMaxBatchSize: 8,
            yamlMaxBatchSize: 0,
            triton: "configuration specified max_batch_size 8, but in auto-complete-config function for model 'tensorrt_llm' specified max_batch_size 0",
          },
        },
      ],
    },
    {
      name: 'no model.yaml',
      ...repoCase(CONFIG),
      errors: [
        {
          messageId: 'noModelYaml',
          file: 'tensorrt_llm/config.pbtxt',
          data: { version: '1', dir: `${MEMORY_ROOT}/tensorrt_llm/1`, file: `${MEMORY_ROOT}/tensorrt_llm/1/model.yaml` },
        },
      ],
    },
    {
      name: 'set_max_batch_size below the config',
      ...qa('backend: "python"\nmax_batch_size: 6\n', qaModelPy({ mbs: 4 })),
      errors: [{ messageId: 'scriptMaxBatchSize', token: '6', path: ['max_batch_size'], data: { name: 'm', line: 12, configValue: 6, scriptValue: 4 } }],
    },
    {
      name: 'set_dynamic_batching with sequence_batching in the config',
      ...qa(
        'backend: "python"\nmax_batch_size: 4\nsequence_batching {}\n',
        qaModelPy({ mbs: 4, extra: '        auto_complete_model_config.set_dynamic_batching()\n' }),
      ),
      errors: [{ messageId: 'scriptScheduler', path: ['sequence_batching'], data: { name: 'm', line: 13, scheduler: 'sequence_batching' } }],
    },
    {
      name: 'an input dict with a key add_input does not take',
      ...qa('backend: "python"\n', qaModelPy({ input1: '{"name": "INPUT1", "data_type": "TYPE_FP32", "dims": [4], "is_shape_tensor": False}' })),
      errors: [{ messageId: 'scriptInputProperty', file: 'm/1/model.py', line: 14, data: { name: 'm', line: 14, tensor: 'INPUT1' } }],
    },
    {
      name: 'an output dict with a key add_output does not take',
      ...qa('backend: "python"\n', qaModelPy({ output1: '{"name": "OUTPUT1", "data_type": "TYPE_FP32", "dims": [4], "optional": True}' })),
      errors: [{ messageId: 'scriptOutputProperty', file: 'm/1/model.py', line: 16, data: { name: 'm', line: 16, tensor: 'OUTPUT1' } }],
    },
    {
      name: 'an input dict without a name',
      ...qa('backend: "python"\n', qaModelPy({ input1: '{"data_type": "TYPE_FP32", "dims": [4]}' })),
      errors: [{ messageId: 'scriptMissingName', file: 'm/1/model.py', line: 14, data: { name: 'm', line: 14, side: 'input' } }],
    },
    {
      name: 'an output dict without dims',
      ...qa('backend: "python"\n', qaModelPy({ output1: 'dict(name="OUTPUT1", data_type="TYPE_FP32")' })),
      errors: [
        {
          messageId: 'scriptMissingProperty',
          file: 'm/1/model.py',
          line: 16,
          data: { name: 'm', line: 16, side: 'output', tensor: 'OUTPUT1', property: 'dims' },
        },
      ],
    },
    {
      name: 'a data type the config contradicts',
      ...qa(`backend: "python"\n${IO}`, qaModelPy()),
      errors: [
        {
          messageId: 'scriptDatatype',
          token: 'TYPE_INT32',
          path: ['input', 1, 'data_type'],
          data: { name: 'm', line: 14, side: 'input', tensor: 'INPUT1', configValue: 'TYPE_INT32', scriptValue: 'TYPE_FP32' },
        },
      ],
    },
    {
      name: 'dims the config contradicts',
      ...qa(`backend: "python"\n${IO.replace('TYPE_INT32', 'TYPE_FP32')}`, qaModelPy()),
      errors: [
        {
          messageId: 'scriptDims',
          path: ['input', 1, 'dims'],
          data: { name: 'm', line: 14, side: 'input', tensor: 'INPUT1', configValue: '[16]', scriptValue: '[4]' },
        },
      ],
    },
    {
      name: 'optional the config contradicts',
      ...qa(
        'backend: "python"\ninput [ { name: "INPUT1" data_type: TYPE_FP32 dims: [ 4 ] optional: true } ]\n',
        qaModelPy({ input1: '{"name": "INPUT1", "data_type": "TYPE_FP32", "dims": [4], "optional": False}' }),
      ),
      errors: [
        {
          messageId: 'scriptOptional',
          path: ['input', 0, 'optional'],
          data: { name: 'm', line: 14, tensor: 'INPUT1', configValue: 'True', scriptValue: 'False' },
        },
      ],
    },
    {
      name: 'set_model_transaction_policy with another key',
      ...qa('backend: "python"\n', qaModelPy({ policy: '{"invalid": "argument"}' })),
      errors: [{ messageId: 'scriptPolicyProperty', file: 'm/1/model.py', line: 13, data: { name: 'm', line: 13 } }],
    },
    {
      name: 'decoupled the config contradicts',
      ...qa('backend: "python"\nmax_batch_size: 4\nmodel_transaction_policy { decoupled: false }\n', qaModelPy({ mbs: 4, policy: 'dict(decoupled=True)' })),
      errors: [{ messageId: 'scriptDecoupled', path: ['model_transaction_policy'], data: { name: 'm', line: 13, configValue: 'False', scriptValue: 'True' } }],
    },
    {
      name: 'no return',
      ...qa('backend: "python"\n', qaModelPy({ ret: false })),
      errors: [{ messageId: 'scriptNoReturn', file: 'm/1/model.py', line: 6, data: { name: 'm', line: 6, parameter: 'auto_complete_model_config' } }],
    },
    {
      name: 'no triton_config in model.yaml',
      ...repoCase(CONFIG, 'model: x\n'),
      errors: [{ messageId: 'noTritonConfig', file: 'tensorrt_llm/1/model.yaml', line: 1 }],
    },
  ],
});

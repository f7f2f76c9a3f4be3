// Python models whose auto_complete_config tritonc can read without running it: TensorRT-LLM's LLM API
// model (all_models/llmapi/tensorrt_llm, src/triton/autocomplete-trtllm-llmapi.ts), which takes
// decoupled and max_batch_size from model.yaml's triton_config. What python_backend's helpers refuse
// fails the load; so does a missing model.yaml (get_model_config's assertion). vLLM's auto-complete is
// the vllm-model rule's.
import { join } from 'node:path';
import { selectVersions } from '../../../repo/model-dir.js';
import { autoCompleteLlmApi, isLlmApiModelPy, readTritonConfig } from '../../../triton/autocomplete-trtllm-llmapi.js';
import { positionAt } from '../../../util/text-position.js';
import { modelName, settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { PYTHON } from '../../../triton/backend-records.js';

export const pythonAutocomplete = defineModelRule({
  meta: {
    id: 'python-autocomplete',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A Python model's auto_complete_config must not contradict the config (TensorRT-LLM's LLM API model and its model.yaml)",
    prevents: [
      "configuration specified max_batch_size <n>, but in auto-complete-config function for model '<name>' specified max_batch_size <m>",
      "trying to change decoupled property in auto-complete-config for model '<name>', which is already set to '<True|False>'.",
      "'model.yaml' containing TRT-LLM engine args not found in '<dir>'",
    ],
    messages: {
      refusedDecoupled: "the model's auto_complete_config refuses this config, so the model does not load (\"trying to change decoupled property in auto-complete-config for model '{{name}}', which is already set to '{{configDecoupled}}'.\"); model.yaml's triton_config sets decoupled: {{yamlDecoupled}}, and model.py applies it: make model_transaction_policy agree, or remove it from config.pbtxt",
      refusedMaxBatchSize: "the model's auto_complete_config refuses this config, so the model does not load (\"configuration specified max_batch_size {{configMaxBatchSize}}, but in auto-complete-config function for model '{{name}}' specified max_batch_size {{yamlMaxBatchSize}}\"); model.yaml's triton_config sets max_batch_size: {{yamlMaxBatchSize}}, and model.py applies it: remove max_batch_size from config.pbtxt, or raise it in model.yaml",
      noModelYaml: "version {{version}} has no model.yaml, which TensorRT-LLM's LLM API model reads in auto_complete_config (\"'model.yaml' containing TRT-LLM engine args not found in '{{dir}}'\"); write {{file}} with the model and its triton_config",
      noTritonConfig: "model.yaml has no triton_config, which the LLM API model's auto_complete_config reads (triton_config[\"decoupled\"] raises KeyError); add triton_config: {max_batch_size: 0, decoupled: false}",
    },
  },
  check(ctx) {
    if (!ctx.settings.server.autoCompleteConfig || settledBackend(ctx).backend !== 'python') return;
    for (const dir of selectVersions(ctx.config.version_policy, ctx.model.layout().versionDirs)) {
      const modelPy = ctx.files.text(join(dir.path, ctx.config.default_model_filename || PYTHON.defaultModelFile!));
      if (modelPy === undefined || !isLlmApiModelPy(modelPy)) continue;
      const file = join(dir.path, 'model.yaml');
      const yaml = ctx.files.text(file);
      if (yaml === undefined) {
        ctx.report({ path: [], messageId: 'noModelYaml', data: { version: dir.dirName, dir: dir.path, file } });
        continue;
      }
      const block = readTritonConfig(yaml);
      if (!block) {
        ctx.report({ file, range: { start: positionAt(yaml, 0), end: positionAt(yaml, 0) }, messageId: 'noTritonConfig' });
        continue;
      }
      // Core fills in the name before the backend sees the config.
      const name = modelName(ctx);
      const problem = autoCompleteLlmApi({ ...ctx.config, name }, block);
      if (!problem) continue;
      // The helper that refused is told by the field it names; its values fill the message.
      if (problem.path?.[0] === 'max_batch_size') {
        ctx.report({
          path: problem.path,
          messageId: 'refusedMaxBatchSize',
          data: { triton: problem.message, name, configMaxBatchSize: ctx.config.max_batch_size ?? 0, yamlMaxBatchSize: block.maxBatchSize ?? 0 },
        });
      } else {
        ctx.report({
          path: problem.path ?? [],
          messageId: 'refusedDecoupled',
          data: { triton: problem.message, name, configDecoupled: ctx.config.model_transaction_policy?.decoupled ? 'True' : 'False', yamlDecoupled: block.decoupled ?? false },
        });
      }
    }
  },
});

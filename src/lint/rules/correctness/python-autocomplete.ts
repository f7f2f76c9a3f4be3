// Python models whose auto_complete_config tritonc can read without running it: any model.py whose
// function is straight-line calls of the config's helpers (src/python-model reads it, and
// src/triton/backends/python/autocomplete-script.ts applies python_backend's ModelConfig to each call), and
// TensorRT-LLM's LLM API model (all_models/llmapi/tensorrt_llm, src/triton/backends/tensorrtllm/autocomplete-llmapi.ts),
// which takes decoupled and max_batch_size from model.yaml's triton_config. What python_backend's
// helpers refuse fails the load; so does a missing model.yaml (get_model_config's assertion), and a
// function that does not return the config (python_backend src/pb_stub.cc). vLLM's auto-complete is
// the vllm-model rule's.
import { join } from 'node:path';
import { autoCompleteLlmApi, isLlmApiModelPy, readTritonConfig } from '../../../triton/backends/tensorrtllm/autocomplete-llmapi.js';
import { positionAt } from '../../../util/text-position.js';
import { modelName, settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { PYTHON } from '../../../triton/backend-records.js';
import { completeFromScript, type ScriptRefusal } from '../../../triton/backends/python/autocomplete-script.js';
import type { ModelConfig } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';

export const pythonAutocomplete = defineModelRule({
  meta: {
    id: 'python-autocomplete',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A Python model's auto_complete_config must not contradict the config, and must be one python_backend accepts",
    prevents: [
      "configuration specified max_batch_size <n>, but in auto-complete-config function for model '<name>' specified max_batch_size <m>",
      "trying to change decoupled property in auto-complete-config for model '<name>', which is already set to '<True|False>'.",
      "'model.yaml' containing TRT-LLM engine args not found in '<dir>'",
      "Configuration specified scheduling_choice as '<scheduler>', but auto-complete-config function for model '<name>' tries to set scheduling_choice as 'dynamic_batching'",
      "input '<tensor>' in auto-complete-config function for model '<name>' contains property other than 'name', 'data_type', 'dims' and 'optional'.",
      "output '<tensor>' in auto-complete-config function for model '<name>' contains property other than 'name', 'data_type' and 'dims'.",
      "<input|output> in auto-complete-config function for model '<name>' is missing 'name' property.",
      "<input|output> '<tensor>' in auto-complete-config function for model '<name>' is missing '<data_type|dims>' property.",
      "unable to load model '<name>', configuration expects datatype <type> for <input|output> '<tensor>', model provides <type>",
      "model '<name>', tensor '<tensor>': the model expects dims [<dims>] but the model configuration specifies dims [<dims>]",
      "model '<name>', tensor '<tensor>': the model expects optional <True|False> but the model configuration specifies optional <True|False>",
      "model transaction property in auto-complete-config function for model '<name>' contains property other than 'decoupled'.",
      "auto_complete_config function in model '<name>' must return a valid pb.ModelConfig object.",
    ],
    messages: {
      refusedDecoupled:
        "the model's auto_complete_config refuses this config, so the model does not load (\"trying to change decoupled property in auto-complete-config for model '{{name}}', which is already set to '{{configDecoupled}}'.\"); model.yaml's triton_config sets decoupled: {{yamlDecoupled}}, and model.py applies it: make model_transaction_policy agree, or remove it from config.pbtxt",
      refusedMaxBatchSize:
        "the model's auto_complete_config refuses this config, so the model does not load (\"configuration specified max_batch_size {{configMaxBatchSize}}, but in auto-complete-config function for model '{{name}}' specified max_batch_size {{yamlMaxBatchSize}}\"); model.yaml's triton_config sets max_batch_size: {{yamlMaxBatchSize}}, and model.py applies it: remove max_batch_size from config.pbtxt, or raise it in model.yaml",
      noModelYaml:
        "version {{version}} has no model.yaml, which TensorRT-LLM's LLM API model reads in auto_complete_config (\"'model.yaml' containing TRT-LLM engine args not found in '{{dir}}'\"); write {{file}} with the model and its triton_config",
      noTritonConfig:
        'model.yaml has no triton_config, which the LLM API model\'s auto_complete_config reads (triton_config["decoupled"] raises KeyError); add triton_config: {max_batch_size: 0, decoupled: false}',
      scriptMaxBatchSize:
        "model.py's auto_complete_config calls set_max_batch_size({{scriptValue}}) on line {{line}}, below the config's max_batch_size {{configValue}}, so the model does not load (\"configuration specified max_batch_size {{configValue}}, but in auto-complete-config function for model '{{name}}' specified max_batch_size {{scriptValue}}\"); lower max_batch_size in config.pbtxt to {{scriptValue}} or remove it",
      scriptScheduler:
        "model.py's auto_complete_config calls set_dynamic_batching() on line {{line}}, and the config sets {{scheduler}}, so the model does not load (\"Configuration specified scheduling_choice as '{{scheduler}}', but auto-complete-config function for model '{{name}}' tries to set scheduling_choice as 'dynamic_batching'\"); remove {{scheduler}} from config.pbtxt, or the call from model.py",
      scriptInputProperty:
        "the dict model.py passes to add_input on line {{line}} has a key other than 'name', 'data_type', 'dims' and 'optional', so the model does not load (\"input '{{tensor}}' in auto-complete-config function for model '{{name}}' contains property other than 'name', 'data_type', 'dims' and 'optional'.\"); remove the other key",
      scriptOutputProperty:
        "the dict model.py passes to add_output on line {{line}} has a key other than 'name', 'data_type' and 'dims', so the model does not load (\"output '{{tensor}}' in auto-complete-config function for model '{{name}}' contains property other than 'name', 'data_type' and 'dims'.\"); remove the other key",
      scriptMissingName:
        "the dict model.py passes to add_{{side}} on line {{line}} has no 'name', so the model does not load (\"{{side}} in auto-complete-config function for model '{{name}}' is missing 'name' property.\"); add \"name\"",
      scriptMissingProperty:
        "the dict model.py passes to add_{{side}} on line {{line}} for '{{tensor}}' has no '{{property}}', so the model does not load (\"{{side}} '{{tensor}}' in auto-complete-config function for model '{{name}}' is missing '{{property}}' property.\"); add \"{{property}}\"",
      scriptDatatype:
        "model.py's auto_complete_config declares {{side}} '{{tensor}}' as {{scriptValue}} (line {{line}}) and the config says {{configValue}}, so the model does not load (\"unable to load model '{{name}}', configuration expects datatype {{configValue}} for {{side}} '{{tensor}}', model provides {{scriptValue}}\"); set data_type: {{scriptValue}}",
      scriptDims:
        "model.py's auto_complete_config declares {{side}} '{{tensor}}' with dims {{scriptValue}} (line {{line}}) and the config says {{configValue}}, so the model does not load (\"model '{{name}}', tensor '{{tensor}}': the model expects dims {{scriptValue}} but the model configuration specifies dims {{configValue}}\"); set dims: {{scriptValue}}, or remove dims",
      scriptOptional:
        "model.py's auto_complete_config declares input '{{tensor}}' optional {{scriptValue}} (line {{line}}) and the config says {{configValue}}, so the model does not load (\"model '{{name}}', tensor '{{tensor}}': the model expects optional {{scriptValue}} but the model configuration specifies optional {{configValue}}\"); make optional agree",
      scriptPolicyProperty:
        "the dict model.py passes to set_model_transaction_policy on line {{line}} has a key other than 'decoupled', so the model does not load (\"model transaction property in auto-complete-config function for model '{{name}}' contains property other than 'decoupled'.\"); pass only decoupled",
      scriptDecoupled:
        "model.py's auto_complete_config sets decoupled {{scriptValue}} (line {{line}}) and the config's model_transaction_policy says {{configValue}}, so the model does not load (\"trying to change decoupled property in auto-complete-config for model '{{name}}', which is already set to '{{configValue}}'.\"); make model_transaction_policy agree, or remove it from config.pbtxt",
      scriptNoReturn:
        "model.py's auto_complete_config (line {{line}}) does not return the config it was given, so the model does not load (\"auto_complete_config function in model '{{name}}' must return a valid pb.ModelConfig object.\"); end it with return {{parameter}}",
    },
  },
  check(ctx) {
    if (!ctx.settings.server.autoCompleteConfig || settledBackend(ctx).backend !== PYTHON.name) return;
    for (const dir of ctx.model.versions(ctx.config)) {
      const scriptFile = join(dir.path, ctx.model.modelFileName(ctx.config) ?? PYTHON.defaultModelFile!);
      const modelPy = ctx.files.text(scriptFile);
      if (modelPy === undefined) continue;
      if (!isLlmApiModelPy(modelPy)) {
        checkScript(ctx, scriptFile, modelPy);
        continue;
      }
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
          data: {
            triton: problem.message,
            name,
            configDecoupled: ctx.config.model_transaction_policy?.decoupled ? 'True' : 'False',
            yamlDecoupled: block.decoupled ?? false,
          },
        });
      }
    }
  },
});

type Ctx = Parameters<(typeof pythonAutocomplete)['check']>[0];

/** A line and column of model.py as a range of one character there. */
function rangeAt(text: string, line: number, col: number): { start: ReturnType<typeof positionAt>; end: ReturnType<typeof positionAt> } {
  let offset = 0;
  for (let l = 1; l < line && offset >= 0; l++) offset = text.indexOf('\n', offset) + 1;
  const start = positionAt(text, Math.max(0, offset) + col - 1);
  return { start, end: start };
}

/** Any other model.py: its auto_complete_config read statically, its refusal reported with its values. */
function checkScript(ctx: Ctx, file: string, text: string): void {
  const how = PYTHON.autoComplete;
  if (how?.from !== 'script') return;
  const name = modelName(ctx);
  const config: ModelConfig = { ...ctx.config, name };
  // Read without running it, or run (lint --run-python-autocomplete): the workspace says which.
  const facts = ctx.model.scriptFacts(file, config) ?? how.read(text);
  const { refusal } = completeFromScript(config, facts);
  if (!refusal) return;
  const inScript = { file, range: rangeAt(text, refusal.line, refusal.col) };
  const line = refusal.line;
  const tensorPath = (side: 'input' | 'output', tensor: string, field: string): PathSegment[] => {
    const i = (ctx.config[side] ?? []).findIndex((t) => t.name === tensor);
    return i >= 0 ? [side, i, field] : [];
  };
  const r: ScriptRefusal = refusal;
  switch (r.kind) {
    case 'maxBatchSize':
      return ctx.report({
        path: ['max_batch_size'],
        messageId: 'scriptMaxBatchSize',
        data: { name, line, configValue: r.configValue, scriptValue: r.scriptValue },
      });
    case 'scheduler':
      return ctx.report({ path: [r.scheduler], messageId: 'scriptScheduler', data: { name, line, scheduler: r.scheduler } });
    case 'wrongProperty':
      return ctx.report({
        ...inScript,
        messageId: r.side === 'input' ? 'scriptInputProperty' : 'scriptOutputProperty',
        data: { name, line, tensor: r.tensor },
      });
    case 'missingName':
      return ctx.report({ ...inScript, messageId: 'scriptMissingName', data: { name, line, side: r.side } });
    case 'missingProperty':
      return ctx.report({ ...inScript, messageId: 'scriptMissingProperty', data: { name, line, side: r.side, tensor: r.tensor, property: r.property } });
    case 'datatype':
      return ctx.report({
        path: tensorPath(r.side, r.tensor, 'data_type'),
        messageId: 'scriptDatatype',
        data: { name, line, side: r.side, tensor: r.tensor, configValue: r.configValue, scriptValue: r.scriptValue },
      });
    case 'dims':
      return ctx.report({
        path: tensorPath(r.side, r.tensor, 'dims'),
        messageId: 'scriptDims',
        data: { name, line, side: r.side, tensor: r.tensor, configValue: r.configValue, scriptValue: r.scriptValue },
      });
    case 'optional':
      return ctx.report({
        path: tensorPath('input', r.tensor, 'optional'),
        messageId: 'scriptOptional',
        data: { name, line, tensor: r.tensor, configValue: r.configValue, scriptValue: r.scriptValue },
      });
    case 'policyProperty':
      return ctx.report({ ...inScript, messageId: 'scriptPolicyProperty', data: { name, line } });
    case 'decoupled':
      return ctx.report({
        path: ['model_transaction_policy'],
        messageId: 'scriptDecoupled',
        data: { name, line, configValue: r.configValue, scriptValue: r.scriptValue },
      });
    case 'noReturn':
      return ctx.report({ ...inScript, messageId: 'scriptNoReturn', data: { name, line, parameter: facts.parameter ?? 'auto_complete_model_config' } });
    case 'raised':
      return;
  }
}

// `${name}` left in a config's strings: fill_template.py fills with string.Template.safe_substitute,
// which leaves every placeholder it was not given in place (tensorrtllm_backend tools/fill_template.py
// main). Triton and the backends then read the literal text. What that does depends on where it
// stands, so the finding says it: a backend named "${triton_backend}" fails the load; the tensorrtllm
// backend fails on some keys and silently uses the default for most (src/triton/backends/tensorrtllm/parameters.ts);
// the Python runtime of TensorRT-LLM and the BLS model treat a placeholder as unset; preprocessing and
// postprocessing hand tokenizer_dir to Hugging Face as a path. (A placeholder outside a string breaks
// the parse: the syntax rule says so.)
import type { PathSegment } from '../../../diagnostics.js';
import { TRTLLM_PARAMETERS, UNFILLED_PLACEHOLDER, guidedDecodingOff, trtllmDefault, trtllmRuntime } from '../../../triton/backends/tensorrtllm/parameters.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { PYTHON, TENSORRTLLM } from '../../../triton/backend-records.js';

/**
 * Every string of the config that holds a placeholder, with its value path (map keys as path
 * segments, as the engine expects). One path is kept and copied only for a string that matches: a
 * config may hold 500,000 parameters.
 */
function placeholderStrings(config: unknown): [PathSegment[], string][] {
  const found: [PathSegment[], string][] = [];
  const path: PathSegment[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.includes('${') && UNFILLED_PLACEHOLDER.test(value)) found.push([[...path], value]);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i]);
        path.pop();
      }
    } else if (value && typeof value === 'object') {
      for (const k in value) {
        path.push(k);
        walk((value as Record<string, unknown>)[k]);
        path.pop();
      }
    }
  };
  walk(config);
  return found;
}

/**
 * The keys preprocessing and postprocessing read in initialize besides tokenizer_dir (tensorrtllm_backend
 * all_models/inflight_batcher_llm/{pre,post}processing/1/model.py, v0.17.0).
 */
const TOKENIZER_MODEL_KEYS = new Set(['gpt_model_path', 'multimodal_model_path', 'add_special_tokens', 'skip_special_tokens', 'max_num_images']);

export const unfilledPlaceholder = defineModelRule({
  meta: {
    id: 'unfilled-placeholder',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'Template placeholders (${name}) that fill_template.py left unfilled',
    prevents: [
      'Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching.',
      'Both encoder and decoder model paths are empty',
      '<key> is not specified, will use default value of <default>',
    ],
    messages: {
      backend:
        '{{field}} "{{value}}" is an unfilled template placeholder, so Triton looks for a backend of that name and fails the load; fill it (tritonc fill CONFIG "{{name}}:<backend>"), or write the backend',
      failsModelType:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching."); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsEnginePaths:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Both encoder and decoder model paths are empty"); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsLookahead:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Decoding mode is set to lookahead but lookahead parameters are not specified."); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsTokenizer:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the Python model fails the load on it ("Hugging Face cannot load a tokenizer from "{{value}}""); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsEnginePathPythonRuntime:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, which the Python runtime of TensorRT-LLM treats as unset, so its initialize fails: it hands no engine directory to trtllm.Executor; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsTokenizerGuided:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, which the Python runtime of TensorRT-LLM treats as unset, and with guided decoding on its initialize fails on it ("Guided decoding requires tokenizer\'s information. Please provide \'tokenizer_dir\'."); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      unusedPythonRuntime:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the Python runtime of TensorRT-LLM reads it only with guided decoding on, which is off here; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter',
      failsMultimodalPath:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the preprocessing model fails the load on it: only the exact text ${multimodal_model_path} means no multimodal model, so it opens "{{value}}/config.json"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsPreprocessingEngine:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the preprocessing model of a multimodal model fails the load on it: it opens "{{value}}/config.json"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      unusedPreprocessing:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the preprocessing model reads it only for a multimodal model (multimodal_model_path set), which this is not; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter',
      unsetMultimodal:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}, which the preprocessing model takes for "no multimodal model"; fill it (tritonc fill CONFIG "{{name}}:<value>") for a multimodal model, or remove the parameter',
      defaultsTokens:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the {{model}} model logs "Don\'t setup \'{{key}}\' correctly" and uses true; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsMaxImages:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the preprocessing model logs "\'max_num_images\' parameter is not set correctly" and sets no limit; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaults:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsOwn:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend logs "{{key}} is not specified" and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsPythonRuntime:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the Python runtime of TensorRT-LLM treats it as unset, without a word, and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsPythonRuntimeOwn:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the Python runtime of TensorRT-LLM treats it as unset, without a word, and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsBls:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the BLS model treats it as unset and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsBlsOwn:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the BLS model treats it as unset and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      guidedDecodingOff:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend turns guided decoding off, without a word; fill it (tritonc fill CONFIG "{{name}}:<value>"); keep the key, which the backend requires',
      tokenizerDirUnused:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend does not use its value (guided decoding reads xgrammar_tokenizer_info_path); fill it (tritonc fill CONFIG "{{name}}:<value>"); keep the key, which the backend requires',
      literalValue:
        'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend takes the literal text as the value; fill it (tritonc fill CONFIG "{{name}}:<value>") or remove the parameter',
      literal:
        '{{field}} holds the unfilled placeholder {{placeholder}}, which Triton reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      literalParameter:
        'parameter {{key}} holds the unfilled placeholder {{placeholder}}, which the {{backend}} backend reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      literalParameterUnknownBackend: `parameter {{key}} holds the unfilled placeholder {{placeholder}}, which the model's backend reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"`,
    },
  },
  check(ctx) {
    // Most configs hold no placeholder at all: one scan of the text, not a walk of every value.
    if (!ctx.doc.text.includes('${')) return;
    const backend = settledBackend(ctx).backend;
    const params = ctx.config.parameters ?? {};
    const text = (k: string): string | undefined => (Object.hasOwn(params, k) ? params[k]!.string_value : undefined);
    const pythonRuntime = trtllmRuntime(backend, params) === 'python-runtime';
    const filled = (k: string) => (text(k) ?? '') !== '' && !UNFILLED_PLACEHOLDER.test(text(k)!);

    for (const [path, value] of placeholderStrings(ctx.config)) {
      const m = UNFILLED_PLACEHOLDER.exec(value);
      if (!m) continue;
      const name = m[1]!;
      const placeholder = m[0];
      const field = path.filter((p) => typeof p === 'string').join('.');
      if (path.length === 1 && (path[0] === 'backend' || path[0] === 'platform')) {
        ctx.report({ path, messageId: 'backend', data: { field, value, name } });
        continue;
      }
      const key = path[0] === 'parameters' ? String(path[1]) : undefined;
      if (key === undefined) {
        ctx.report({ path, messageId: 'literal', severity: 'warning', data: { field, placeholder, value, name } });
        continue;
      }
      const at = { path, data: { key, placeholder, name } };
      if (backend === TENSORRTLLM.name) {
        const p = TRTLLM_PARAMETERS[key];
        if (key === 'gpt_model_type') ctx.report({ ...at, messageId: 'failsModelType' });
        else if ((key === 'gpt_model_path' && !filled('encoder_model_path')) || (key === 'encoder_model_path' && !filled('gpt_model_path'))) {
          // Both engine paths unset: one finding, on the decoder's.
          if (key === 'gpt_model_path' || !('gpt_model_path' in params)) ctx.report({ ...at, messageId: 'failsEnginePaths' });
        } else if (key.startsWith('lookahead_') && text('decoding_mode') === 'lookahead') ctx.report({ ...at, messageId: 'failsLookahead' });
        // Guided decoding's keys must stay in the config, whatever their value (model_instance_state.cc:410-453).
        else if (key === 'guided_decoding_backend' || key === 'xgrammar_tokenizer_info_path') {
          if (guidedDecodingOff(text)) ctx.report({ ...at, messageId: 'guidedDecodingOff', severity: 'info' });
        } else if (key === 'tokenizer_dir') ctx.report({ ...at, messageId: 'tokenizerDirUnused', severity: 'info' });
        else if (!p || (p.type === 'string' && p.default === undefined && !p.unset)) ctx.report({ ...at, messageId: 'literalValue', severity: 'warning' });
        else {
          const used = trtllmDefault(key, params);
          if (used === undefined) ctx.report({ ...at, messageId: 'defaultsOwn', severity: 'warning' });
          else ctx.report({ ...at, messageId: 'defaults', severity: 'warning', data: { ...at.data, default: used } });
        }
        continue;
      }
      if (pythonRuntime && key === 'gpt_model_path') {
        // tensorrt_llm/1/model.py initialize: trtllm.Executor(get_parameter(model_config, "gpt_model_path"), ...).
        ctx.report({ ...at, messageId: 'failsEnginePathPythonRuntime' });
        continue;
      }
      if (pythonRuntime && key === 'tokenizer_dir') {
        // get_guided_decoding_config: read only with guided_decoding_backend "xgrammar", and then required.
        if (text('guided_decoding_backend') === 'xgrammar') ctx.report({ ...at, messageId: 'failsTokenizerGuided' });
        else ctx.report({ ...at, messageId: 'unusedPythonRuntime', severity: 'info' });
        continue;
      }
      if (pythonRuntime) {
        // read_parameter_as_type: a value that starts with "${" and ends with "}" is unset.
        const used = trtllmDefault(key, params);
        if (used === undefined) ctx.report({ ...at, messageId: 'defaultsPythonRuntimeOwn', severity: 'warning' });
        else ctx.report({ ...at, messageId: 'defaultsPythonRuntime', severity: 'warning', data: { ...at.data, default: used } });
        continue;
      }
      const tokenizerModel = backend === PYTHON.name && 'tokenizer_dir' in params && !('tensorrt_llm_model_name' in params);
      if (tokenizerModel && key === 'tokenizer_dir') {
        // preprocessing / postprocessing model.py: AutoTokenizer.from_pretrained(tokenizer_dir, ...).
        ctx.report({ ...at, messageId: 'failsTokenizer', data: { ...at.data, value } });
        continue;
      }
      if (tokenizerModel && TOKENIZER_MODEL_KEYS.has(key)) {
        // preprocessing initialize: multimodal_model_path of exactly "${multimodal_model_path}" (or "")
        // is None; any other value is a directory whose config.json it opens, and then gpt_model_path's.
        const mmPath = text('multimodal_model_path') ?? '';
        const multimodal = mmPath !== '' && mmPath !== '${multimodal_model_path}';
        if (key === 'multimodal_model_path') {
          if (!multimodal) ctx.report({ ...at, messageId: 'unsetMultimodal', severity: 'info' });
          else ctx.report({ ...at, messageId: 'failsMultimodalPath', data: { ...at.data, value } });
        } else if (key === 'gpt_model_path') {
          if (multimodal) ctx.report({ ...at, messageId: 'failsPreprocessingEngine', data: { ...at.data, value } });
          else ctx.report({ ...at, messageId: 'unusedPreprocessing', severity: 'info' });
        } else if (key === 'max_num_images') ctx.report({ ...at, messageId: 'defaultsMaxImages', severity: 'warning' });
        // add_special_tokens (preprocessing), skip_special_tokens (postprocessing): not a boolean spelling, so True.
        else
          ctx.report({
            ...at,
            messageId: 'defaultsTokens',
            severity: 'warning',
            data: { ...at.data, model: key === 'add_special_tokens' ? 'preprocessing' : 'postprocessing' },
          });
        continue;
      }
      if (backend === PYTHON.name && 'tensorrt_llm_model_name' in params) {
        // tensorrt_llm_bls model.py get_valid_param_value: a value starting with "${" is the default.
        if (key === 'tensorrt_llm_model_name')
          ctx.report({ ...at, messageId: 'defaultsBls', severity: 'warning', data: { ...at.data, default: '"tensorrt_llm"' } });
        else ctx.report({ ...at, messageId: 'defaultsBlsOwn', severity: 'warning' });
        continue;
      }
      const data = { key, field: `parameter ${key}`, placeholder, value, name };
      if (backend && !backend.includes('$')) ctx.report({ path, messageId: 'literalParameter', severity: 'warning', data: { ...data, backend } });
      else ctx.report({ path, messageId: 'literalParameterUnknownBackend', severity: 'warning', data });
    }
  },
});

// `${name}` left in a config's strings: fill_template.py fills with string.Template.safe_substitute,
// which leaves every placeholder it was not given in place (tensorrtllm_backend tools/fill_template.py
// main). Triton and the backends then read the literal text. What that does depends on where it
// stands, so the finding says it: a backend named "${triton_backend}" fails the load; the tensorrtllm
// backend fails on some keys and silently uses the default for most (src/triton/tensorrtllm-parameters.ts);
// the Python runtime of TensorRT-LLM and the BLS model treat a placeholder as unset; preprocessing and
// postprocessing hand tokenizer_dir to Hugging Face as a path. (A placeholder outside a string breaks
// the parse: the syntax rule says so.)
import type { PathSegment } from '../../../diagnostics.js';
import { TRTLLM_PARAMETERS, UNFILLED_PLACEHOLDER, guidedDecodingOff, trtllmDefault, trtllmRuntime } from '../../../triton/tensorrtllm-parameters.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';

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
      backend: '{{field}} "{{value}}" is an unfilled template placeholder, so Triton looks for a backend of that name and fails the load; fill it (tritonc fill CONFIG "{{name}}:<backend>"), or write the backend',
      failsModelType: 'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching."); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsEnginePaths: 'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Both encoder and decoder model paths are empty"); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsLookahead: 'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the tensorrtllm backend fails the load on it ("Decoding mode is set to lookahead but lookahead parameters are not specified."); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      failsTokenizer: 'parameter {{key}} is the unfilled placeholder {{placeholder}}, and the Python model fails the load on it ("Hugging Face cannot load a tokenizer from \"{{value}}\""); fill it: tritonc fill CONFIG "{{name}}:<value>"',
      defaults: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsOwn: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend logs "{{key}} is not specified" and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsPythonRuntime: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the Python runtime of TensorRT-LLM treats it as unset, without a word, and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsPythonRuntimeOwn: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the Python runtime of TensorRT-LLM treats it as unset, without a word, and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsBls: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the BLS model treats it as unset and uses {{default}}; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      defaultsBlsOwn: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the BLS model treats it as unset and uses its default; fill it (tritonc fill CONFIG "{{name}}:<value>"), or remove the parameter to use the default on purpose',
      guidedDecodingOff: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend turns guided decoding off, without a word; fill it (tritonc fill CONFIG "{{name}}:<value>"); keep the key, which the backend requires',
      tokenizerDirUnused: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend does not use its value (guided decoding reads xgrammar_tokenizer_info_path); fill it (tritonc fill CONFIG "{{name}}:<value>"); keep the key, which the backend requires',
      literalValue: 'parameter {{key}} is the unfilled placeholder {{placeholder}}: the tensorrtllm backend takes the literal text as the value; fill it (tritonc fill CONFIG "{{name}}:<value>") or remove the parameter',
      literal: '{{field}} holds the unfilled placeholder {{placeholder}}, which Triton reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      literalParameter: 'parameter {{key}} holds the unfilled placeholder {{placeholder}}, which the {{backend}} backend reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"',
      literalParameterUnknownBackend: `parameter {{key}} holds the unfilled placeholder {{placeholder}}, which the model's backend reads as the literal text "{{value}}"; fill it: tritonc fill CONFIG "{{name}}:<value>"`,
    },
  },
  check(ctx) {
    // Most configs hold no placeholder at all: one scan of the text, not a walk of every value.
    if (!ctx.doc.text.includes('${')) return;
    const backend = settledBackend(ctx).backend;
    const params = ctx.config.parameters ?? {};
    const text = (k: string): string | undefined => (Object.hasOwn(params, k) ? params[k]!.string_value : undefined);
    const pythonRuntime = trtllmRuntime(backend, params) === 'python';
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
      if (backend === 'tensorrtllm') {
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
      if (pythonRuntime) {
        // read_parameter_as_type: a value that starts with "${" and ends with "}" is unset.
        const used = trtllmDefault(key, params);
        if (used === undefined) ctx.report({ ...at, messageId: 'defaultsPythonRuntimeOwn', severity: 'warning' });
        else ctx.report({ ...at, messageId: 'defaultsPythonRuntime', severity: 'warning', data: { ...at.data, default: used } });
        continue;
      }
      if (backend === 'python' && key === 'tokenizer_dir' && !('tensorrt_llm_model_name' in params)) {
        // preprocessing / postprocessing model.py: AutoTokenizer.from_pretrained(tokenizer_dir, ...).
        ctx.report({ ...at, messageId: 'failsTokenizer', data: { ...at.data, value } });
        continue;
      }
      if (backend === 'python' && 'tensorrt_llm_model_name' in params) {
        // tensorrt_llm_bls model.py get_valid_param_value: a value starting with "${" is the default.
        if (key === 'tensorrt_llm_model_name') ctx.report({ ...at, messageId: 'defaultsBls', severity: 'warning', data: { ...at.data, default: '"tensorrt_llm"' } });
        else ctx.report({ ...at, messageId: 'defaultsBlsOwn', severity: 'warning' });
        continue;
      }
      const data = { key, field: `parameter ${key}`, placeholder, value, name };
      if (backend && !backend.includes('$')) ctx.report({ path, messageId: 'literalParameter', severity: 'warning', data: { ...data, backend } });
      else ctx.report({ path, messageId: 'literalParameterUnknownBackend', severity: 'warning', data });
    }
  },
});

// The model-level parameters the Python backend reads itself (python_backend src/python_be.cc
// ModelState::ModelState @ r24.10, the same at r26.07): FORCE_CPU_ONLY_INPUT_TENSORS must be "yes" or
// "no" when it is there; any other value, an empty one included (a parameter written without a value:
// core gives the backend string_value ""), fails the load with "Incorrect value for
// FORCE_CPU_ONLY_INPUT_TENSORS: <value>'" (the stray quote is Triton's). The real 2.51 answers so for
// `parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS" }` and for `value: { string_value: "" }`. The same
// code runs for a Python-based backend's model (vLLM's): its ModelState is the Python backend's.
import { quoteString } from '../../../pbtxt/scalars.js';
import { UNFILLED_PLACEHOLDER } from '../../../triton/backends/tensorrtllm/parameters.js';
import { settledBackend } from '../../backend.js';
import { backendRecord } from '../../../triton/backend-records.js';
import { defineModelRule } from '../../rule.js';

const KEY = 'FORCE_CPU_ONLY_INPUT_TENSORS';
const VALUES = ['yes', 'no'];

export const pythonParameters = defineModelRule({
  meta: {
    id: 'python-parameters',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'The parameters the Python backend reads itself must have values it takes',
    prevents: ["Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS: <value>'"],
    messages: {
      noValue: `parameter "{{key}}" has no value, and the Python backend takes only "yes" or "no", so it fails the load ("Incorrect value for {{key}}: '"); give it a value, value: { string_value: "yes" } (inputs always in CPU memory) or "no", or remove it`,
      badValue: `{{key}} "{{value}}" is neither "yes" nor "no", so the Python backend fails the load ("Incorrect value for {{key}}: {{value}}'"); write "yes" (inputs always in CPU memory) or "no"`,
      badValueSuggest: `{{key}} "{{value}}" is neither "yes" nor "no", so the Python backend fails the load ("Incorrect value for {{key}}: {{value}}'"); did you mean "{{suggestion}}"?`,
    },
  },
  check(ctx) {
    // The Python backend's ModelState reads it, for every backend that runs on it (its record says).
    if (!backendRecord(settledBackend(ctx).backend)?.pythonBased) return;
    const entry = ctx.config.parameters?.[KEY];
    if (!entry) return;
    const value = entry.string_value ?? '';
    if (VALUES.includes(value) || UNFILLED_PLACEHOLDER.test(value)) return;
    if (value === '') {
      ctx.report({
        path: entry.string_value !== undefined ? ['parameters', KEY, 'string_value'] : ['parameters', KEY],
        messageId: 'noValue',
        data: { key: KEY },
      });
      return;
    }
    const path = ['parameters', KEY, 'string_value'];
    // The same word in another case is certainly meant; true/false and the like probably, not certainly.
    const lower = value.trim().toLowerCase();
    const meant = VALUES.includes(lower) ? lower : ['true', '1', 'on'].includes(lower) ? 'yes' : ['false', '0', 'off'].includes(lower) ? 'no' : undefined;
    if (!meant) {
      ctx.report({ path, messageId: 'badValue', data: { key: KEY, value } });
      return;
    }
    const edit = { description: `set ${KEY} to "${meant}"`, edits: [ctx.edits.replaceValue(path, quoteString(meant))] };
    ctx.report({
      path,
      messageId: 'badValueSuggest',
      data: { key: KEY, value, suggestion: meant },
      ...(VALUES.includes(lower) ? { fix: edit } : { suggest: [edit] }),
    });
  },
});

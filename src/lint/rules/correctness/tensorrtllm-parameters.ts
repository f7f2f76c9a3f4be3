// The parameters of a TensorRT-LLM model as its backend reads them (src/triton/backends/tensorrtllm/parameters.ts
// has the table, with the backend's source lines): keys it requires, enum values outside their sets,
// booleans, numbers and lists it cannot read (most silently become the default), values the executor
// refuses, keys it never reads. Both runtimes: the C++ backend (`backend: "tensorrtllm"`) and the
// Python-runtime model (`backend: "python"` with the same template), where the reading differs.
// Placeholders left by fill_template.py are unfilled-placeholder's. What the backend reads depends on its
// TensorRT-LLM version: the one the target's trtllm image bundles (triton/backends/tensorrtllm/bundled.ts),
// unless the rule's `release` option names another.
import { z } from 'zod';
import type { PathSegment } from '../../../diagnostics.js';
import { didYouMean } from '../../../pbtxt/suggest.js';
import {
  PYTHON_RUNTIME_ENUMS,
  TRTLLM_BOOL_SPELLINGS,
  TRTLLM_PARAMETERS,
  braceGroupsProblem,
  UNFILLED_PLACEHOLDER,
  leadingNumber,
  trtllmRuntime,
  readIn,
  TRTLLM_RELEASES,
  trtllmDefault,
  type TrtllmParameter,
} from '../../../triton/backends/tensorrtllm/parameters.js';
import { firstReleaseWith, lastReleaseBefore, trtllmVersionIn } from '../../../triton/backends/tensorrtllm/bundled.js';
import { NEWEST_RELEASE, RELEASES } from '../../../triton/releases/catalog.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';

const LOGITS_OUTPUTS = ['generation_logits', 'context_logits'];
const LOGITS_TYPES = ['TYPE_FP32', 'TYPE_FP16'];

const options = z.strictObject({
  release: z
    .enum(TRTLLM_RELEASES)
    .optional()
    .describe(
      "The TensorRT-LLM release of the server's backend (e.g. 0.9.0, as the Llava tutorial pins). Unset: the one the Triton target's trtllm image bundles (--triton-version, the `triton` setting).",
    ),
});
type Options = z.infer<typeof options>;

export const tensorrtllmParameters = defineModelRule<Options>({
  meta: {
    id: 'tensorrtllm-parameters',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A TensorRT-LLM model's parameters must be ones its backend reads, with values it can read",
    prevents: [
      'unexpected error when creating modelInstanceState: Cannot find parameter with name: <key>',
      'Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching.',
      'Both encoder and decoder model paths are empty',
      'Decoding mode is set to lookahead but lookahead parameters are not specified. Please set parameters lookahead_window_size, lookahead_ngram_size, and lookahead_verification_set_size.',
      '<key> is not specified, will use default value of <default>',
      'Cannot convert <value> to a boolean.',
      "<key> value of '<value>' is not supported.",
    ],
    options,
    messages: {
      notInRelease: `the tensorrtllm backend of TensorRT-LLM {{release}} does not read parameter "{{key}}" (read from {{since}} on): it is ignored there; remove it, or tell tritonc the Triton you run (--triton-version, e.g. {{firstRelease}}-trtllm-python-py3, the first release whose image bundles TensorRT-LLM {{since}}, or the rule's release option)`,
      missingRequired: `parameters has no "{{key}}": the tensorrtllm backend fails the load ("unexpected error when creating modelInstanceState: Cannot find parameter with name: {{key}}"); add parameters { key: "{{key}}" value: { string_value: "{{example}}" } }`,
      missingRequiredSince: `parameters has no "{{key}}": the tensorrtllm backend of TensorRT-LLM {{release}} fails the load ("unexpected error when creating modelInstanceState: Cannot find parameter with name: {{key}}"), as every release from {{since}} on does; add parameters { key: "{{key}}" value: { string_value: "" } }, or tell tritonc the Triton you run if it bundles an older TensorRT-LLM (--triton-version, e.g. {{olderRelease}}-trtllm-python-py3)`,
      noEnginePath: `neither gpt_model_path nor encoder_model_path is set, so the tensorrtllm backend has no engine and fails the load ("Both encoder and decoder model paths are empty"); set gpt_model_path to the engine directory`,
      modelTypeFails: `{{key}} "{{value}}" is not one of {{values}}, so the tensorrtllm backend fails the load ("Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching.")`,
      modelTypeFailsSuggest: `{{key}} "{{value}}" is not one of {{values}}, so the tensorrtllm backend fails the load ("Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching."); did you mean "{{suggestion}}"?`,
      guidedDecodingFails: `{{key}} "{{value}}" is not one of {{values}}, so the tensorrtllm backend fails the load ("Guided decoding is currently supported with 'xgrammar' backend. Invalid guided_decoding_backend parameter provided.")`,
      guidedDecodingFailsSuggest: `{{key}} "{{value}}" is not one of {{values}}, so the tensorrtllm backend fails the load ("Guided decoding is currently supported with 'xgrammar' backend. Invalid guided_decoding_backend parameter provided."); did you mean "{{suggestion}}"?`,
      enumFailsPython: `{{key}} "{{value}}" is not one of {{values}}, so the Python runtime of TensorRT-LLM fails the load ("{{key}} value of '{{value}}' is not supported.")`,
      enumFailsPythonSuggest: `{{key}} "{{value}}" is not one of {{values}}, so the Python runtime of TensorRT-LLM fails the load ("{{key}} value of '{{value}}' is not supported."); did you mean "{{suggestion}}"?`,
      enumDefaults: `{{key}} "{{value}}" is not one of {{values}} (compared exactly, case included): the tensorrtllm backend logs a warning and uses {{default}}`,
      enumDefaultsSuggest: `{{key}} "{{value}}" is not one of {{values}} (compared exactly, case included): the tensorrtllm backend logs a warning and uses {{default}}; did you mean "{{suggestion}}"?`,
      boolDefaults: `{{key}} "{{value}}" is not a boolean the tensorrtllm backend reads ("Cannot convert {{value}} to a boolean."): it logs "{{key}} is not specified" and uses {{default}}; write "true" or "false"`,
      boolReadFalse: `{{key}} "{{value}}" is read as false by the Python runtime (it takes only "1" and "true", in any case, as true); write "true" or "false"`,
      numberDefaults: `{{key}} "{{value}}" is not a number: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; write a number`,
      numberDefaultsOwn: `{{key}} "{{value}}" is not a number: the tensorrtllm backend logs "{{key}} is not specified" and uses its default; write a number`,
      numberFails: `{{key}} "{{value}}" is not a number, so the Python runtime of TensorRT-LLM fails the load (its warning calls pb_utils.Logger.log_warning, which python_backend does not have); write a number`,
      numberPartial: `{{key}} "{{value}}" is read as {{read}}: the tensorrtllm backend reads the leading number and ignores "{{rest}}"; write "{{read}}"`,
      negativeWraps: `{{key}} "{{value}}" is negative: the tensorrtllm backend reads it as an unsigned number, which wraps around to {{wrapped}}; write a number of 0 or more`,
      fractionOutOfRange: `{{key}} {{value}} must be between {{min}} and {{max}} (both excluded): TensorRT-LLM's executor refuses it and the model fails to load; for a share of free GPU memory write e.g. "0.9"`,
      notPositive: `{{key}} {{value}} must be greater than {{min}}: TensorRT-LLM's executor refuses it and the model fails to load; write a value greater than {{min}}`,
      belowMinimum: `{{key}} {{value}} must be at least {{min}}: TensorRT-LLM's executor refuses it and the model fails to load; write a value at least {{min}}`,
      intListDefaults: `{{key}} "{{value}}" is not a comma-separated list of integers: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; write it as "4096,4096"`,
      // gpu_device_ids and participant_ids: unset, the backend uses every visible GPU, and chooses the participants itself.
      gpuDeviceIdsDefaults: `{{key}} "{{value}}" is not comma-separated ids, one group per instance separated by ";": the tensorrtllm backend logs "{{key}} is not specified" and uses every visible GPU; write it as "0,1;2,3"`,
      participantIdsDefaults: `{{key}} "{{value}}" is not comma-separated ids, one group per instance separated by ";": the tensorrtllm backend logs "{{key}} is not specified" and uses ids it chooses itself; write it as "0,1;2,3"`,
      // {{default}}: the Medusa model whose choices are the default (TRTLLM_PARAMETERS).
      bracesNoGroupDefaults: `{{key}} "{{value}}" is not groups of integers in braces (no {...} group): the tensorrtllm backend logs "{{key}} is not specified" and uses the {{default}} choices; write it as "{0, 0, 0}, {0, 1}"`,
      bracesOutsideDefaults: `{{key}} "{{value}}" is not groups of integers in braces (text outside the {...} groups ({{text}}) is dropped): the tensorrtllm backend logs "{{key}} is not specified" and uses the {{default}} choices; write it as "{0, 0, 0}, {0, 1}"`,
      bracesNotIntsDefaults: `{{key}} "{{value}}" is not groups of integers in braces (group {{group}} is not a list of integers): the tensorrtllm backend logs "{{key}} is not specified" and uses the {{default}} choices; write it as "{0, 0, 0}, {0, 1}"`,
      intListFails: `{{key}} "{{value}}" is not a comma-separated list of integers, so the Python runtime fails the load (int() of each item raises ValueError); write it as "4096,4096"`,
      gpuListFails: `{{key}} "{{value}}" is not one comma-separated list of GPU ids (the Python runtime takes no ";" groups), so the Python runtime fails the load (int() of each item raises ValueError); write it as "0,1"`,
      bracesNoGroupFails: `{{key}} "{{value}}" is not groups of integers in braces (no {...} group), so the Python runtime fails the load ("Invalid format for {{key}}"); write it as "{0, 0, 0}, {0, 1}"`,
      bracesOutsideFails: `{{key}} "{{value}}" is not groups of integers in braces (text outside the {...} groups ({{text}}) is dropped), so the Python runtime fails the load ("Invalid format for {{key}}"); write it as "{0, 0, 0}, {0, 1}"`,
      bracesNotIntsFails: `{{key}} "{{value}}" is not groups of integers in braces (group {{group}} is not a list of integers), so the Python runtime fails the load ("Invalid format for {{key}}"); write it as "{0, 0, 0}, {0, 1}"`,
      unknownKey: `the tensorrtllm backend does not read parameter "{{key}}": it is ignored, and what it meant to set keeps its default`,
      unknownKeySuggest: `the tensorrtllm backend does not read parameter "{{key}}": it is ignored, and what it meant to set keeps its default; did you mean "{{suggestion}}"?`,
      unknownKeyPython: `the Python runtime of TensorRT-LLM does not read parameter "{{key}}": it is ignored, and what it meant to set keeps its default`,
      unknownKeyPythonSuggest: `the Python runtime of TensorRT-LLM does not read parameter "{{key}}": it is ignored, and what it meant to set keeps its default; did you mean "{{suggestion}}"?`,
      obsoleteKey: `parameter "{{key}}" is obsolete since v0.10, replaced by executor_worker_path: the tensorrtllm backend ignores it`,
      lookaheadMissing: `decoding_mode is lookahead and {{key}} is missing, so the tensorrtllm backend fails the load ("Decoding mode is set to lookahead but lookahead parameters are not specified. Please set parameters lookahead_window_size, lookahead_ngram_size, and lookahead_verification_set_size."); set all three`,
      lookaheadNotNumber: `decoding_mode is lookahead and {{key}} is "{{value}}", not a number, so the tensorrtllm backend fails the load ("Decoding mode is set to lookahead but lookahead parameters are not specified. Please set parameters lookahead_window_size, lookahead_ngram_size, and lookahead_verification_set_size."); set all three`,
      overlapFails: `enable_trt_overlap is true, and the Python runtime fails the load ("enable_trt_overlap=true is not supported."); set it to false or remove it`,
      logitsType: `output {{name}} is {{type}}: the tensorrtllm backend returns logits only as TYPE_FP32 or TYPE_FP16, and each request that asks for them fails ("Logits type is not supported"); set data_type to the engine's logits type, TYPE_FP32 or TYPE_FP16`,
      logitsMismatch: `output {{name}} is {{type}} and {{other}} is {{otherType}}: the tensorrtllm backend takes the logits type from the first of them and fails every request whose logits are of the other ("Assertion failed: ...LogitsType == model_state_->getLogitsDataType()"); give both the engine's logits type`,
    },
  },
  check(ctx) {
    const backend = settledBackend(ctx).backend;
    const params = ctx.config.parameters ?? {};
    const which = trtllmRuntime(backend, params);
    if (!which) return;
    const python = which === 'python-runtime';
    const text = (key: string): string | undefined => params[key]?.string_value;
    const path = (key: string): PathSegment[] => (params[key]?.string_value !== undefined ? ['parameters', key, 'string_value'] : ['parameters', key]);
    const report = (key: string, r: Parameters<typeof ctx.report>[0]) => ctx.report({ path: path(key), ...r });
    const replaceEdit = (key: string, value: string) => ({
      description: `set ${key} to "${value}"`,
      edits: [ctx.edits.replaceValue(['parameters', key, 'string_value'], JSON.stringify(value))],
    });
    // A spelling the backend's own reading settles ("yes" is true, "12abc" reads 12) is a fix; the
    // nearest enum value by spelling is only a suggestion.
    const replaceFix = (key: string, value: string) => ({ fix: replaceEdit(key, value) });
    const suggestValue = (key: string, value: string) => ({ suggest: [replaceEdit(key, value)] });
    const known = Object.keys(TRTLLM_PARAMETERS);
    const release = ctx.options.release ?? trtllmVersionIn(ctx.settings.server.target.release);

    // Keys the backend must find.
    if (!python) {
      for (const [key, p] of Object.entries(TRTLLM_PARAMETERS)) {
        if (!p.required || key in params || !readIn(p, release)) continue;
        const path = ctx.config.parameters ? ['parameters'] : [];
        if (p.since)
          ctx.report({
            path,
            messageId: 'missingRequiredSince',
            data: { key, release, since: p.since, olderRelease: lastReleaseBefore(p.since) ?? RELEASES[0]!.container },
          });
        else ctx.report({ path, messageId: 'missingRequired', data: { key, example: key === 'gpt_model_type' ? 'inflight_fused_batching' : '' } });
      }
      const set = (k: string) => (text(k) ?? '') !== '';
      if (
        !set('gpt_model_path') &&
        !set('encoder_model_path') &&
        !['gpt_model_path', 'encoder_model_path'].some((k) => UNFILLED_PLACEHOLDER.test(text(k) ?? ''))
      ) {
        ctx.report({ path: 'gpt_model_path' in params ? path('gpt_model_path') : ctx.config.parameters ? ['parameters'] : [], messageId: 'noEnginePath' });
      }
    }

    for (const [key, entry] of Object.entries(params)) {
      const p = TRTLLM_PARAMETERS[key];
      const value = entry.string_value ?? '';
      if (!p) {
        // BLS, preprocessing and postprocessing keys live in their own models; here they are unknown.
        const close = didYouMean(key, known);
        if (close) report(key, { messageId: python ? 'unknownKeyPythonSuggest' : 'unknownKeySuggest', severity: 'warning', data: { key, suggestion: close } });
        else report(key, { messageId: python ? 'unknownKeyPython' : 'unknownKey', severity: 'warning', data: { key } });
        continue;
      }
      if (!python && !readIn(p, release)) {
        report(key, {
          messageId: 'notInRelease',
          severity: 'warning',
          data: { key, release, since: p.since!, firstRelease: firstReleaseWith(p.since!) ?? NEWEST_RELEASE.container },
        });
        continue;
      }
      if (p.unread) {
        if (key === 'worker_path') report(key, { messageId: 'obsoleteKey', severity: 'warning', data: { key } });
        continue;
      }
      // fill_template.py's leftovers: unfilled-placeholder says what each does.
      if (UNFILLED_PLACEHOLDER.test(value)) continue;
      // Python's read_parameter_as_type: "" is unset there; in C++ "" fails to parse like any bad value.
      if (python && value === '') continue;
      // A value (trtllmDefault); undefined where the backend has none of its own. Every enum, bool,
      // int-list and brace-groups key the backend falls back on has one (tensorrtllm-parameters.test.ts).
      const fallback = trtllmDefault(key, params);
      const lookahead = key.startsWith('lookahead_');
      if (lookahead && text('decoding_mode') !== 'lookahead') continue;

      switch (p.type) {
        case 'enum': {
          const pyValues = PYTHON_RUNTIME_ENUMS[key];
          if (python && pyValues) {
            if (pyValues.includes(value.toLowerCase())) break;
            const close = didYouMean(value, pyValues);
            const data = { key, value, values: pyValues.join(', ') };
            if (close) report(key, { messageId: 'enumFailsPythonSuggest', severity: 'error', data: { ...data, suggestion: close } });
            else report(key, { messageId: 'enumFailsPython', severity: 'error', data });
            break;
          }
          if (python || p.values!.includes(value)) break;
          const close = didYouMean(value, p.values!);
          // The same value in another case is certainly meant (a fix); a nearest spelling may not be.
          const fix = !close ? {} : close.toLowerCase() === value.toLowerCase() ? replaceFix(key, close) : suggestValue(key, close);
          const data = { key, value, values: p.values!.join(', ') };
          if (key === 'gpt_model_type') {
            if (close) report(key, { messageId: 'modelTypeFailsSuggest', severity: 'error', data: { ...data, suggestion: close }, ...fix });
            else report(key, { messageId: 'modelTypeFails', severity: 'error', data });
          } else if (key === 'guided_decoding_backend') {
            // Off when the info path is unset; else the backend refuses anything but xgrammar.
            if (value !== '' && (text('xgrammar_tokenizer_info_path') ?? '') !== '' && !UNFILLED_PLACEHOLDER.test(text('xgrammar_tokenizer_info_path')!)) {
              if (close)
                report(key, { messageId: 'guidedDecodingFailsSuggest', severity: 'error', data: { ...data, values: 'xgrammar', suggestion: close }, ...fix });
              else report(key, { messageId: 'guidedDecodingFails', severity: 'error', data: { ...data, values: 'xgrammar' } });
            }
          } else if (close)
            report(key, { messageId: 'enumDefaultsSuggest', severity: 'warning', data: { ...data, default: fallback!, suggestion: close }, ...fix });
          else report(key, { messageId: 'enumDefaults', severity: 'warning', data: { ...data, default: fallback! } });
          break;
        }
        case 'bool': {
          if (python) {
            if (key === 'enable_trt_overlap' && ['1', 'true'].includes(value.toLowerCase())) report(key, { messageId: 'overlapFails', severity: 'error' });
            else if (!['1', 'true', '0', 'false'].includes(value.toLowerCase()))
              report(key, { messageId: 'boolReadFalse', severity: 'warning', data: { key, value } });
            break;
          }
          if (TRTLLM_BOOL_SPELLINGS.includes(value)) break;
          const lower = value.trim().toLowerCase();
          const meant = ['true', 'yes', 'on', 't', 'y'].includes(lower) ? 'true' : ['false', 'no', 'off', 'f', 'n'].includes(lower) ? 'false' : undefined;
          report(key, { messageId: 'boolDefaults', severity: 'warning', data: { key, value, default: fallback! }, ...(meant ? replaceFix(key, meant) : {}) });
          break;
        }
        case 'int':
        case 'uint':
        case 'float': {
          const kind = p.type === 'float' ? 'float' : 'int';
          if (python) {
            // int() / float() of the whole text (spaces around allowed); a failure calls the missing
            // pb_utils.Logger.log_warning (python_backend src/pb_stub.cc binds only log_info, log_warn,
            // log_error, log_verbose), whose AttributeError fails initialize().
            const ok =
              kind === 'int' ? /^\s*[+-]?\d+\s*$/.test(value) : /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$|^\s*[+-]?(inf|infinity|nan)\s*$/i.test(value);
            if (!ok) report(key, { messageId: 'numberFails', severity: 'error', data: { key, value } });
            else checkRange(key, p, Number(value));
            break;
          }
          const n = leadingNumber(value, kind);
          if (!n) {
            if (lookahead) report(key, { messageId: 'lookaheadNotNumber', severity: 'error', data: { key, value } });
            else if (fallback === undefined) report(key, { messageId: 'numberDefaultsOwn', severity: 'warning', data: { key, value } });
            else report(key, { messageId: 'numberDefaults', severity: 'warning', data: { key, value, default: fallback } });
            break;
          }
          if (p.type === 'uint' && n.value < 0) {
            report(key, {
              messageId: 'negativeWraps',
              severity: lookahead ? 'error' : 'warning',
              data: { key, value, wrapped: (2n ** (key.endsWith('_bytes') ? 64n : 32n) + BigInt(Math.trunc(n.value))).toString() },
            });
            break;
          }
          if (n.rest.trim()) {
            const read = String(n.value);
            report(key, { messageId: 'numberPartial', severity: 'warning', data: { key, value, read, rest: n.rest }, ...replaceFix(key, read) });
          }
          checkRange(key, p, n.value);
          break;
        }
        case 'int-list': {
          const items = value.split(',');
          const ok = value.trim() !== '' && items.every((i) => /^\s*[+-]?\d+/.test(i));
          if (!ok) {
            if (python) report(key, { messageId: 'intListFails', severity: 'error', data: { key, value } });
            else report(key, { messageId: 'intListDefaults', severity: 'warning', data: { key, value, default: fallback! } });
          } else for (const i of items) checkRange(key, p, Number(/^\s*([+-]?\d+)/.exec(i)![1]));
          break;
        }
        case 'int-groups': {
          if (python) {
            if (!/^\s*\d+\s*(,\s*\d+\s*)*$/.test(value)) report(key, { messageId: 'gpuListFails', severity: 'error', data: { key, value } });
            break;
          }
          if (value !== '' && !value.split(';').every((g) => /^\s*\d+(\s*,\s*\d+)*\s*$/.test(g)))
            report(key, {
              messageId: key === 'participant_ids' ? 'participantIdsDefaults' : 'gpuDeviceIdsDefaults',
              severity: 'warning',
              data: { key, value },
            });
          break;
        }
        case 'brace-groups': {
          const problem = braceGroupsProblem(value);
          if (!problem) break;
          const mode = key === 'medusa_choices' ? 'medusa' : 'eagle';
          const data = {
            key,
            value,
            ...(problem.kind === 'textOutside' ? { text: problem.text } : problem.kind === 'notIntegers' ? { group: problem.group } : {}),
          };
          if (python) {
            const messageId = problem.kind === 'noGroup' ? 'bracesNoGroupFails' : problem.kind === 'textOutside' ? 'bracesOutsideFails' : 'bracesNotIntsFails';
            report(key, { messageId, severity: 'error', data: { text: '', group: '', ...data } });
          } else {
            const messageId =
              problem.kind === 'noGroup' ? 'bracesNoGroupDefaults' : problem.kind === 'textOutside' ? 'bracesOutsideDefaults' : 'bracesNotIntsDefaults';
            report(key, {
              messageId,
              severity: text('decoding_mode') === mode ? 'warning' : 'info',
              data: { text: '', group: '', ...data, default: fallback! },
            });
          }
          break;
        }
        case 'string':
          break;
      }
    }

    // Lookahead decoding needs all three sizes (model_instance_state.cc:627-647).
    if (!python && text('decoding_mode') === 'lookahead') {
      for (const key of ['lookahead_window_size', 'lookahead_ngram_size', 'lookahead_verification_set_size'])
        if (!(key in params)) ctx.report({ path: path('decoding_mode'), messageId: 'lookaheadMissing', severity: 'error', data: { key } });
    }

    // The logits outputs (model_state.cc:77-93: the first of them sets the type).
    const outputs = (ctx.config.output ?? []).map((o, i) => ({ o, i })).filter(({ o }) => LOGITS_OUTPUTS.includes(o.name ?? ''));
    for (const { o, i } of outputs) {
      const type = o.data_type ?? 'TYPE_INVALID';
      if (typeof type === 'string' && !LOGITS_TYPES.includes(type))
        ctx.report({ path: ['output', i, 'data_type'], messageId: 'logitsType', severity: 'warning', data: { name: o.name!, type } });
    }
    const [first, second] = outputs;
    if (
      !python &&
      first &&
      second &&
      first.o.data_type !== second.o.data_type &&
      LOGITS_TYPES.includes(String(first.o.data_type)) &&
      LOGITS_TYPES.includes(String(second.o.data_type))
    )
      ctx.report({
        path: ['output', second.i, 'data_type'],
        messageId: 'logitsMismatch',
        severity: 'warning',
        data: { name: second.o.name!, type: String(second.o.data_type), other: first.o.name!, otherType: String(first.o.data_type) },
      });

    function checkRange(key: string, p: TrtllmParameter, n: number): void {
      const low = p.minExclusive !== undefined ? n <= p.minExclusive : p.min !== undefined && n < p.min;
      const high = p.maxExclusive !== undefined && n >= p.maxExclusive;
      if (!low && !high) return;
      // The table's two-sided ranges are the fractions (0, 1) of GPU memory.
      if (p.minExclusive !== undefined && p.maxExclusive !== undefined)
        report(key, { messageId: 'fractionOutOfRange', severity: 'error', data: { key, value: n, min: p.minExclusive, max: p.maxExclusive } });
      else if (p.minExclusive !== undefined) report(key, { messageId: 'notPositive', severity: 'error', data: { key, value: n, min: p.minExclusive } });
      else report(key, { messageId: 'belowMinimum', severity: 'error', data: { key, value: n, min: p.min! } });
    }
  },
});

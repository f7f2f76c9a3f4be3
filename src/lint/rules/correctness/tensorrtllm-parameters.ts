// The parameters of a TensorRT-LLM model as its backend reads them (src/triton/tensorrtllm-parameters.ts
// has the table, with the backend's source lines): keys it requires, enum values outside their sets,
// booleans, numbers and lists it cannot read (most silently become the default), values the executor
// refuses, keys it never reads. Both runtimes: the C++ backend (`backend: "tensorrtllm"`) and the
// Python-runtime model (`backend: "python"` with the same template), where the reading differs.
// Placeholders left by fill_template.py are unfilled-placeholder's.
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
  type TrtllmParameter,
} from '../../../triton/tensorrtllm-parameters.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';

const LOGITS_OUTPUTS = ['generation_logits', 'context_logits'];
const LOGITS_TYPES = ['TYPE_FP32', 'TYPE_FP16'];

const suggestion = (s: string | undefined): string => (s ? `; did you mean "${s}"?` : '');
const rangeText = (p: TrtllmParameter): string =>
  p.minExclusive !== undefined && p.maxExclusive !== undefined ? `between ${p.minExclusive} and ${p.maxExclusive} (both excluded)` : p.minExclusive !== undefined ? `greater than ${p.minExclusive}` : `at least ${p.min}`;

const options = z.strictObject({
  release: z
    .enum(TRTLLM_RELEASES)
    .optional()
    .describe("The TensorRT-LLM release of the server's backend (e.g. 0.9.0, as the Llava tutorial pins). Unset: the newest, 1.2.0."),
});
type Options = z.infer<typeof options>;
const NEWEST_RELEASE = TRTLLM_RELEASES[TRTLLM_RELEASES.length - 1]!;

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
      '<key> value of \'<value>\' is not supported.',
    ],
    options,
    messages: {
      notInRelease: 'the tensorrtllm backend of TensorRT-LLM {{release}} does not read parameter "{{key}}" (read from {{since}} on): it is ignored there; remove it, or set the rule\'s release to the one the server runs',
      missingRequired: `parameters has no "{{key}}": the {{runtime}} fails the load ("unexpected error when creating modelInstanceState: Cannot find parameter with name: {{key}}"); add parameters { key: "{{key}}" value: { string_value: "{{example}}" } }`,
      noEnginePath: 'neither gpt_model_path nor encoder_model_path is set, so the tensorrtllm backend has no engine and fails the load ("Both encoder and decoder model paths are empty"); set gpt_model_path to the engine directory',
      enumFails: '{{key}} "{{value}}" is not one of {{values}}, so the {{runtime}} fails the load ("{{triton}}"){{suggest}}',
      enumDefaults: '{{key}} "{{value}}" is not one of {{values}} (compared exactly, case included): the tensorrtllm backend logs a warning and uses {{default}}{{suggest}}',
      boolDefaults: '{{key}} "{{value}}" is not a boolean the tensorrtllm backend reads ("Cannot convert {{value}} to a boolean."): it logs "{{key}} is not specified" and uses {{default}}; write "true" or "false"',
      boolReadFalse: '{{key}} "{{value}}" is read as false by the Python runtime (it takes only "1" and "true", in any case, as true); write "true" or "false"',
      numberDefaults: '{{key}} "{{value}}" is not a number: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; write a number',
      numberFails: '{{key}} "{{value}}" is not a number, so the {{runtime}} fails the load{{why}}; write a number',
      numberPartial: '{{key}} "{{value}}" is read as {{read}}: the tensorrtllm backend reads the leading number and ignores "{{rest}}"; write "{{read}}"',
      negativeWraps: '{{key}} "{{value}}" is negative: the tensorrtllm backend reads it as an unsigned number, which wraps around to {{wrapped}}; write a number of 0 or more',
      outOfRange: "{{key}} {{value}} must be {{range}}: TensorRT-LLM's executor refuses it and the model fails to load; {{fix}}",
      listDefaults: '{{key}} "{{value}}" is not {{shape}}: the tensorrtllm backend logs "{{key}} is not specified" and uses {{default}}; write it as {{example}}',
      listFails: '{{key}} "{{value}}" is not {{shape}}, so the Python runtime fails the load{{why}}; write it as {{example}}',
      unknownKey: 'the {{runtime}} does not read parameter "{{key}}": it is ignored, and what it meant to set keeps its default{{suggest}}',
      obsoleteKey: 'parameter "{{key}}" is {{why}}: the tensorrtllm backend ignores it',
      lookaheadMissing: 'decoding_mode is lookahead and {{key}} is {{what}}, so the tensorrtllm backend fails the load ("Decoding mode is set to lookahead but lookahead parameters are not specified. Please set parameters lookahead_window_size, lookahead_ngram_size, and lookahead_verification_set_size."); set all three',
      overlapFails: 'enable_trt_overlap is true, and the Python runtime fails the load ("enable_trt_overlap=true is not supported."); set it to false or remove it',
      logitsType: 'output {{name}} is {{type}}: the tensorrtllm backend returns logits only as TYPE_FP32 or TYPE_FP16, and each request that asks for them fails ("Logits type is not supported"); set data_type to the engine\'s logits type, TYPE_FP32 or TYPE_FP16',
      logitsMismatch: 'output {{name}} is {{type}} and {{other}} is {{otherType}}: the tensorrtllm backend takes the logits type from the first of them and fails every request whose logits are of the other ("Assertion failed: ...LogitsType == model_state_->getLogitsDataType()"); give both the engine\'s logits type',
    },
  },
  check(ctx) {
    const backend = settledBackend(ctx).backend;
    const params = ctx.config.parameters ?? {};
    const which = trtllmRuntime(backend, params);
    if (!which) return;
    const python = which === 'python';
    const runtime = python ? 'Python runtime of TensorRT-LLM' : 'tensorrtllm backend';
    const text = (key: string): string | undefined => params[key]?.string_value;
    const path = (key: string): PathSegment[] => (params[key]?.string_value !== undefined ? ['parameters', key, 'string_value'] : ['parameters', key]);
    const report = (key: string, r: Parameters<typeof ctx.report>[0]) => ctx.report({ path: path(key), ...r });
    const replaceFix = (key: string, value: string) => {
      const edit = ctx.edits.replaceValue(['parameters', key, 'string_value'], JSON.stringify(value));
      return edit ? { fix: { description: `set ${key} to "${value}"`, edits: [edit] } } : {};
    };
    const known = Object.keys(TRTLLM_PARAMETERS);
    const release = ctx.options.release ?? NEWEST_RELEASE;

    // Keys the backend must find.
    if (!python) {
      for (const [key, p] of Object.entries(TRTLLM_PARAMETERS)) {
        if (!p.required || key in params || !readIn(p, release)) continue;
        ctx.report({ path: ctx.config.parameters ? ['parameters'] : [], messageId: 'missingRequired', data: { key, runtime, example: key === 'gpt_model_type' ? 'inflight_fused_batching' : '' } });
      }
      const set = (k: string) => (text(k) ?? '') !== '';
      if (!set('gpt_model_path') && !set('encoder_model_path') && !['gpt_model_path', 'encoder_model_path'].some((k) => UNFILLED_PLACEHOLDER.test(text(k) ?? ''))) {
        ctx.report({ path: 'gpt_model_path' in params ? path('gpt_model_path') : ctx.config.parameters ? ['parameters'] : [], messageId: 'noEnginePath' });
      }
    }

    for (const [key, entry] of Object.entries(params)) {
      const p = TRTLLM_PARAMETERS[key];
      const value = entry.string_value ?? '';
      if (!p) {
        // BLS, preprocessing and postprocessing keys live in their own models; here they are unknown.
        report(key, { messageId: 'unknownKey', severity: 'warning', data: { key, runtime, suggest: suggestion(didYouMean(key, known)) } });
        continue;
      }
      if (!python && !readIn(p, release)) {
        report(key, { messageId: 'notInRelease', severity: 'warning', data: { key, release, since: p.since! } });
        continue;
      }
      if (p.unread) {
        if (key === 'worker_path') report(key, { messageId: 'obsoleteKey', severity: 'warning', data: { key, why: p.unread } });
        continue;
      }
      // fill_template.py's leftovers: unfilled-placeholder says what each does.
      if (UNFILLED_PLACEHOLDER.test(value)) continue;
      // Python's read_parameter_as_type: "" is unset there; in C++ "" fails to parse like any bad value.
      if (python && value === '') continue;
      const fallback = p.default ?? 'its default';
      const lookahead = key.startsWith('lookahead_');
      if (lookahead && text('decoding_mode') !== 'lookahead') continue;

      switch (p.type) {
        case 'enum': {
          const pyValues = PYTHON_RUNTIME_ENUMS[key];
          if (python && pyValues) {
            if (pyValues.includes(value.toLowerCase())) break;
            report(key, { messageId: 'enumFails', severity: 'error', data: { key, value, runtime, values: pyValues.join(', '), triton: `${key} value of '${value}' is not supported.`, suggest: suggestion(didYouMean(value, pyValues)) } });
            break;
          }
          if (python || p.values!.includes(value)) break;
          const close = didYouMean(value, p.values!);
          const fix = close ? replaceFix(key, close) : {};
          if (key === 'gpt_model_type') report(key, { messageId: 'enumFails', severity: 'error', data: { key, value, runtime, values: p.values!.join(', '), triton: 'Invalid gpt_model_type. Must be v1/inflight_batching/inflight_fused_batching.', suggest: suggestion(close) }, ...fix });
          else if (key === 'guided_decoding_backend') {
            // Off when the info path is unset; else the backend refuses anything but xgrammar.
            if (value !== '' && (text('xgrammar_tokenizer_info_path') ?? '') !== '' && !UNFILLED_PLACEHOLDER.test(text('xgrammar_tokenizer_info_path')!))
              report(key, { messageId: 'enumFails', severity: 'error', data: { key, value, runtime, values: 'xgrammar', triton: "Guided decoding is currently supported with 'xgrammar' backend. Invalid guided_decoding_backend parameter provided.", suggest: suggestion(close) }, ...fix });
          } else report(key, { messageId: 'enumDefaults', severity: 'warning', data: { key, value, values: p.values!.join(', '), default: fallback, suggest: suggestion(close) }, ...fix });
          break;
        }
        case 'bool': {
          if (python) {
            if (key === 'enable_trt_overlap' && ['1', 'true'].includes(value.toLowerCase())) report(key, { messageId: 'overlapFails', severity: 'error' });
            else if (!['1', 'true', '0', 'false'].includes(value.toLowerCase())) report(key, { messageId: 'boolReadFalse', severity: 'warning', data: { key, value } });
            break;
          }
          if (TRTLLM_BOOL_SPELLINGS.includes(value)) break;
          const lower = value.trim().toLowerCase();
          const meant = ['true', 'yes', 'on', 't', 'y'].includes(lower) ? 'true' : ['false', 'no', 'off', 'f', 'n'].includes(lower) ? 'false' : undefined;
          report(key, { messageId: 'boolDefaults', severity: 'warning', data: { key, value, default: fallback }, ...(meant ? replaceFix(key, meant) : {}) });
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
            const ok = kind === 'int' ? /^\s*[+-]?\d+\s*$/.test(value) : /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$|^\s*[+-]?(inf|infinity|nan)\s*$/i.test(value);
            if (!ok) report(key, { messageId: 'numberFails', severity: 'error', data: { key, value, runtime, why: ' (its warning calls pb_utils.Logger.log_warning, which python_backend does not have)' } });
            else checkRange(key, p, Number(value));
            break;
          }
          const n = leadingNumber(value, kind);
          if (!n) {
            if (lookahead) report(key, { messageId: 'lookaheadMissing', severity: 'error', data: { key, what: `"${value}", not a number` } });
            else report(key, { messageId: 'numberDefaults', severity: 'warning', data: { key, value, default: fallback } });
            break;
          }
          if (p.type === 'uint' && n.value < 0) {
            report(key, { messageId: 'negativeWraps', severity: lookahead ? 'error' : 'warning', data: { key, value, wrapped: (2n ** (key.endsWith('_bytes') ? 64n : 32n) + BigInt(Math.trunc(n.value))).toString() } });
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
            if (python) report(key, { messageId: 'listFails', severity: 'error', data: { key, value, shape: 'a comma-separated list of integers', why: ' (int() of each item raises ValueError)', example: '"4096,4096"' } });
            else report(key, { messageId: 'listDefaults', severity: 'warning', data: { key, value, shape: 'a comma-separated list of integers', default: fallback, example: '"4096,4096"' } });
          } else for (const i of items) checkRange(key, p, Number(/^\s*([+-]?\d+)/.exec(i)![1]));
          break;
        }
        case 'int-groups': {
          if (python) {
            if (!/^\s*\d+\s*(,\s*\d+\s*)*$/.test(value)) report(key, { messageId: 'listFails', severity: 'error', data: { key, value, shape: 'one comma-separated list of GPU ids (the Python runtime takes no ";" groups)', why: ' (int() of each item raises ValueError)', example: '"0,1"' } });
            break;
          }
          if (value !== '' && !value.split(';').every((g) => /^\s*\d+(\s*,\s*\d+)*\s*$/.test(g)))
            report(key, { messageId: 'listDefaults', severity: 'warning', data: { key, value, shape: 'comma-separated ids, one group per instance separated by ";"', default: fallback, example: '"0,1;2,3"' } });
          break;
        }
        case 'brace-groups': {
          const problem = braceGroupsProblem(value);
          if (!problem) break;
          const mode = key === 'medusa_choices' ? 'medusa' : 'eagle';
          if (python) report(key, { messageId: 'listFails', severity: 'error', data: { key, value, shape: `groups of integers in braces (${problem})`, why: ` ("Invalid format for ${key}")`, example: '"{0, 0, 0}, {0, 1}"' } });
          else report(key, { messageId: 'listDefaults', severity: text('decoding_mode') === mode ? 'warning' : 'info', data: { key, value, shape: `groups of integers in braces (${problem})`, default: fallback, example: '"{0, 0, 0}, {0, 1}"' } });
          break;
        }
        case 'string':
          break;
      }
    }

    // Lookahead decoding needs all three sizes (model_instance_state.cc:627-647).
    if (!python && text('decoding_mode') === 'lookahead') {
      for (const key of ['lookahead_window_size', 'lookahead_ngram_size', 'lookahead_verification_set_size'])
        if (!(key in params)) ctx.report({ path: path('decoding_mode'), messageId: 'lookaheadMissing', severity: 'error', data: { key, what: 'missing' } });
    }

    // The logits outputs (model_state.cc:77-93: the first of them sets the type).
    const outputs = (ctx.config.output ?? []).map((o, i) => ({ o, i })).filter(({ o }) => LOGITS_OUTPUTS.includes(o.name ?? ''));
    for (const { o, i } of outputs) {
      const type = o.data_type ?? 'TYPE_INVALID';
      if (typeof type === 'string' && !LOGITS_TYPES.includes(type)) ctx.report({ path: ['output', i, 'data_type'], messageId: 'logitsType', severity: 'warning', data: { name: o.name!, type } });
    }
    const [first, second] = outputs;
    if (!python && first && second && first.o.data_type !== second.o.data_type && LOGITS_TYPES.includes(String(first.o.data_type)) && LOGITS_TYPES.includes(String(second.o.data_type)))
      ctx.report({ path: ['output', second.i, 'data_type'], messageId: 'logitsMismatch', severity: 'warning', data: { name: second.o.name!, type: String(second.o.data_type), other: first.o.name!, otherType: String(first.o.data_type) } });

    function checkRange(key: string, p: TrtllmParameter, n: number): void {
      const low = p.minExclusive !== undefined ? n <= p.minExclusive : p.min !== undefined && n < p.min;
      const high = p.maxExclusive !== undefined && n >= p.maxExclusive;
      if (!low && !high) return;
      const fix = p.maxExclusive === 1 ? 'for a share of free GPU memory write e.g. "0.9"' : `write a value ${rangeText(p)}`;
      report(key, { messageId: 'outOfRange', severity: 'error', data: { key, value: n, range: rangeText(p), fix } });
    }
  },
});

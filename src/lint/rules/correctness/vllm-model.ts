// A vLLM model (`backend: "vllm"`) as the vLLM backend loads it (vllm_backend src/model.py @ 8de0c148):
// its auto-complete (auto_complete_config, lines 48-160: the I/O, decoupled, max_batch_size 0, each
// through python_backend's helpers, whose ValueError fails the load), then initialize (lines 161-227):
// `text_output` must be declared, the transaction policy decoupled, and <version>/model.json present;
// model.json goes to AsyncEngineArgs(**json) unchanged, so every key must be an engine argument of the
// installed vLLM; then the device check (_validate_device_config, lines 310-335: KIND_GPU serves one GPU)
// and LoRA (_setup_lora, lines 337-359: enable_lora needs multi_lora.json beside model.json).
import { join } from 'node:path';
import { z } from 'zod';
import type { Range } from '../../../diagnostics.js';
import { didYouMean } from '../../../pbtxt/suggest.js';
import { autoCompleteVllm } from '../../../triton/backends/vllm/autocomplete.js';
import { vllmListIn } from '../../../triton/backends/vllm/bundled.js';
import { VLLM_VERSIONS, engineArg, engineArgNames, jsonKind, versionsWith } from '../../../triton/backends/vllm/engine-args.js';
import { parseJsonText, topLevelKeys } from '../../../util/json-text.js';
import { positionAt } from '../../../util/text-position.js';
import { modelName, settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { VLLM } from '../../../triton/backend-records.js';

const options = z.strictObject({
  version: z
    .enum(VLLM_VERSIONS as [string, ...string[]])
    .optional()
    .describe(
      "The vLLM release the server's container has (Triton 25.11: 0.11.0; see the rule's page). Unset: the one the Triton target's vllm image bundles where tritonc has its list; else a key is wrong when no release we know has it.",
    ),
});
type Options = z.infer<typeof options>;

const MODEL_JSON = 'model.json';
const MULTI_LORA = 'multi_lora.json';
const NEWEST = VLLM_VERSIONS[VLLM_VERSIONS.length - 1]!;

export const vllmModel = defineModelRule<Options>({
  meta: {
    id: 'vllm-model',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'A vLLM model must be decoupled, unbatched by Triton, and have a model.json of engine arguments its vLLM knows',
    prevents: [
      "'model.json' containing vllm engine args must be provided in '<dir>'",
      "__init__() got an unexpected keyword argument '<key>'",
      'vLLM Triton backend must be configured to use decoupled model transaction policy',
      "configuration specified max_batch_size <n>, but in auto-complete-config function for model '<name>' specified max_batch_size 0",
      "trying to change decoupled property in auto-complete-config for model '<name>', which is already set to 'False'.",
      "KIND_GPU is currently for single-GPU models, please specify KIND_MODEL in the model's config.pbtxt for multi-GPU models",
      'Triton backend cannot find <dir>/multi_lora.json.',
    ],
    messages: {
      autoCompleteBatch:
        "the vLLM backend's auto-complete refuses this config, so the model does not load (\"configuration specified max_batch_size {{maxBatchSize}}, but in auto-complete-config function for model '{{model}}' specified max_batch_size 0\"); vLLM batches requests itself, and its auto-complete sets max_batch_size 0: remove max_batch_size (or set it to 0)",
      autoCompleteDecoupled:
        "the vLLM backend's auto-complete refuses this config, so the model does not load (\"trying to change decoupled property in auto-complete-config for model '{{model}}', which is already set to 'False'.\"); the vLLM backend streams its responses and must be decoupled: set model_transaction_policy { decoupled: true }, or remove the block",
      notDecoupled:
        'with auto-complete off, the config must say what the vLLM backend requires, and it is not decoupled ("vLLM Triton backend must be configured to use decoupled model transaction policy"); add model_transaction_policy { decoupled: true }',
      noTextOutput:
        'with auto-complete off, the config must declare the vLLM backend\'s output text_output, which its initialize reads first (it fails with "\'NoneType\' object is not subscriptable"); declare output [ { name: "text_output" data_type: TYPE_STRING dims: [ -1 ] } ] and the inputs, or turn auto-complete on',
      noModelJson:
        'version {{version}} has no model.json, so the vLLM backend does not load the model ("\'model.json\' containing vllm engine args must be provided in \'{{dir}}\'"); write {{file}} with the engine arguments, e.g. {"model": "facebook/opt-125m"}',
      badJson:
        'model.json is not valid JSON (line {{line}}, column {{column}}: unexpected {{found}}), so the vLLM backend does not load the model; fix the JSON',
      badJsonEnd:
        'model.json is not valid JSON (line {{line}}, column {{column}}: the text ends before the JSON does), so the vLLM backend does not load the model; fix the JSON',
      notObject: 'model.json holds {{kind}}, not an object of engine arguments; write {"model": "<Hugging Face id or path>", ...}',
      unknownArg:
        '"{{key}}" is not an engine argument of any vLLM release we know: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load',
      unknownArgSuggest:
        '"{{key}}" is not an engine argument of any vLLM release we know: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load; did you mean "{{suggestion}}"?',
      unknownArgInVersion:
        '"{{key}}" is not an engine argument of vLLM {{version}}: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load',
      unknownArgInVersionSuggest:
        '"{{key}}" is not an engine argument of vLLM {{version}}: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load; did you mean "{{suggestion}}"?',
      unknownArgSinceVersion:
        '"{{key}}" is not an engine argument of vLLM {{version}}: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load (vLLM {{range}} had it)',
      unknownArgSinceVersionSuggest:
        '"{{key}}" is not an engine argument of vLLM {{version}}: vLLM refuses it (AsyncEngineArgs: "__init__() got an unexpected keyword argument \'{{key}}\'") and the model does not load (vLLM {{range}} had it); did you mean "{{suggestion}}"?',
      retiredArg:
        '"{{key}}" is an engine argument of vLLM {{range}} only: with a later vLLM (the newest release we know is {{newest}}) the model does not load ("__init__() got an unexpected keyword argument \'{{key}}\'"); tell tritonc the Triton you run (--triton-version, e.g. 25.11-vllm-python-py3) or set the rule\'s version option to know for sure',
      argKind:
        '"{{key}}" is {{kind}}, and vLLM\'s engine argument is {{expected}}: the backend passes it as written (a string "false" is true to Python); write {{example}}',
      argValue: '"{{key}}" is {{value}}, not one of {{values}}',
      argValueSuggest: '"{{key}}" is {{value}}, not one of {{values}}; did you mean "{{suggestion}}"?',
      kindGpu:
        'tensor_parallel_size x pipeline_parallel_size is {{gpus}} in model.json, and this instance group is KIND_GPU: the vLLM backend refuses it ("KIND_GPU is currently for single-GPU models, please specify KIND_MODEL in the model\'s config.pbtxt for multi-GPU models"); use instance_group [ { kind: KIND_MODEL count: 1 } ]',
      kindGpuDefault:
        'tensor_parallel_size x pipeline_parallel_size is {{gpus}} in model.json, and without an instance_group Triton gives the model a KIND_GPU group: the vLLM backend refuses it ("KIND_GPU is currently for single-GPU models, please specify KIND_MODEL in the model\'s config.pbtxt for multi-GPU models"); use instance_group [ { kind: KIND_MODEL count: 1 } ]',
      noMultiLora:
        'model.json enables LoRA and version {{version}} has no multi_lora.json, so the vLLM backend does not load the model ("Triton backend cannot find {{file}}."); write it: {"<adapter name>": "<path to the adapter>"}',
      metricsOff:
        'REPORT_CUSTOM_METRICS is on, but model.json sets disable_log_stats: true, and the vLLM backend then reports no metrics, without a word; remove disable_log_stats or REPORT_CUSTOM_METRICS',
    },
    options,
  },
  check(ctx) {
    if (settledBackend(ctx).backend !== VLLM.name) return;
    const config = ctx.config;
    const autoComplete = ctx.settings.server.autoCompleteConfig;

    if (autoComplete) {
      // Core fills in the name before the backend sees the config.
      // Its problems are the transaction policy and max_batch_size: the tensors it adds are only
      // those the config does not declare, which cannot conflict.
      const model = modelName(ctx);
      const problem = autoCompleteVllm({ ...config, name: model }).problems[0];
      const at = problem?.path?.[0];
      if (problem && at === 'max_batch_size')
        ctx.report({ path: problem.path!, messageId: 'autoCompleteBatch', data: { model, maxBatchSize: config.max_batch_size ?? 0, triton: problem.message } });
      else if (problem && at === 'model_transaction_policy')
        ctx.report({ path: problem.path!, messageId: 'autoCompleteDecoupled', data: { model, triton: problem.message } });
    } else {
      if (!(config.output ?? []).some((o) => o.name === 'text_output')) ctx.report({ path: config.output ? ['output'] : [], messageId: 'noTextOutput' });
      else if (!config.model_transaction_policy?.decoupled)
        ctx.report({ path: config.model_transaction_policy ? ['model_transaction_policy'] : [], messageId: 'notDecoupled' });
    }

    const metrics = config.parameters?.REPORT_CUSTOM_METRICS?.string_value?.toLowerCase() === 'true';
    // The vLLM the target's vllm image bundles (triton/backends/vllm/bundled.ts), where we have its list.
    const version = ctx.options.version ?? vllmListIn(ctx.settings.server.target.release);
    for (const dir of ctx.model.versions(config)) {
      const file = join(dir.path, MODEL_JSON);
      const text = ctx.files.text(file);
      if (text === undefined) {
        ctx.report({ path: [], messageId: 'noModelJson', data: { version: dir.dirName, dir: dir.path, file } });
        continue;
      }
      const range = (start: number, end: number): Range => ({ start: positionAt(text, start), end: positionAt(text, end) });
      const read = parseJsonText(text);
      if (!read.ok) {
        const at = { file, range: { start: read.at, end: read.at } };
        if (read.found === undefined) ctx.report({ ...at, messageId: 'badJsonEnd', data: { line: read.at.line, column: read.at.column } });
        else ctx.report({ ...at, messageId: 'badJson', data: { line: read.at.line, column: read.at.column, found: JSON.stringify(read.found) } });
        continue;
      }
      const args = read.value;
      if (!args || typeof args !== 'object' || Array.isArray(args)) {
        ctx.report({
          file,
          range: range(0, text.length),
          messageId: 'notObject',
          data: { kind: args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}` },
        });
        continue;
      }
      const where = topLevelKeys(text);
      const at = (key: string, part: 'key' | 'value' = 'key'): Range => {
        const k = where.get(key);
        return k ? range(k[part].start, k[part].end) : range(0, 0);
      };
      const known = engineArgNames(version);
      for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
        const arg = engineArg(key, version ?? NEWEST);
        const suggest = didYouMean(key, known);
        const suggestion = suggest && suggest !== key ? suggest : undefined;
        if (!arg) {
          const having = versionsWith(key);
          const range = spanOf(having);
          const where = { file, range: at(key) };
          // Without a version the names known are every release's, this key's among them: no suggestion.
          if (!version && having.length) ctx.report({ ...where, severity: 'warning', messageId: 'retiredArg', data: { key, range, newest: NEWEST } });
          else if (!version) {
            if (suggestion) ctx.report({ ...where, messageId: 'unknownArgSuggest', data: { key, suggestion } });
            else ctx.report({ ...where, messageId: 'unknownArg', data: { key } });
          } else if (having.length) {
            if (suggestion) ctx.report({ ...where, messageId: 'unknownArgSinceVersionSuggest', data: { key, version, range, suggestion } });
            else ctx.report({ ...where, messageId: 'unknownArgSinceVersion', data: { key, version, range } });
          } else if (suggestion) ctx.report({ ...where, messageId: 'unknownArgInVersionSuggest', data: { key, version, suggestion } });
          else ctx.report({ ...where, messageId: 'unknownArgInVersion', data: { key, version } });
          continue;
        }
        const kind = jsonKind(value);
        const kinds = arg.kinds;
        if (kinds && !kinds.includes(kind) && !(kind === 'int' && kinds.includes('float'))) {
          const expected =
            kinds
              .filter((k) => k !== 'null')
              .map(kindName)
              .join(' or ') + (kinds.includes('null') ? ' (or null)' : '');
          const example =
            kinds.includes('bool') && typeof value === 'string'
              ? String(value.toLowerCase() === 'true')
              : kinds.includes('int') && typeof value === 'string' && /^-?\d+$/.test(value)
                ? value
                : expected;
          ctx.report({
            file,
            range: at(key, 'value'),
            severity: 'warning',
            messageId: 'argKind',
            data: { key, kind: `${kindName(kind)} ${JSON.stringify(value)}`, expected, example },
          });
        } else if (arg.values && !arg.values.includes(value)) {
          const close =
            typeof value === 'string'
              ? didYouMean(
                  value,
                  arg.values.filter((v): v is string => typeof v === 'string'),
                )
              : undefined;
          const data = { key, value: JSON.stringify(value), values: arg.values.map((v) => JSON.stringify(v)).join(', ') };
          if (close) ctx.report({ file, range: at(key, 'value'), severity: 'warning', messageId: 'argValueSuggest', data: { ...data, suggestion: close } });
          else ctx.report({ file, range: at(key, 'value'), severity: 'warning', messageId: 'argValue', data });
        }
      }

      const record = args as Record<string, unknown>;
      const gpus = Number(record.tensor_parallel_size ?? 1) * Number(record.pipeline_parallel_size ?? 1);
      if (gpus > 1) {
        const groups = config.instance_group ?? [];
        const gpuGroup = groups.findIndex((g) => g.kind === 'KIND_GPU');
        // No instance_group: core gives a Python-based backend's model one KIND_GPU group (the backend
        // prefers GPUs; core src/model_config_utils.cc NormalizeInstanceGroup).
        if (gpuGroup >= 0) ctx.report({ path: ['instance_group', gpuGroup, 'kind'], messageId: 'kindGpu', data: { gpus } });
        else if (!groups.length) ctx.report({ path: [], messageId: 'kindGpuDefault', data: { gpus } });
      }
      if ('enable_lora' in record && String(record.enable_lora).toLowerCase() === 'true') {
        const lora = join(dir.path, MULTI_LORA);
        if (ctx.files.kind(lora) !== 'file')
          ctx.report({ file, range: at('enable_lora'), messageId: 'noMultiLora', data: { version: dir.dirName, file: lora } });
      }
      if (metrics && record.disable_log_stats === true) ctx.report({ file, range: at('disable_log_stats'), severity: 'warning', messageId: 'metricsOff' });
    }
  },
});

const kindName = (k: string): string =>
  ({ bool: 'a boolean', int: 'an integer', float: 'a number', string: 'a string', null: 'null', object: 'an object', array: 'a list' })[k] ?? k;

/** "0.4.0.post1 to 0.8.1" for the releases of our list that have a key (they are contiguous or nearly). */
function spanOf(versions: readonly string[]): string {
  return versions.length === 1 ? versions[0]! : `${versions[0]} to ${versions[versions.length - 1]}`;
}

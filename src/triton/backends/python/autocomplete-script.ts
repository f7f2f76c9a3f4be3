// A Python model's own auto_complete_config, completed from what it does (src/python-model reads it
// statically; `tritonc resolve --run-python-autocomplete` runs it): python_backend's ModelConfig class
// (src/resources/triton_python_backend_utils.py @ f9088ff6, cited by line) applied to each helper call
// in order, over the config as core hands it to the stub, with its exact ValueError texts; then the
// stub's check of the return value (src/pb_stub.cc Stub::AutoCompleteModelConfig, lines 522-531).
// The first ValueError ends the function and fails the load. What the reader could not follow is
// "not known" from there on: the calls before it are applied, nothing after it is guessed.
import type { ModelConfig, ModelInput } from '../../../config/model-config.js';
import { dictGet, type PyValue, type ScriptCall, type ScriptFacts } from '../../../python-model/auto-complete-config.js';
import { step, type ResolveProblem, type ResolveStep } from '../../changes.js';
import { DATA_TYPES } from '../../data-types.js';
import { addTensor, setMaxBatchSize, setModelTransactionPolicy, type PythonTensor } from './model-config-helpers.js';

/** What the script did to the config: the config after it, the steps, the refusal, or where it stops being known. */
export interface ScriptCompletion {
  config: ModelConfig;
  steps: ResolveStep[];
  problems: ResolveProblem[];
  /** Set when part of the function is not known: what, and from which line of model.py. */
  unknown?: { line: number; reason: string };
  /** The refusal's kind and values, for lint's messages (set with `problems`). */
  refusal?: ScriptRefusal;
}

/** A refusal as data: which helper check failed, at which call, with its values. */
export type ScriptRefusal = { line: number; col: number } & (
  | { kind: 'maxBatchSize'; configValue: number; scriptValue: number }
  | { kind: 'scheduler'; scheduler: string }
  | { kind: 'wrongProperty'; side: 'input' | 'output'; tensor: string }
  | { kind: 'missingName'; side: 'input' | 'output' }
  | { kind: 'missingProperty'; side: 'input' | 'output'; tensor: string; property: 'data_type' | 'dims' }
  | { kind: 'datatype'; side: 'input' | 'output'; tensor: string; configValue: string; scriptValue: string }
  | { kind: 'dims'; side: 'input' | 'output'; tensor: string; configValue: string; scriptValue: string }
  | { kind: 'optional'; tensor: string; configValue: string; scriptValue: string }
  | { kind: 'policyProperty' }
  | { kind: 'decoupled'; configValue: string; scriptValue: string }
  | { kind: 'noReturn' }
  | { kind: 'raised'; error: string }
);

const pyStr = (v: PyValue): string | undefined => (v.t === 'str' ? v.v : undefined);
const pyList = (dims: readonly number[]): string => `[${dims.join(', ')}]`;
const pyBool = (b: boolean): string => (b ? 'True' : 'False');
const keysOf = (d: PyValue): PyValue[] => (d.t === 'dict' ? d.entries.map(([k]) => k) : []);
const has = (d: PyValue, key: string): boolean => dictGet(d, key) !== undefined;

type Applied = { ok: true; config: ModelConfig; changed: boolean } | { ok: false; message: string; refusal: ScriptRefusal } | { unknown: string };

/** One helper call on the config (the ModelConfig method of the same name). */
function applyCall(config: ModelConfig, call: ScriptCall): Applied {
  const name = config.name ?? '';
  const at = { line: call.line, col: call.col };
  const arg = call.arg ?? { t: 'none' };
  switch (call.method) {
    case 'set_max_batch_size': {
      // Lines 322-344: `if self._model_config["max_batch_size"] > max_batch_size: raise ValueError`.
      if (arg.t !== 'int') return { unknown: 'set_max_batch_size is given a value that is not an integer' };
      const r = setMaxBatchSize(config, arg.v);
      return r.ok
        ? r
        : { ok: false, message: r.message, refusal: { ...at, kind: 'maxBatchSize', configValue: config.max_batch_size ?? 0, scriptValue: arg.v } };
    }
    case 'set_dynamic_batching': {
      // Lines 346-373: sequence_batching, then ensemble_scheduling, refuse; dynamic_batching is added if absent.
      const found = config.sequence_batching !== undefined ? 'sequence_batching' : config.ensemble_scheduling !== undefined ? 'ensemble_scheduling' : undefined;
      if (found) {
        return {
          ok: false,
          message: `Configuration specified scheduling_choice as '${found}', but auto-complete-config function for model '${name}' tries to set scheduling_choice as 'dynamic_batching'`,
          refusal: { ...at, kind: 'scheduler', scheduler: found },
        };
      }
      if (config.dynamic_batching !== undefined) return { ok: true, config, changed: false };
      return { ok: true, config: { ...config, dynamic_batching: {} }, changed: true };
    }
    case 'add_input':
    case 'add_output': {
      const side = call.method === 'add_input' ? 'input' : 'output';
      // Lines 375-472 (add_input) and 474-556 (add_output).
      if (arg.t !== 'dict') return { unknown: `${call.method} is given a value that is not a dict` };
      const valid = side === 'input' ? ['name', 'data_type', 'dims', 'optional'] : ['name', 'data_type', 'dims'];
      const tensorName = dictGet(arg, 'name');
      for (const key of keysOf(arg)) {
        if (key.t === 'str' && valid.includes(key.v)) continue;
        // The message concatenates input["name"]: without a str name Python raises KeyError or TypeError instead.
        if (!tensorName || tensorName.t !== 'str') return { unknown: `${call.method}'s dict has a property Python reports without a str name` };
        return {
          ok: false,
          message:
            side === 'input'
              ? `input '${tensorName.v}' in auto-complete-config function for model '${name}' contains property other than 'name', 'data_type', 'dims' and 'optional'.`
              : `output '${tensorName.v}' in auto-complete-config function for model '${name}' contains property other than 'name', 'data_type' and 'dims'.`,
          refusal: { ...at, kind: 'wrongProperty', side, tensor: tensorName.v },
        };
      }
      if (!tensorName)
        return {
          ok: false,
          message: `${side} in auto-complete-config function for model '${name}' is missing 'name' property.`,
          refusal: { ...at, kind: 'missingName', side },
        };
      const n = pyStr(tensorName);
      if (n === undefined) return { unknown: `${call.method}'s name is not a str` };
      for (const property of ['data_type', 'dims'] as const) {
        if (!has(arg, property)) {
          return {
            ok: false,
            message: `${side} '${n}' in auto-complete-config function for model '${name}' is missing '${property}' property.`,
            refusal: { ...at, kind: 'missingProperty', side, tensor: n, property },
          };
        }
      }
      const dataType = pyStr(dictGet(arg, 'data_type')!);
      const dimsValue = dictGet(arg, 'dims')!;
      const optional = dictGet(arg, 'optional');
      if (dataType === undefined || !DATA_TYPES.includes(dataType as never))
        return { unknown: `${call.method}('${n}')'s data_type is not a Triton data type name` };
      if (dimsValue.t !== 'list' || dimsValue.items.some((d) => d.t !== 'int')) return { unknown: `${call.method}('${n}')'s dims is not a list of integers` };
      if (optional !== undefined && optional.t !== 'bool') return { unknown: `${call.method}('${n}')'s optional is not a bool` };
      const tensor: PythonTensor = {
        name: n,
        data_type: dataType,
        dims: dimsValue.items.map((d) => (d as { v: number }).v),
        ...(optional?.t === 'bool' ? { optional: optional.v } : {}),
      };
      const current = ((config[side] ?? []) as ModelInput[]).find((t) => t.name === n);
      const r = addTensor(config, side, tensor);
      if (r.ok) return r;
      const currentType = typeof current?.data_type === 'string' ? current.data_type : 'TYPE_INVALID';
      const currentDims = (current?.dims ?? []).map(Number);
      if (r.message.includes('configuration expects datatype'))
        return { ok: false, message: r.message, refusal: { ...at, kind: 'datatype', side, tensor: n, configValue: currentType, scriptValue: dataType } };
      if (r.message.includes('expects dims'))
        return {
          ok: false,
          message: r.message,
          refusal: { ...at, kind: 'dims', side, tensor: n, configValue: pyList(currentDims), scriptValue: pyList(tensor.dims) },
        };
      return {
        ok: false,
        message: r.message,
        refusal: { ...at, kind: 'optional', tensor: n, configValue: pyBool(current?.optional ?? false), scriptValue: pyBool(tensor.optional ?? false) },
      };
    }
    case 'set_model_transaction_policy': {
      // Lines 558-603: properties other than decoupled refuse; a decoupled the config has must agree.
      if (arg.t !== 'dict') return { unknown: 'set_model_transaction_policy is given a value that is not a dict' };
      if (keysOf(arg).some((k) => !(k.t === 'str' && k.v === 'decoupled'))) {
        return {
          ok: false,
          message: `model transaction property in auto-complete-config function for model '${name}' contains property other than 'decoupled'.`,
          refusal: { ...at, kind: 'policyProperty' },
        };
      }
      const decoupled = dictGet(arg, 'decoupled');
      if (!decoupled) {
        if (config.model_transaction_policy !== undefined) return { ok: true, config, changed: false };
        return { ok: true, config: { ...config, model_transaction_policy: {} }, changed: true };
      }
      if (decoupled.t !== 'bool') return { unknown: "set_model_transaction_policy's decoupled is not a bool" };
      const r = setModelTransactionPolicy(config, { decoupled: decoupled.v });
      return r.ok
        ? r
        : {
            ok: false,
            message: r.message,
            refusal: { ...at, kind: 'decoupled', configValue: pyBool(config.model_transaction_policy?.decoupled ?? false), scriptValue: pyBool(decoupled.v) },
          };
    }
  }
}

/** What a call did, for resolve's steps. */
function describe(call: ScriptCall): { path: (string | number)[]; note: string } {
  const where = `model.py line ${call.line}`;
  switch (call.method) {
    case 'set_max_batch_size':
      return { path: ['max_batch_size'], note: `auto_complete_config calls set_max_batch_size(${call.arg?.t === 'int' ? call.arg.v : '?'}) (${where})` };
    case 'set_dynamic_batching':
      return { path: ['dynamic_batching'], note: `auto_complete_config calls set_dynamic_batching() (${where})` };
    case 'set_model_transaction_policy':
      return { path: ['model_transaction_policy'], note: `auto_complete_config calls set_model_transaction_policy (${where})` };
    default: {
      const n = call.arg ? dictGet(call.arg, 'name') : undefined;
      return {
        path: [call.method === 'add_input' ? 'input' : 'output'],
        note: `auto_complete_config calls ${call.method}('${n && n.t === 'str' ? n.v : '?'}') (${where})`,
      };
    }
  }
}

/**
 * The config after the model's auto_complete_config, from `facts` (read or run). `config` is the one
 * the backend hands the stub (its name filled in by core).
 */
export function completeFromScript(config: ModelConfig, facts: ScriptFacts, how: 'read' | 'run' = 'read'): ScriptCompletion {
  const steps: ResolveStep[] = [];
  const name = config.name ?? '';
  if (!facts.defines && !facts.unknown) {
    steps.push(step('autocomplete', 'note', [], `model.py's TritonPythonModel has no auto_complete_config: the Python backend completes nothing`));
    return { config, steps, problems: [] };
  }
  let current = config;
  for (const call of facts.calls) {
    const r = applyCall(current, call);
    if ('unknown' in r) return { config: current, steps, problems: [], unknown: { line: call.line, reason: r.unknown } };
    if (!r.ok) {
      return { config: current, steps, problems: [{ stage: 'autocomplete', message: r.message, fix: fixOf(r.refusal) }], refusal: r.refusal };
    }
    const d = describe(call);
    if (r.changed) steps.push(step('autocomplete', 'set', d.path, d.note, pathValue(r.config, d.path)));
    current = r.config;
  }
  if (facts.raised) {
    return {
      config: current,
      steps,
      problems: [{ stage: 'autocomplete', message: facts.raised, fix: 'auto_complete_config raised this when run: fix model.py' }],
      refusal: { line: facts.at?.line ?? 1, col: facts.at?.col ?? 1, kind: 'raised', error: facts.raised },
    };
  }
  if (facts.unknown) return { config: current, steps, problems: [], unknown: { line: facts.unknown.line, reason: facts.unknown.reason } };
  if (facts.returns !== 'config') {
    // pb_stub.cc lines 527-531: the return value must be the ModelConfig it was given.
    return {
      config: current,
      steps,
      problems: [
        {
          stage: 'autocomplete',
          message: `auto_complete_config function in model '${name}' must return a valid pb.ModelConfig object.`,
          fix: `end auto_complete_config with 'return ${'auto_complete_model_config'}' (the config object it was given)`,
        },
      ],
      refusal: { line: facts.at?.line ?? 1, col: facts.at?.col ?? 1, kind: 'noReturn' },
    };
  }
  steps.push(
    step(
      'autocomplete',
      'note',
      [],
      how === 'run'
        ? `ran model.py's auto_complete_config`
        : `read model.py's auto_complete_config (${facts.calls.length} helper call${facts.calls.length === 1 ? '' : 's'})`,
    ),
  );
  return { config: current, steps, problems: [] };
}

function pathValue(config: ModelConfig, path: (string | number)[]): unknown {
  return (config as Record<string, unknown>)[String(path[0])];
}

function fixOf(r: ScriptRefusal): string {
  switch (r.kind) {
    case 'maxBatchSize':
      return `model.py sets max_batch_size ${r.scriptValue} (line ${r.line}): lower max_batch_size in config.pbtxt to at most ${r.scriptValue}, or remove it`;
    case 'scheduler':
      return `model.py calls set_dynamic_batching() (line ${r.line}): remove ${r.scheduler} from config.pbtxt, or the call from model.py`;
    case 'wrongProperty':
    case 'missingName':
    case 'missingProperty':
      return `fix the dict passed to ${r.side === 'input' ? 'add_input' : 'add_output'} on model.py line ${r.line}`;
    case 'datatype':
      return `model.py declares ${r.side} '${r.tensor}' as ${r.scriptValue} (line ${r.line}): set data_type: ${r.scriptValue} in config.pbtxt, or remove the ${r.side} there`;
    case 'dims':
      return `model.py declares ${r.side} '${r.tensor}' with dims ${r.scriptValue} (line ${r.line}): make the config's dims ${r.scriptValue}, or remove them`;
    case 'optional':
      return `model.py declares input '${r.tensor}' optional ${r.scriptValue} (line ${r.line}): make the config agree`;
    case 'policyProperty':
      return `set_model_transaction_policy takes only 'decoupled' (model.py line ${r.line})`;
    case 'decoupled':
      return `model.py sets decoupled ${r.scriptValue} (line ${r.line}): make model_transaction_policy in config.pbtxt agree, or remove it`;
    case 'noReturn':
      return 'end auto_complete_config with `return auto_complete_model_config`';
    case 'raised':
      return 'fix model.py';
  }
}

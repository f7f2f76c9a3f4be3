// How Triton's PyTorch backend pairs a config's tensors with a TorchScript model's forward at load
// (pytorch_backend src/pt/model_instance_state.cc, ModelInstanceState). Nothing here compares names
// with the model's as ONNX Runtime does: a name is never refused, it only decides how the inputs are
// fed to forward.
import type { ModelConfig } from '../../../config/model-config.js';
import type { ModelSignature } from '../../../model-file/signature.js';

/** NamingConvention (src/pt/model_state.hh): how config tensors are mapped to forward's positions. */
export type NamingConvention = 'forward-argument' | 'named-index' | 'strict-config-ordering';

/**
 * The index a `<name>__<index>` name gives (the digits after the first "__"; std::atoi of an empty
 * suffix is 0), or undefined when the name does not follow the convention.
 */
export function namedIndex(name: string): number | undefined {
  const at = name.indexOf('__');
  if (at < 0) return undefined;
  const suffix = name.slice(at + 2);
  if (!/^\d*$/.test(suffix)) return undefined;
  return suffix === '' ? 0 : Number.parseInt(suffix, 10);
}

export interface Naming {
  convention: NamingConvention;
  /**
   * The name that made the backend fall back to config order with its warning ("... nor do they
   * follow the <name>__<index> naming convention. Falling back to enforcing strict ordering from
   * model configuration."): one with "__" but no integer after it. A name without "__" falls back
   * silently.
   */
  warnedBy?: string;
}

/**
 * GetNamingConvention: inputs are by forward argument when every config input names one (`allowed`:
 * forward's arguments after self), else by `<name>__<index>` when every name follows it, else in
 * config order. Outputs (`allowed` undefined) are by `<name>__<index>` or in config order.
 */
export function namingConvention(names: readonly string[], allowed?: readonly string[]): Naming {
  if (allowed && names.every((n) => allowed.includes(n))) return { convention: 'forward-argument' };
  for (const name of names) {
    const at = name.indexOf('__');
    if (at < 0) return { convention: 'strict-config-ordering' };
    if (!/^\d*$/.test(name.slice(at + 2))) return { convention: 'strict-config-ordering', warnedBy: name };
  }
  return { convention: 'named-index' };
}

/**
 * The input count the backend expects (the ModelInstanceState constructor's expected_input_cnt):
 * every config input (optional ones too), every batch_input, each of the START, END, READY and CORRID
 * controls the sequence batcher defines, and each state.
 */
export function libtorchExpectedInputs(config: ModelConfig): number {
  const seq = config.sequence_batching;
  const kinds = new Set((seq?.control_input ?? []).flatMap((c) => (c.control ?? []).map((k) => String(k.kind ?? 'CONTROL_SEQUENCE_START'))));
  const controls = ['CONTROL_SEQUENCE_START', 'CONTROL_SEQUENCE_END', 'CONTROL_SEQUENCE_READY', 'CONTROL_SEQUENCE_CORRID'].filter((k) => kinds.has(k)).length;
  return (config.input?.length ?? 0) + (config.batch_input?.length ?? 0) + controls + (seq?.state?.length ?? 0);
}

/** Argument kinds ValidateInputs accepts besides the dict mode: TensorType and ListType. */
export const isLibtorchInputType = (annotation: string): boolean => annotation === 'Tensor' || annotation.startsWith('List[');

/** The dict mode: forward's only argument after self is a Dict (DictType). */
export const isDictMode = (annotations: readonly string[]): boolean => annotations.length === 1 && annotations[0]!.startsWith('Dict[');

/**
 * The type's str() as c10 prints it in pytorch_backend's refusal ("An input of type 'Tensor?' was
 * detected"): Optional[T] -> T?, List[T] -> T[], Dict[K, V] -> Dict(K, V), Tuple[A, B] -> (A, B).
 */
export function c10TypeString(annotation: string): string {
  const t = annotation.trim();
  const m = /^(Optional|List|Dict|Tuple)\[(.*)\]$/s.exec(t);
  if (!m) return t;
  const parts = splitTopLevel(m[2]!).map((s) => c10TypeString(s));
  switch (m[1]) {
    case 'Optional':
      return `${parts[0] ?? ''}?`;
    case 'List':
      return `${parts[0] ?? ''}[]`;
    case 'Dict':
      return `Dict(${parts.join(', ')})`;
    default:
      return `(${parts.join(', ')})`;
  }
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * The PyTorch backend's refusal at load of a TorchScript model whose config lists no inputs or no
 * outputs (it fills nothing in), in ValidateInputs' then ValidateOutputs' order
 * (src/pt/model_instance_state.cc 1341, 1353, 1362-1369, 1379, 1497): forward's argument types, the input count against forward's
 * arguments (not in the dict mode; `signature` undefined: not read), then at least one input, then at
 * least one output. Undefined when the config lists both.
 */
export function libtorchUnlistedRefusal(model: string, config: ModelConfig, signature: ModelSignature | undefined): string | undefined {
  const inputs = config.input?.length ?? 0;
  const outputs = config.output?.length ?? 0;
  if (inputs > 0 && outputs > 0) return undefined;
  const types = signature?.inputs.map((t) => t.elemType ?? '') ?? [];
  const provided = signature?.inputs.length ?? 0;
  const expected = libtorchExpectedInputs(config);
  if (signature && !isDictMode(types)) {
    if (types.slice(1).some((t) => t.startsWith('Dict[')))
      return 'Multiple inputs of kind DictType were detected. Only a single input of type Dict(str, Tensor) is supported.';
    const bad = types.find((t) => !isLibtorchInputType(t));
    if (bad !== undefined)
      return `An input of type '${c10TypeString(bad)}' was detected in the model. Only a single input of type Dict(str, Tensor) or input(s) of type Tensor are supported.`;
  }
  if (signature && !isDictMode(types) && provided > 0 && expected !== provided)
    return `unable to load model '${model}', configuration expects ${expected} inputs, model provides ${provided}`;
  if (inputs === 0) return 'model configuration must contain at least one input, none were specified.';
  return 'model configuration must contain at least one output, none were specified.';
}

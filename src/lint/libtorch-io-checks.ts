// io-name for a TorchScript model, as Triton's PyTorch backend checks a config against forward at
// load (pytorch_backend src/pt/model_instance_state.cc; the platform record's IoChecks say so):
// argument types and the input count (ValidateInputs), at least one input and one output, and how
// names pair config tensors with forward's arguments and results (GetNamingConvention). The messages
// are io-name's (its meta spreads them in).
import { quoteString } from '../pbtxt/scalars.js';
import type { ModelSignature } from '../model-file/signature.js';
import {
  c10TypeString,
  isDictMode,
  isLibtorchInputType,
  libtorchExpectedInputs,
  namedIndex,
  namingConvention,
} from '../triton/backends/pytorch/libtorch-conventions.js';
import type { ModelContext, Report } from './rule.js';
import { configTensors } from './tensors.js';

const QUOTE_COUNT = `"unable to load model '{{model}}', configuration expects {{expected}} inputs, model provides {{provided}}"`;

export const LIBTORCH_IO_MESSAGES = {
  torchMultipleDicts: `forward takes more than one Dict argument ({{arguments}}), so Triton's PyTorch backend refuses the model ("Multiple inputs of kind DictType were detected. Only a single input of type Dict(str, Tensor) is supported."); take one Dict[str, Tensor] argument, or Tensor arguments only`,
  torchInputType: `forward's argument '{{name}}' is {{type}}, so Triton's PyTorch backend refuses the model ("An input of type '{{c10Type}}' was detected in the model. Only a single input of type Dict(str, Tensor) or input(s) of type Tensor are supported."); make it a Tensor (or a List[Tensor]) and script the model again`,
  torchInputCount: `Triton's PyTorch backend refuses the model (${QUOTE_COUNT}): forward takes {{provided}} arguments after self ({{arguments}}), and the backend counts every config input (optional ones too), batch_input entries, sequence controls and states; list one input per argument`,
  torchInputsMissing: `Triton's PyTorch backend refuses the model (${QUOTE_COUNT}): forward takes {{provided}} arguments after self ({{arguments}}); add inputs {{missing}} (TorchScript records no data type or shape: take them from the model's code)`,
  torchNoInputs: `the config lists no input, so Triton's PyTorch backend refuses the model ("model configuration must contain at least one input, none were specified."), and it fills nothing in; add the inputs forward reads ({{arguments}})`,
  torchNoOutputs: `the config lists no output, so Triton's PyTorch backend refuses the model ("model configuration must contain at least one output, none were specified."), and it fills nothing in; add one output per value forward returns ({{returns}}), named by the <name>__<index> convention: {{names}}`,
  torchConfigOrder: `input names {{names}} are neither all forward's argument names ({{arguments}}) nor all <name>__<index>, so Triton's PyTorch backend ignores them and feeds forward in config order ({{mapping}}); rename the inputs to forward's argument names in that order ({{renames}}), or to INPUT__0, INPUT__1, ...`,
  torchConfigOrderCrossed: `input '{{name}}' is forward's argument '{{name}}', but not every input name is one of forward's arguments ({{arguments}}) nor all <name>__<index>, so Triton's PyTorch backend feeds forward in config order and '{{name}}' goes to argument '{{argument}}' ({{mapping}}); name every input after one of forward's arguments (then they pair by name), or reorder them`,
  torchIndexOutOfRange: `input '{{name}}' names argument {{index}} by the <name>__<index> convention, but forward takes {{provided}} arguments after self ({{arguments}}), numbered from 0, so requests fail; number the inputs 0 to {{last}}`,
  torchIndexRepeated: `inputs '{{other}}' and '{{name}}' both name argument {{index}} by the <name>__<index> convention, so Triton's PyTorch backend feeds one of them to forward twice and leaves another argument empty; give each input its own index, 0 to {{last}}`,
  torchOutputIndexOutOfRange: `output '{{name}}' names result {{index}} by the <name>__<index> convention, but forward returns {{count}} values ({{returns}}), numbered from 0, so requests fail; number the outputs 0 to {{last}}`,
  torchOutputCount: `the config lists {{configured}} outputs and their names are not all <name>__<index>, so Triton's PyTorch backend takes them in config order, but forward returns {{count}} values ({{returns}}), so requests fail; list at most {{count}}, named OUTPUT__0 to OUTPUT__{{last}}`,
  torchStateNaming: `with sequence_batching state, Triton's PyTorch backend needs every input, output and state named <name>__<index> ("PyTorch model '{{model}}' is using sequence batching with state but not all inputs and outputs follow the <name>__<index> naming convention. "), and {{names}} do not; rename them, e.g. INPUT__0, OUTPUT__0`,
} as const;

/** What the checks need of io-name's context: the config, the model, edits, and a report of these messages. */
export type LibtorchIoContext = Pick<ModelContext<undefined>, 'config' | 'model' | 'edits'> & { report(report: Report<typeof LIBTORCH_IO_MESSAGES>): void };
type Ctx = LibtorchIoContext;

const quoted = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(', ');

/** io-name's checks under IoChecks 'forward-arguments' / 'name-index' / 'every-input'. */
export function checkLibtorchIo(ctx: Ctx, sig: ModelSignature): void {
  const model = ctx.config.name || ctx.model.name;
  const args = sig.inputs.map((t) => t.name);
  const types = sig.inputs.map((t) => t.elemType ?? '');
  const argumentsText = quoted(args) || 'none';
  const inputs = configTensors(ctx.config, 'input');
  const outputs = configTensors(ctx.config, 'output');
  const dict = isDictMode(types);
  let inputsPass = true;

  if (!dict) {
    const dicts = types.slice(1).some((t) => t.startsWith('Dict['));
    const bad = sig.inputs.find((t) => !isLibtorchInputType(t.elemType ?? ''));
    if (dicts) {
      ctx.report({ path: [], messageId: 'torchMultipleDicts', data: { arguments: argumentsText } });
      return;
    }
    if (bad) {
      ctx.report({
        path: [],
        messageId: 'torchInputType',
        data: { name: bad.name, type: bad.elemType ?? '', c10Type: c10TypeString(bad.elemType ?? ''), arguments: argumentsText },
      });
      return;
    }
    const expected = libtorchExpectedInputs(ctx.config);
    const provided = args.length;
    if (provided > 0 && expected !== provided) {
      inputsPass = false;
      const missing = missingInputs(
        inputs.map((t) => t.name),
        args,
      );
      const data = { model, expected, provided, arguments: argumentsText };
      if (expected < provided && missing.length)
        ctx.report({ path: inputs.length ? ['input'] : [], messageId: 'torchInputsMissing', data: { ...data, missing: quoted(missing) } });
      else ctx.report({ path: inputs.length ? ['input'] : [], messageId: 'torchInputCount', data });
    }
  }
  if (inputsPass && inputs.length === 0) {
    ctx.report({ path: [], messageId: 'torchNoInputs', data: { arguments: argumentsText } });
    inputsPass = false;
  }
  if (outputs.length === 0) {
    const count = sig.forward?.outputCount ?? null;
    const names = count === null ? `'OUTPUT__0', ...` : quoted(Array.from({ length: count }, (_, i) => `OUTPUT__${i}`));
    ctx.report({ path: [], messageId: 'torchNoOutputs', data: { returns: sig.forward?.returns ?? '', names } });
  }
  if (!dict && inputsPass) checkInputNaming(ctx, args, inputs);
  checkOutputNaming(ctx, sig, outputs);
  checkStateNaming(ctx, model, args, dict);
}

/**
 * The inputs a config lacks, named as it names the ones it has: by `<name>__<index>` when its names
 * follow it (the indexes not taken), else forward's argument names it does not list.
 */
function missingInputs(names: readonly string[], args: readonly string[]): string[] {
  const byIndex = names.length > 0 && names.every((n) => namedIndex(n) !== undefined);
  if (byIndex || names.length === 0) {
    const prefix = byIndex ? names[0]!.slice(0, names[0]!.indexOf('__')) : 'INPUT';
    const taken = new Set(names.map((n) => namedIndex(n)));
    if (names.length === 0 && args.length) return [...args];
    return args
      .map((_, i) => i)
      .filter((i) => !taken.has(i))
      .map((i) => `${prefix}__${i}`);
  }
  return args.filter((a) => !names.includes(a));
}

function checkInputNaming(ctx: Ctx, args: readonly string[], inputs: ReturnType<typeof configTensors>): void {
  const names = inputs.map((t) => t.name);
  const naming = namingConvention(names, args);
  if (naming.convention === 'named-index') {
    const seen = new Map<number, string>();
    for (const t of inputs) {
      const index = namedIndex(t.name)!;
      const last = args.length - 1;
      if (index >= args.length)
        ctx.report({
          path: [...t.path, 'name'],
          messageId: 'torchIndexOutOfRange',
          data: { name: t.name, index, provided: args.length, arguments: quoted(args), last },
        });
      else if (seen.has(index))
        ctx.report({ path: [...t.path, 'name'], messageId: 'torchIndexRepeated', data: { name: t.name, other: seen.get(index)!, index, last } });
      else seen.set(index, t.name);
    }
    return;
  }
  if (naming.convention !== 'strict-config-ordering') return;
  const mapping = inputs.map((t, i) => `'${t.name}' -> '${args[i] ?? '?'}'`).join(', ');
  const crossed = inputs.find((t, i) => args.includes(t.name) && args[i] !== t.name);
  if (crossed) {
    // The names that are forward's mean it: name the others after the arguments left, so all pair by name.
    const left = args.filter((a) => !names.includes(a));
    const others = inputs.filter((t) => !args.includes(t.name));
    const edits = others.length === left.length ? others.map((t, k) => ctx.edits.replaceValue([...t.path, 'name'], quoteString(left[k]!))) : [undefined];
    const fix = { description: "name the other inputs after forward's remaining arguments, so every input pairs by name", edits };
    ctx.report({
      path: ['input'],
      messageId: 'torchConfigOrderCrossed',
      data: { name: crossed.name, argument: args[inputs.indexOf(crossed)]!, arguments: quoted(args), mapping },
      fix,
    });
    return;
  }
  // Config order is what the backend does now: the fix keeps it, and makes the pairing explicit by name.
  const edits = inputs.map((t, i) => (args[i] !== undefined ? ctx.edits.replaceValue([...t.path, 'name'], quoteString(args[i])) : undefined));
  const renames = inputs
    .filter((t, i) => args[i] !== t.name)
    .map((t) => `'${t.name}' -> '${args[inputs.indexOf(t)]}'`)
    .join(', ');
  const fix = { description: "rename the inputs to forward's argument names, in config order", edits };
  ctx.report({
    path: ['input'],
    severity: 'warning',
    messageId: 'torchConfigOrder',
    data: { names: quoted(names), arguments: quoted(args), mapping, renames },
    fix,
  });
}

function checkOutputNaming(ctx: Ctx, sig: ModelSignature, outputs: ReturnType<typeof configTensors>): void {
  const count = sig.forward?.outputCount;
  if (count === undefined || count === null || outputs.length === 0) return;
  const returns = sig.forward!.returns;
  const naming = namingConvention(outputs.map((t) => t.name));
  if (naming.convention === 'named-index') {
    for (const t of outputs) {
      const index = namedIndex(t.name)!;
      if (index >= count)
        ctx.report({ path: [...t.path, 'name'], messageId: 'torchOutputIndexOutOfRange', data: { name: t.name, index, count, returns, last: count - 1 } });
    }
  } else if (outputs.length > count) {
    ctx.report({ path: ['output'], messageId: 'torchOutputCount', data: { configured: outputs.length, count, returns, last: count - 1 } });
  }
}

/** GetNamingConvention with sequence_batching state: inputs and outputs all NAMED_INDEX, and each state's names too. */
function checkStateNaming(ctx: Ctx, model: string, args: readonly string[], dict: boolean): void {
  const states = ctx.config.sequence_batching?.state ?? [];
  if (!states.length) return;
  const inputs = configTensors(ctx.config, 'input').map((t) => t.name);
  const outputs = configTensors(ctx.config, 'output').map((t) => t.name);
  // In the dict mode the backend asks the question of the outputs twice (it passes no allowed inputs).
  const inputNaming = dict ? namingConvention(outputs) : namingConvention(inputs, args);
  const bad = [
    ...(inputNaming.convention === 'named-index' ? [] : (dict ? outputs : inputs).filter((n) => namedIndex(n) === undefined || args.includes(n))),
    ...(namingConvention(outputs).convention === 'named-index' ? [] : outputs.filter((n) => namedIndex(n) === undefined)),
    ...states.flatMap((s) => [s.input_name ?? '', s.output_name ?? '']).filter((n) => namedIndex(n) === undefined),
  ];
  const unique = [...new Set(bad)];
  if (unique.length || inputNaming.convention !== 'named-index')
    ctx.report({ path: ['sequence_batching', 'state'], messageId: 'torchStateNaming', data: { model, names: quoted(unique.length ? unique : inputs) } });
}

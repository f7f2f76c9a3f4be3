// Config input/output names against the model's, and the input count as Triton's ONNX Runtime backend
// counts it (onnxruntime_backend ModelInstanceState::ValidateInputs): expected = non-optional config
// inputs + batch_input entries + sequence control inputs + sequence states; it must equal the model's
// required inputs (graph inputs without an initializer). Each way the count can go wrong gets its own
// finding on its own token.
import { quoteString } from '../../../pbtxt/scalars.js';
import type { ModelConfig } from '../../../config/model-config.js';
import type { TensorInfo } from '../../../model-file/signature.js';
import { didYouMean } from '../../../pbtxt/suggest.js';
import { ioChecks } from '../../backend.js';
import { checkLibtorchIo, LIBTORCH_IO_MESSAGES } from '../../libtorch-io-checks.js';
import { defineModelRule, type ModelContext, type Report } from '../../rule.js';
import { checkedConfig, configTensors, dimsText, maxBatchSize, tritonShape } from '../../tensors.js';

const messages = {
  inputUnknown: `input '{{name}}' is not an input of the model (it has {{modelInputs}}); rename it to one of the model's inputs or remove it`,
  misspeltInput: `input '{{name}}' is not an input of the model (it has {{modelInputs}}); did you mean '{{suggestion}}'? rename it to one of the model's inputs or remove it`,
  inputUnknownNoModelInputs: `input '{{name}}' is not an input of the model (it has none); rename it to one of the model's inputs or remove it`,
  inputIsInitializer: `input '{{name}}' is an initializer of the model (a weight it lets you override), not a required input, so Triton counts it ("configuration expects {{expected}} inputs, model provides {{provided}}"); mark it optional: true or remove it`,
  inputIsInitializerBatched: `input '{{name}}' is an initializer of the model (a weight it lets you override), not a required input, so Triton counts it ("configuration expects {{expected}} inputs, model provides {{provided}}"); mark it optional: true (which needs max_batch_size: 0) or remove it`,
  inputOptionalButRequired: `input '{{name}}' is optional: true, but the model requires it (it has no initializer to fall back on), so Triton refuses the config ("configuration expects {{expected}} inputs, model provides {{provided}}"); remove optional: true`,
  modelInputMissing: `the model's input '{{name}}' is missing from the configuration, so Triton refuses it ("configuration expects {{expected}} inputs, model provides {{provided}}"); add {{inputEntry}}`,
  modelInputUnlisted: `the model's input '{{name}}' is given by no input, batch_input, sequence control or state of the configuration; add {{inputEntry}}`,
  inputCountMismatch: `Triton refuses the model ("configuration expects {{expected}} inputs, model provides {{provided}}"): it counts the config's inputs, batch_input entries, sequence controls and states against the model's {{size}} required inputs; list each model input once`,
  inputCountMismatchListed: `Triton's {{backend}} backend refuses the model ("configuration expects {{expected}} inputs, model provides {{provided}}"): it counts every input entry against the model's {{size}} inputs; list each model input once`,
  outputUnknown: `output '{{name}}' is not an output of the model (it has {{modelOutputs}}); rename it to one of the model's outputs or remove it`,
  misspeltOutput: `output '{{name}}' is not an output of the model (it has {{modelOutputs}}); did you mean '{{suggestion}}'? rename it to one of the model's outputs or remove it`,
  outputUnknownNoModelOutputs: `output '{{name}}' is not an output of the model (it has none); rename it to one of the model's outputs or remove it`,
  modelNameNotUtf8: `the model's {{direction}} "{{bytes}}" has a name that is not UTF-8 (a byte outside UTF-8 shown as \\xHH), which Triton cannot serve: auto-complete fails ("Encountered non UTF-8 code points.") and no config can name it (a config's names are UTF-8 text); rename the {{direction}} to UTF-8 text in the export (e.g. torch.onnx.export's {{direction}}_names) and export again`,
  // A TorchScript model (Triton's PyTorch backend pairs names its own way): src/lint/libtorch-io-checks.ts.
  ...LIBTORCH_IO_MESSAGES,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const ioName = defineModelRule({
  meta: {
    id: 'io-name',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: "Config inputs and outputs must be the model's, and list every input the model requires",
    prevents: [
      "unexpected inference input '<name>', allowed inputs are: <a>, <b>, ...",
      "unexpected inference output '<name>', allowed outputs are: <a>, <b>, ...",
      "unable to load model '<model>', configuration expects <E> inputs, model provides <M>",
      // A model tensor whose name is not UTF-8 (tritonserver 2.51, test/server/not-utf8-real-triton.test.ts).
      'Encountered non UTF-8 code points.',
      // Triton's PyTorch backend (pytorch_backend src/pt/model_instance_state.cc ValidateInputs, ValidateOutputs, GetNamingConvention)
      'model configuration must contain at least one input, none were specified.',
      'model configuration must contain at least one output, none were specified.',
      "An input of type '<type>' was detected in the model. Only a single input of type Dict(str, Tensor) or input(s) of type Tensor are supported.",
      'Multiple inputs of kind DictType were detected. Only a single input of type Dict(str, Tensor) is supported.',
      "PyTorch model '<model>' is using sequence batching with state but not all inputs and outputs follow the <name>__<index> naming convention. ",
      "input '<name>' or previous input(s) are neither an input argument to the model '<model>' nor do they follow the <name>__<index> naming convention. Falling back to enforcing strict ordering from model configuration.",
    ],
    messages,
  },
  check(ctx) {
    // Triton's PyTorch backend pairs a TorchScript model's tensors by its own rules (the record says so).
    if (ioChecks(ctx).inputNames === 'forward-arguments') {
      const torch = { config: ctx.config, model: ctx.model, edits: ctx.edits, report: (r: Report<typeof LIBTORCH_IO_MESSAGES>) => ctx.report(r) };
      if (ctx.signature!.format === 'torchscript') checkLibtorchIo(torch, ctx.signature!);
      return;
    }
    // TensorFlow: the config after its auto-complete, which adds the model inputs the config leaves out.
    const { config, sides, halted } = checkedConfig(ctx);
    if (halted) return;
    reportNotUtf8(ctx, config);
    if (sides.inputs && ioChecks(ctx).inputCount === 'listed') checkListedInputs(ctx);
    else if (sides.inputs) checkInputs(ctx, config);
    if (sides.outputs) checkOutputs(ctx, config);
  },
});

/**
 * The model's tensors whose names are not UTF-8 (an ONNX name is bytes): no config can name one
 * (io-mapping.ts notUtf8Message), so each is reported once here and left out of the name checks below.
 */
function reportNotUtf8(ctx: Ctx, config: ModelConfig): void {
  for (const direction of ['input', 'output'] as const) {
    for (const t of direction === 'input' ? ctx.signature!.inputs : ctx.signature!.outputs) {
      if (t.notUtf8 === undefined) continue;
      ctx.report({ path: configTensors(config, direction).length ? [direction] : [], messageId: 'modelNameNotUtf8', data: { direction, bytes: t.notUtf8 } });
    }
  }
}

/** The model's tensors a config can name (UTF-8 names: see reportNotUtf8). */
const nameable = (list: readonly TensorInfo[]): TensorInfo[] => list.filter((t) => t.notUtf8 === undefined);

function checkInputs(ctx: Ctx, config: ModelConfig): void {
  const sig = { ...ctx.signature!, inputs: nameable(ctx.signature!.inputs), overridableInitializers: nameable(ctx.signature!.overridableInitializers) };
  const required = new Set(sig.inputs.map((t) => t.name));
  const initializers = new Set(sig.overridableInitializers.map((t) => t.name));
  const allowed = [...required, ...initializers].sort();
  const others = otherProvidedInputs(config);
  const inputs = configTensors(config, 'input');
  const expected = inputs.filter((t) => !t.entry.optional).length + (config.batch_input?.length ?? 0) + others.controls.length + others.states.length;
  let reported = false;

  for (const t of inputs) {
    if (!t.name) continue;
    if (!required.has(t.name) && !initializers.has(t.name)) {
      const hint = didYouMean(t.name, allowed);
      const path = [...t.path, 'name'];
      const data = { name: t.name, allowed, modelInputs: quotedList(allowed) };
      if (hint)
        ctx.report({
          path,
          messageId: 'misspeltInput',
          data: { ...data, suggestion: hint },
          suggest: [{ description: `rename it to '${hint}'`, edits: [ctx.edits.replaceValue(path, quoteString(hint))] }],
        });
      else ctx.report({ path, messageId: allowed.length ? 'inputUnknown' : 'inputUnknownNoModelInputs', data });
      reported = true;
    } else if (!required.has(t.name) && !t.entry.optional) {
      ctx.report({
        path: [...t.path, 'name'],
        messageId: maxBatchSize(config) > 0 ? 'inputIsInitializerBatched' : 'inputIsInitializer',
        data: { name: t.name, expected, provided: required.size },
      });
      reported = true;
    }
  }

  const provided = new Set([...inputs.filter((t) => !t.entry.optional).map((t) => t.name), ...others.batchTargets, ...others.controls, ...others.states]);
  for (const tensor of sig.inputs) {
    if (provided.has(tensor.name)) continue;
    const optional = inputs.find((t) => t.name === tensor.name && t.entry.optional);
    if (optional) {
      ctx.report({
        path: [...optional.path, 'optional'],
        messageId: 'inputOptionalButRequired',
        data: { name: tensor.name, expected, provided: required.size },
      });
    } else if (expected !== required.size) {
      ctx.report({
        path: inputs.length ? ['input'] : [],
        messageId: 'modelInputMissing',
        data: { name: tensor.name, expected, provided: required.size, inputEntry: inputEntry(tensor, maxBatchSize(config)) },
      });
    } else if (!reported) {
      // The count agrees, so the backend's count check passes and its refusal is about the entry that
      // stands where this input should (a renamed input, reported above: "unexpected inference input
      // '<name>', allowed inputs are: ..."; tritonserver 2.51, test/server/resolve-real-backends.test.ts).
      ctx.report({
        path: inputs.length ? ['input'] : [],
        messageId: 'modelInputUnlisted',
        data: { name: tensor.name, inputEntry: inputEntry(tensor, maxBatchSize(config)) },
      });
    }
    reported = true;
  }

  // A sequence control that is no model input stops the backend before it counts ("configuration
  // specified sequence control '<name>', but model does not provide that input", tritonserver 2.51,
  // test/server/quoted-messages-real-triton.test.ts): sequence-control-inputs reports it.
  const controlNotInModel = others.controls.some((n) => !required.has(n) && !initializers.has(n));
  if (!reported && !controlNotInModel && expected !== required.size) {
    ctx.report({
      path: inputs.length ? ['input'] : [],
      messageId: 'inputCountMismatch',
      data: { expected, provided: required.size, size: required.size },
    });
  }
}

/**
 * A backend that counts every input entry against every model input (openvino_backend src/openvino.cc
 * ValidateInputs): the count first, then each name against the model's (get_any_name, listed sorted).
 * Optional, batch_input and sequence controls play no part.
 */
function checkListedInputs(ctx: Ctx): void {
  const sig = ctx.signature!;
  const names = sig.inputs.map((t) => t.name);
  const allowed = [...names].sort();
  const inputs = configTensors(ctx.config, 'input');
  const expected = inputs.length;
  const provided = names.length;
  let reported = false;
  for (const t of inputs) {
    if (!t.name || names.includes(t.name)) continue;
    const hint = didYouMean(t.name, allowed);
    const path = [...t.path, 'name'];
    const data = { name: t.name, allowed, modelInputs: quotedList(allowed) };
    if (hint)
      ctx.report({
        path,
        messageId: 'misspeltInput',
        data: { ...data, suggestion: hint },
        suggest: [{ description: `rename it to '${hint}'`, edits: [ctx.edits.replaceValue(path, quoteString(hint))] }],
      });
    else ctx.report({ path, messageId: allowed.length ? 'inputUnknown' : 'inputUnknownNoModelInputs', data });
    reported = true;
  }
  const listed = new Set(inputs.map((t) => t.name));
  for (const tensor of sig.inputs) {
    if (listed.has(tensor.name)) continue;
    const where = { path: inputs.length ? ['input'] : [] };
    const entry = inputEntry(tensor, maxBatchSize(ctx.config));
    // Counts that agree pass the backend's count check: its refusal is then about the entry standing
    // where this input should ("unexpected inference input '<name>', allowed inputs are: ...",
    // reported above; tritonserver 2.51 with openvino_backend r24.10, test/conformance/l0-real-server.test.ts).
    if (expected !== provided) ctx.report({ ...where, messageId: 'modelInputMissing', data: { name: tensor.name, expected, provided, inputEntry: entry } });
    else if (!reported) ctx.report({ ...where, messageId: 'modelInputUnlisted', data: { name: tensor.name, inputEntry: entry } });
    reported = true;
  }
  if (!reported && expected !== provided) {
    ctx.report({
      path: inputs.length ? ['input'] : [],
      messageId: 'inputCountMismatchListed',
      data: { expected, provided, size: provided, backend: ioChecks(ctx).title },
    });
  }
}

function checkOutputs(ctx: Ctx, config: ModelConfig): void {
  const names = nameable(ctx.signature!.outputs).map((t) => t.name);
  for (const t of configTensors(config, 'output')) {
    if (!t.name || names.includes(t.name)) continue;
    const hint = didYouMean(t.name, names);
    const path = [...t.path, 'name'];
    const data = { name: t.name, allowed: names, modelOutputs: quotedList(names) };
    if (hint)
      ctx.report({
        path,
        messageId: 'misspeltOutput',
        data: { ...data, suggestion: hint },
        suggest: [{ description: `rename it to '${hint}'`, edits: [ctx.edits.replaceValue(path, quoteString(hint))] }],
      });
    else ctx.report({ path, messageId: names.length ? 'outputUnknown' : 'outputUnknownNoModelOutputs', data });
  }
}

/** 'a', 'b': the model's tensor names as the messages list them. */
const quotedList = (names: readonly string[]): string => names.map((n) => `'${n}'`).join(', ');

/** Model inputs the config provides outside `input`: batch_input targets, sequence controls and states. */
function otherProvidedInputs(config: ModelConfig): { batchTargets: string[]; controls: string[]; states: string[] } {
  const seq = config.sequence_batching;
  return {
    batchTargets: (config.batch_input ?? []).flatMap((b) => b.target_name ?? []),
    controls: (seq?.control_input ?? []).filter((c) => (c.control?.length ?? 0) > 0).map((c) => c.name ?? ''),
    states: (seq?.state ?? []).map((s) => s.input_name ?? ''),
  };
}

/** input { name: "x" data_type: TYPE_FP32 dims: [3,224,224] }, as Triton's auto-complete would write it. */
function inputEntry(t: TensorInfo, mbs: number): string {
  const shape = t.shape === null ? [] : tritonShape(t.shape);
  const dims = mbs > 0 ? shape.slice(1) : shape;
  return `input { name: "${t.name}" data_type: ${t.tritonType ?? 'TYPE_INVALID'} dims: ${dimsText(dims.length ? dims : [1])} }`;
}

// model_warmup samples (core src/backend_model_instance.cc TritonModelInstance::GenerateWarmupData, then the
// request validation of core InferenceRequest): every instance runs them before the model is READY,
// and any failure fails the load. Each sample needs fixed dims and a data source; a data file must
// hold enough bytes; each of its requests must pass Triton's normal request checks against the
// config's inputs (required inputs present, data types and shapes right); and the backend must accept
// batch_size requests of batch 1 at once.
import type { ModelInput, ModelWarmup } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend } from '../../backend.js';
import { BYTES, byteSizeOf, protocolName, typeName } from '../../../triton/data-types.js';
import { dataFileProblem } from '../../data-file.js';
import { maxBatchSize } from '../../tensors.js';
import { isEnsemble, ONNXRUNTIME } from '../../../triton/backend-records.js';

const dimsText = (dims: readonly number[]): string => `[${dims.join(',')}]`;

// A sample is named by {{sample}}: its quoted name, or #<position> when it has none.
const messages = {
  dataFileMissing:
    'warmup input_data_file {{quotedFile}} is not a file in {{where}}, where Triton reads it, so the model would fail to load ("failed to open text file for read ..."); add the file there',
  dataFileShort: `warmup input '{{input}}' ({{type}} {{dimsText}}) needs {{need}} bytes but {{file}} has {{size}}, so Triton refuses the model ("[request id: <id_unknown>] warmup setting expects {{need}} bytes, but the data provided from {{file}}only has {{size}} bytes"); write the full tensor to {{where}}{{file}}`,
  batchSizeZero:
    'warmup sample {{sample}} has batch_size 0, so Triton skips it silently and the model is not warmed up; set batch_size: 1 (the number of batch-1 requests to run)',
  batchSizeUnset:
    'warmup sample {{sample}} has batch_size unset (0), so Triton skips it silently and the model is not warmed up; set batch_size: 1 (the number of batch-1 requests to run)',
  // tritonserver 2.51 (test/server/quoted-messages-real-triton.test.ts): an unset (or TYPE_INVALID) type is
  // sized as int32 and sent, and the request check refuses it.
  inputWithoutDataType: `warmup input '{{input}}' has no data_type, so its warmup request carries none and Triton refuses the model ("[request id: <id_unknown>] inference input '{{input}}' data-type is '<invalid>', but model '{{name}}' expects ..."); set data_type to the input's type`,
  inputWithoutSize: `warmup input '{{input}}' has data_type {{type}}, which has no size, so its warmup request carries no type and Triton refuses the model ("[request id: <id_unknown>] inference input '{{input}}' data-type is '<invalid>', but model '{{name}}' expects ..."); set data_type to the input's type`,
  inputVariableDims: `warmup input '{{input}}' dims {{dimsText}} have a variable dimension, but warmup data needs a concrete shape, so Triton refuses the model ("warmup setting expects all variable-size dimensions are specified for input '{{input}}'"); write the size to warm up with`,
  inputWithoutData: `warmup input '{{input}}' says neither zero_data, random_data nor input_data_file, so Triton refuses the model ("[request id: <id_unknown>] warmup setting expects input '{{input}}' to have input_data_type set"); add zero_data: true`,
  requiredInputMissing: `warmup sample {{sample}} does not give every required input (missing: {{missingList}}), so its requests fail and Triton refuses the model ("[request id: <id_unknown>] expected {{inputCount}} inputs but got {{givenCount}} inputs for model '{{name}}'. Got input(s) {{givenQuoted}}, but missing required input(s) {{missingQuoted}}. Please provide all required input(s)."); add {{additions}}`,
  // With optional inputs in the config, Triton's count check names a range.
  requiredInputMissingRange: `warmup sample {{sample}} does not give every required input (missing: {{missingList}}), so its requests fail and Triton refuses the model ("[request id: <id_unknown>] expected number of inputs between {{requiredCount}} and {{inputCount}} but got {{givenCount}} inputs for model '{{name}}'. Got input(s) {{givenQuoted}}, but missing required input(s) {{missingQuoted}}. Please provide all required input(s)."); add {{additions}}`,
  requiredInputMissingOptionalGiven: `warmup sample {{sample}} gives optional inputs but not every required input (missing: {{missingList}}); Triton's input count check passes, but the backend runs the warmup without what is missing and most models then fail to load; add {{additions}}`,
  inputUnknown: `warmup input '{{input}}' is not an input of the config ({{configInputs}}); Triton passes it as an override input (meant for sequence control and state tensors), which is probably not what you meant; use the name of a config input`,
  inputDataTypeMismatch: `warmup input '{{input}}' is {{wType}} but the config's input is {{cType}}, so its requests fail and Triton refuses the model ("[request id: <id_unknown>] inference input '{{input}}' data-type is '{{warmupProtocolType}}', but model '{{name}}' expects '{{configProtocolType}}'"); set data_type: {{cType}}`,
  inputDimsMismatch: `warmup input '{{input}}' dims {{dimsText}} do not fit the config's dims {{want}} (warmup adds the batch axis itself: each request is {{got}}), so its requests fail and Triton refuses the model ("[request id: <id_unknown>] unexpected shape for input '{{input}}' for model '{{name}}'. Expected {{full}}, got {{got}}. NOTE: Setting a non-zero max_batch_size in the model config requires a batch dimension to be prepended to each input shape. ..."); write the per-item dims, e.g. {{example}}`,
  inputDimsMismatchNoBatching: `warmup input '{{input}}' dims {{dimsText}} do not fit the config's dims {{want}}, so its requests fail and Triton refuses the model ("[request id: <id_unknown>] unexpected shape for input '{{input}}' for model '{{name}}'. Expected {{full}}, got {{got}}."); write the per-item dims, e.g. {{example}}`,
  batchSizeAboveMax: `warmup sample {{sample}} runs {{batch}} requests of batch 1 together, more than max_batch_size {{maxBatchSize}}; the ONNX Runtime backend refuses the batch and Triton refuses the model ("failed to run warmup sample '{{sampleName}}': batch size {{batch}} for '<instance>', max allowed is {{maxBatchSize}}; "); set batch_size: {{limit}}`,
  batchSizeAboveMaxOtherBackend:
    'warmup sample {{sample}} runs {{batch}} requests of batch 1 together, more than max_batch_size {{maxBatchSize}}; backends that check the batch size refuse it, and the model fails to load; set batch_size: {{limit}}',
  batchSizeWithoutBatching: `warmup sample {{sample}} runs {{batch}} requests of batch 1 together, more than a model without batching (max_batch_size 0) takes; the ONNX Runtime backend refuses the batch and Triton refuses the model ("failed to run warmup sample '{{sampleName}}': batch size {{batch}} for '<instance>', max allowed is {{maxBatchSize}}; "); set batch_size: {{limit}}`,
  batchSizeWithoutBatchingOtherBackend:
    'warmup sample {{sample}} runs {{batch}} requests of batch 1 together, more than a model without batching (max_batch_size 0) takes; backends that check the batch size refuse it, and the model fails to load; set batch_size: {{limit}}',
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const modelWarmup = defineModelRule({
  meta: {
    id: 'model-warmup',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'model_warmup samples must be complete and pass the request checks of the config',
    prevents: [
      "warmup setting expects all variable-size dimensions are specified for input '<in>'",
      "[request id: <id_unknown>] warmup setting expects input '<in>' to have input_data_type set",
      '[request id: <id_unknown>] warmup setting expects <N> bytes, but the data provided from <file>only has <M> bytes',
      "[request id: <id_unknown>] inference input '<in>' data-type is '<FP32>', but model '<m>' expects '<INT32>'",
      "[request id: <id_unknown>] unexpected shape for input '<in>' for model '<m>'. Expected <dims>, got <dims>. <note>",
      "[request id: <id_unknown>] expected <n> inputs but got <k> inputs for model '<m>'. Got input(s) [...], but missing required input(s) [...]. Please provide all required input(s).",
      "failed to run warmup sample '<name>': batch size <n> for '<instance>', max allowed is <max_batch_size>; ",
    ],
    messages,
  },
  check(ctx) {
    const samples = ctx.config.model_warmup ?? [];
    // Ensembles refuse model_warmup altogether (the ensemble rules say so).
    if (!samples.length || isEnsemble(ctx.config)) return;
    samples.forEach((sample, i) => checkSample(ctx, sample, i));
  },
});

function checkSample(ctx: Ctx, sample: ModelWarmup, index: number): void {
  const path: PathSegment[] = ['model_warmup', index];
  const named = { sample: sample.name ? `'${sample.name}'` : `#${index + 1}`, sampleName: sample.name ?? '', sampleIndex: index };
  const batch = sample.batch_size ?? 0;
  if (batch === 0) {
    ctx.report({
      path: sample.batch_size !== undefined ? [...path, 'batch_size'] : path,
      severity: 'warning',
      messageId: sample.batch_size === undefined ? 'batchSizeUnset' : 'batchSizeZero',
      data: { ...named, batchSize: 0 },
    });
    return;
  }
  const config = ctx.config;
  const mbs = maxBatchSize(config);
  const name = modelName(ctx);
  const inputs = Object.entries(sample.inputs ?? {});

  // Triton's first pass: every input's byte size must be known.
  for (const [input, w] of inputs) {
    const type = typeName(w.data_type);
    const dims = (w.dims ?? []).map(Number);
    const inputPath = [...path, 'inputs', input];
    const variable = dims.findIndex((d) => d < 0);
    if (type === 'TYPE_INVALID' || (type !== 'TYPE_STRING' && BYTES[type] === undefined)) {
      ctx.report({
        path: w.data_type !== undefined ? [...inputPath, 'data_type'] : inputPath,
        ...(w.data_type === undefined
          ? { messageId: 'inputWithoutDataType' as const, data: { input, name } }
          : { messageId: 'inputWithoutSize' as const, data: { input, type, name } }),
      });
    } else if (variable >= 0) {
      ctx.report({
        path: [...inputPath, 'dims', variable],
        messageId: 'inputVariableDims',
        data: { input, dims, dimsText: dimsText(dims) },
      });
    }
  }

  for (const [input, w] of inputs) {
    const inputPath = [...path, 'inputs', input];
    if (w.zero_data === undefined && w.random_data === undefined && w.input_data_file === undefined) {
      ctx.report({
        path: inputPath,
        range: ctx.doc.locate(inputPath)?.name,
        messageId: 'inputWithoutData',
        data: { input },
      });
    } else if (w.input_data_file !== undefined) {
      const type = typeName(w.data_type);
      const dims = (w.dims ?? []).map(Number);
      const problem = dataFileProblem(ctx.files, ctx.model, {
        folder: 'warmup',
        file: w.input_data_file,
        field: 'warmup input_data_file',
        need: type === 'TYPE_STRING' ? undefined : byteSizeOf(type, dims),
        subject: `warmup input '${input}' (${type} ${dimsText(dims)})`,
        tritonMessage: (need, size) =>
          `[request id: <id_unknown>] warmup setting expects ${need} bytes, but the data provided from ${w.input_data_file}only has ${size} bytes`,
        path: [...inputPath, 'input_data_file'],
        data: { input, file: w.input_data_file },
      });
      // The shared check's wording (subject, tritonMessage) is this rule's template; the data keeps values.
      if (problem?.messageId === 'dataFileMissing') ctx.report(problem);
      else if (problem) {
        const { need, size, where } = problem.data;
        ctx.report({ ...problem, messageId: 'dataFileShort', data: { input, file: w.input_data_file, need, size, where, type, dimsText: dimsText(dims) } });
      }
    }
  }

  // Request validation against the config's inputs: only when the config lists them (otherwise the
  // backend's auto-complete writes them from the model).
  const configInputs = config.input ?? [];
  if (configInputs.length) {
    const byName = new Map<string, ModelInput>(configInputs.map((c) => [c.name ?? '', c]));
    const controls = new Set([
      ...(config.sequence_batching?.control_input ?? []).map((c) => c.name ?? ''),
      ...(config.sequence_batching?.state ?? []).map((s) => s.input_name ?? ''),
    ]);
    const given = inputs.filter(([n]) => byName.has(n)).map(([n]) => n);
    const missing = configInputs.filter((c) => !c.optional && c.name && !given.includes(c.name)).map((c) => c.name!);
    const required = configInputs.filter((c) => !c.optional).length;
    if (missing.length && given.length < required) {
      const quoted = (list: string[]): string => `[${list.map((n) => `'${n}'`).join(',')}]`;
      const count = configInputs.length;
      ctx.report({
        path: sample.inputs ? [...path, 'inputs'] : path,
        messageId: count === required ? 'requiredInputMissing' : 'requiredInputMissingRange',
        data: {
          ...named,
          missing,
          given,
          missingList: missing.map((n) => `'${n}'`).join(', '),
          inputCount: count,
          requiredCount: required,
          givenCount: given.length,
          name,
          givenQuoted: given.length ? quoted(given) : '[]',
          missingQuoted: quoted(missing),
          additions: missing.map((n) => `inputs { key: "${n}" value: { ... zero_data: true } }`).join(', '),
        },
      });
    } else if (missing.length) {
      ctx.report({
        path: sample.inputs ? [...path, 'inputs'] : path,
        severity: 'warning',
        messageId: 'requiredInputMissingOptionalGiven',
        data: {
          ...named,
          missing,
          given,
          missingList: missing.map((n) => `'${n}'`).join(', '),
          additions: missing.map((n) => `inputs { key: "${n}" value: { ... zero_data: true } }`).join(', '),
        },
      });
    }
    for (const [input, w] of inputs) {
      const inputPath = [...path, 'inputs', input];
      const spec = byName.get(input);
      if (!spec) {
        if (controls.has(input)) continue;
        ctx.report({
          path: inputPath,
          range: ctx.doc.locate(inputPath)?.name,
          severity: 'warning',
          messageId: 'inputUnknown',
          data: { input, configInputs: configInputs.map((c) => `'${c.name ?? ''}'`).join(', ') },
        });
        continue;
      }
      const wType = typeName(w.data_type);
      const cType = typeName(spec.data_type);
      if (wType !== 'TYPE_INVALID' && cType !== 'TYPE_INVALID' && wType !== cType) {
        ctx.report({
          path: w.data_type !== undefined ? [...inputPath, 'data_type'] : inputPath,
          messageId: 'inputDataTypeMismatch',
          data: {
            input,
            warmupType: wType,
            configType: cType,
            wType,
            cType,
            warmupProtocolType: protocolName(wType),
            name,
            configProtocolType: protocolName(cType),
          },
        });
      }
      const dims = (w.dims ?? []).map(Number);
      const want = (spec.dims ?? []).map(Number);
      if (!dims.some((d) => d < 0) && want.length && !shapeMatches(dims, want)) {
        const full = mbs !== 0 ? [-1, ...want] : want;
        const got = mbs !== 0 ? [1, ...dims] : dims;
        ctx.report({
          path: w.dims?.length ? [...inputPath, 'dims'] : inputPath,
          messageId: mbs !== 0 ? 'inputDimsMismatch' : 'inputDimsMismatchNoBatching',
          data: {
            input,
            dims,
            dimsText: dimsText(dims),
            configDims: want,
            want: dimsText(want),
            name,
            full: dimsText(full),
            got: dimsText(got),
            example: dimsText(want.map((d) => (d === -1 ? 1 : d))),
          },
        });
      }
    }
  }

  // batch_size requests of batch 1 go to the backend at once; ONNX Runtime refuses more than it takes.
  const limit = Math.max(1, mbs);
  if (batch > limit) {
    const ort = settledBackend(ctx).backend === ONNXRUNTIME.name;
    ctx.report({
      path: [...path, 'batch_size'],
      severity: ort ? 'error' : 'warning',
      messageId:
        mbs === 0 ? (ort ? 'batchSizeWithoutBatching' : 'batchSizeWithoutBatchingOtherBackend') : ort ? 'batchSizeAboveMax' : 'batchSizeAboveMaxOtherBackend',
      data: { ...named, batchSize: batch, maxBatchSize: mbs, batch, limit },
    });
  }
}

/** Triton's request shape check: same rank, and each fixed config dim equal. */
function shapeMatches(dims: readonly number[], config: readonly number[]): boolean {
  return dims.length === config.length && config.every((c, i) => c === -1 || c === dims[i]);
}

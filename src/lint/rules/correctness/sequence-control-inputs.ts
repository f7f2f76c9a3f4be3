// Sequence controls against the ONNX model (onnxruntime_backend src/onnxruntime.cc
// ModelInstanceState::ValidateBooleanSequenceControl and ValidateTypedSequenceControl): each control
// tensor is an input of the model, whose dims without the batch axis must be [1] and whose element
// type must be the one the control implies (int32_false_true: TYPE_INT32, fp32_false_true: TYPE_FP32,
// bool_false_true: TYPE_BOOL; a CONTROL_SEQUENCE_CORRID control: its data_type). The ONNX Runtime
// backend refuses the model at instance creation otherwise.
import type { ModelSequenceBatching_Control } from '../../../config/model-config.js';
import { settledBackend } from '../../backend.js';
import { defineModelRule } from '../../rule.js';
import { dimsText, maxBatchSize, tritonShape } from '../../tensors.js';
import { ONNXRUNTIME } from '../../../triton/backend-records.js';

const messages = {
  notAModelInput:
    "control tensor '{{tensor}}' is not an input of the model (its inputs: {{inputs}}), so the ONNX Runtime backend refuses the model (\"configuration specified sequence control '{{tensor}}', but model does not provide that input\"); export the model with that input, or name one it has",
  dimsNotOne:
    "the model's input '{{tensor}}' for a sequence control is {{dims}} without the batch axis, so the ONNX Runtime backend refuses the model (\"unable to load model '{{model}}', sequence control '{{tensor}}' in model has dims {{dims}} but dims [1] is expected\"); export the control as shape [batch, 1] (or [1] with max_batch_size: 0)",
  // The control gives the wrong list, and the model's type has a list of its own.
  listTypeMismatch:
    "control tensor '{{tensor}}' is {{configType}} in the config ({{list}}) but {{elemType}} in the model, so the ONNX Runtime backend refuses the model (\"unable to load model '{{model}}', sequence control '{{tensor}}', the model expects data-type {{elemType}} but the model configuration specifies data-type {{configType}}\"); write {{expectedList}} for a {{elemType}} input",
  // The control gives a list, and no list has the model's type.
  listTypeUnlisted:
    "control tensor '{{tensor}}' is {{configType}} in the config ({{list}}) but {{elemType}} in the model, so the ONNX Runtime backend refuses the model (\"unable to load model '{{model}}', sequence control '{{tensor}}', the model expects data-type {{elemType}} but the model configuration specifies data-type {{configType}}\"); set data_type: {{tritonType}}",
  dataTypeMismatch:
    "control tensor '{{tensor}}' is {{configType}} in the config (its data_type) but {{elemType}} in the model, so the ONNX Runtime backend refuses the model (\"unable to load model '{{model}}', sequence control '{{tensor}}', the model expects data-type {{elemType}} but the model configuration specifies data-type {{configType}}\"); set data_type: {{tritonType}}",
} as const;

/** The data type a control gives its tensor, and the list that gives it, if any (GetBooleanSequenceControlProperties, GetTypedSequenceControlProperties). */
function controlType(c: ModelSequenceBatching_Control): { type: string; list?: string } | undefined {
  if (c.int32_false_true?.length) return { type: 'TYPE_INT32', list: 'int32_false_true' };
  if (c.fp32_false_true?.length) return { type: 'TYPE_FP32', list: 'fp32_false_true' };
  if (c.bool_false_true?.length) return { type: 'TYPE_BOOL', list: 'bool_false_true' };
  const dt = c.data_type;
  return typeof dt === 'string' && dt !== 'TYPE_INVALID' ? { type: dt } : undefined;
}

const LIST_OF_TYPE: Record<string, string> = {
  TYPE_INT32: 'int32_false_true: [ 0, 1 ]',
  TYPE_FP32: 'fp32_false_true: [ 0, 1 ]',
  TYPE_BOOL: 'bool_false_true: [ false, true ]',
};

export const sequenceControlInputs = defineModelRule({
  meta: {
    id: 'sequence-control-inputs',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: true,
    description: 'Sequence control tensors must be inputs of the ONNX model, of dims [1] and of the data type the control gives',
    prevents: [
      "configuration specified sequence control '<name>', but model does not provide that input",
      "unable to load model '<model>', sequence control '<name>' in model has dims <dims> but dims [1] is expected",
      "unable to load model '<model>', sequence control '<name>', the model expects data-type <onnx type> but the model configuration specifies data-type <type>",
    ],
    messages,
  },
  check(ctx) {
    if (settledBackend(ctx).backend !== ONNXRUNTIME.name) return;
    const sig = ctx.signature!;
    const model = ctx.config.name || ctx.model.name;
    const batching = maxBatchSize(ctx.config) > 0;
    (ctx.config.sequence_batching?.control_input ?? []).forEach((input, i) => {
      const tensor = input.name;
      if (!tensor) return;
      const at = ['sequence_batching', 'control_input', i, 'name'];
      const info = sig.inputs.find((t) => t.name === tensor);
      if (!info) {
        ctx.report({ path: at, messageId: 'notAModelInput', data: { tensor, inputs: sig.inputs.map((t) => `'${t.name}'`).join(', ') || 'none' } });
        return;
      }
      if (info.kind !== 'tensor' || info.shape === null) return;
      const dims = tritonShape(info.shape).slice(batching ? 1 : 0);
      if (dims.length !== 1 || dims[0] !== 1) {
        ctx.report({ path: at, messageId: 'dimsNotOne', data: { tensor, dims: dimsText(dims), model } });
        return;
      }
      (input.control ?? []).forEach((c, k) => {
        const given = controlType(c);
        if (!given || !info.tritonType || given.type === info.tritonType) return;
        const expectedList = LIST_OF_TYPE[info.tritonType];
        const path = ['sequence_batching', 'control_input', i, 'control', k, ...(given.list ? [given.list] : ['data_type'])];
        const data = { tensor, configType: given.type, elemType: info.elemType ?? 'UNDEFINED', tritonType: info.tritonType, model };
        if (given.list && expectedList) ctx.report({ path, messageId: 'listTypeMismatch', data: { ...data, list: given.list, expectedList } });
        else if (given.list) ctx.report({ path, messageId: 'listTypeUnlisted', data: { ...data, list: given.list } });
        else ctx.report({ path, messageId: 'dataTypeMismatch', data });
      });
    });
  },
});

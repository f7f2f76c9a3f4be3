// The sequence batcher's control tensors (core src/model_config_utils.cc ValidateModelConfig with
// GetBooleanSequenceControlProperties / GetTypedSequenceControlProperties) and its implicit states
// (core SequenceBatchScheduler::Create / GenerateInitialStateData): named, unique control tensors,
// one tensor per control kind, exactly one 2-entry *_false_true list for START/END/READY, none and an
// integer or string data_type for CORRID, a direct strategy's slot utilization in [0, 1], and an
// initial_state that matches its state and has data.
import type { ModelSequenceBatching, ModelSequenceBatching_Control, ModelSequenceBatching_State } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName } from '../../backend.js';
import { byteSizeOf, typeName } from '../../../triton/data-types.js';
import { DATA_FILE_MESSAGES, dataFileProblem } from '../../data-file.js';

const KINDS = ['CONTROL_SEQUENCE_START', 'CONTROL_SEQUENCE_READY', 'CONTROL_SEQUENCE_END', 'CONTROL_SEQUENCE_CORRID'] as const;
const LISTS = ['int32_false_true', 'fp32_false_true', 'bool_false_true'] as const;
const CORRID_TYPES = ['TYPE_UINT64', 'TYPE_INT64', 'TYPE_UINT32', 'TYPE_INT32', 'TYPE_STRING'];
const BASE: PathSegment[] = ['sequence_batching'];

/** A control's kind as core reads it: unset is CONTROL_SEQUENCE_START (enum value 0). */
function kindOf(c: ModelSequenceBatching_Control): string {
  const k = c.kind ?? 0;
  return typeof k === 'number' ? (KINDS[k] ?? `${k}`) : k;
}

const messages = {
  dataFileMissing: DATA_FILE_MESSAGES.dataFileMissing,
  // The shared short-file message takes Triton's message as a value; here it is written out.
  dataFileShort: `initial_state of state '{{input}}' ({{isType}} [{{dimsText}}]) needs {{need}} bytes but {{file}} has {{size}}, so Triton refuses the model ("initial_state setting expects {{need}} bytes, but the data provided from {{file}}only has {{size}} bytes."); write the full tensor to {{where}}{{file}}`,
  slotUtilizationOutOfRange:
    'minimum_slot_utilization {{util}} is not a fraction of the batch slots, so Triton refuses the model ("sequence batching minimum slot utilization must be in range (0.0, 1.0] for {{name}}"); use a value in (0.0, 1.0], or 0 to disable it',
  customBatchingStrategy:
    'a custom batching strategy cannot drive the sequence batcher, so Triton refuses the model ("TRITON_BATCH_STRATEGY_PATH cannot be specified with sequence batcher, using default batching strategy"); remove the TRITON_BATCH_STRATEGY_PATH parameter',
  controlInputWithoutName:
    'this control_input has no name, so Triton refuses the model ("sequence batching control tensor must have a name for {{name}}"); set name to the model input that receives the control',
  controlTensorTwice: `control tensor '{{tensor}}' is listed twice, so Triton refuses the model ("sequence batching control tensor '{{tensor}}' is specified for multiple control kinds for {{name}}"); give each control kind its own model input, or merge the entries`,
  controlKindTwice:
    '{{kind}} is given a second time, so Triton refuses the model ("sequence batching specifies multiple {{kind}} tensors for {{name}}"); keep one {{kind}} control',
  controlKindUnsetTwice:
    '{{kind}} is given a second time (a control without kind is CONTROL_SEQUENCE_START), so Triton refuses the model ("sequence batching specifies multiple {{kind}} tensors for {{name}}"); keep one {{kind}} control',
  corridWithFalseTrue: `a CONTROL_SEQUENCE_CORRID control carries the correlation ID itself, not a false/true pair, so Triton refuses {{list}} ("sequence batching must not specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for CONTROL_SEQUENCE_CORRID for {{name}}"); remove {{list}} and set data_type`,
  corridNoDataType: `the CONTROL_SEQUENCE_CORRID control has no data_type, so Triton refuses the model ("unexpected data type for control CONTROL_SEQUENCE_CORRID for {{name}}. Allowed data types are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING"); set data_type: TYPE_UINT64 (or the type of the model's input '{{tensor}}')`,
  corridDataType: `data_type {{dataType}} cannot carry a correlation ID, so Triton refuses the model ("unexpected data type for control CONTROL_SEQUENCE_CORRID for {{name}}. Allowed data types are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING"); set data_type: TYPE_UINT64 (or the type of the model's input '{{tensor}}')`,
  controlWithoutValues: `the {{kind}} control does not say which values mean false and true, so Triton refuses the model ("sequence batching must specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for {{kind}} for {{name}}"); add e.g. int32_false_true: [ 0, 1 ] (the type of the model's input '{{tensor}}')`,
  controlValuesTwice: `the {{kind}} control gives both {{listNames}}, so Triton refuses the model ("sequence batching specifies more than one from 'int32_false_true', 'fp32_false_true' and 'bool_false_true' for {{kind}} for {{name}}"); keep the one of the input's data type`,
  controlValueSingle: `{{list}} has 1 entry but must be [false, true], so Triton refuses the model ("sequence batching control '{{list}}' must have exactly 2 entries for {{kind}} for {{name}}"); write {{list}}: [ {{example}} ]`,
  controlValuesCount: `{{list}} has {{count}} entries but must be [false, true], so Triton refuses the model ("sequence batching control '{{list}}' must have exactly 2 entries for {{kind}} for {{name}}"); write {{list}}: [ {{example}} ]`,
  initialStateCount: `state '{{input}}' has {{length}} initial_state entries, so Triton refuses the model ("initial_state field for state input '{{input}}' must contain exactly one or zero element. Found '{{length}}' elements."); keep one`,
  initialStateDataType: `initial_state data_type {{isType}} is not the state's {{stateType}}, so Triton refuses the model ("The data type used for 'initial_state' field of state '{{input}}' does not match the state data type."); set data_type: {{stateType}}`,
  initialStateDataTypeUnset: `initial_state data_type {{isType}} is not the state's {{stateType}}, so Triton refuses the model ("The data type used for 'initial_state' field of state '{{input}}' does not match the state data type."); set data_type: <the state's type> in both`,
  initialStateWithoutName: `initial_state of state '{{input}}' has no name, so Triton refuses the model ("Field 'name' must be set when using initial_state for state input '{{input}}'."); set name, e.g. name: "{{state}}_init"`,
  initialStateTwice: `state input '{{input}}' already has an initial_state in an earlier state, so Triton refuses the model ("State input name '{{input}}' specified more than once."); give each state its own input_name`,
  initialStateRank: `initial_state dims [{{dimsText}}] have {{length}} dimensions but the state's dims [{{stateDimsText}}] have {{stateLength}}, so Triton refuses the model ("Number of dimensions in 'initial_state' doesn't match the size of 'state' dimensions for state input '{{input}}'. {{length}} != {{stateLength}}"); give initial_state the state's rank`,
  initialStateVariableDim: `initial_state dims [{{dims}}] have a variable dimension, but the initial value needs a fixed shape, so Triton refuses the model ("'initial_state' field for state input name '{{input}}' contains variable dimensions."); write the concrete size`,
  initialStateVariableDimSized: `initial_state dims [{{dims}}] have a variable dimension, but the initial value needs a fixed shape, so Triton refuses the model ("'initial_state' field for state input name '{{input}}' contains variable dimensions."); write the concrete size ({{stateDim}})`,
  initialStateDimMismatch: `initial_state dim {{dim}} does not match the state's dim {{stateDim}}, so Triton refuses the model ("'initial_state' dim for input name '{{input}}' doesn't match 'state' dim description. {{dim}} != {{stateDim}}"); set it to {{stateDim}}`,
  initialStateWithoutData: `initial_state of state '{{input}}' says neither zero_data nor data_file, so Triton refuses the model ("initial_state setting expects state'{{input}}' to have state_data set"); add zero_data: true, or data_file: "<file in {{name}}/initial_state/>"`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const sequenceBatching = defineModelRule({
  meta: {
    id: 'sequence-batching',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'sequence_batching control inputs and states must be complete and consistent',
    prevents: [
      'sequence batching control tensor must have a name for <name>',
      "sequence batching control tensor '<t>' is specified for multiple control kinds for <name>",
      'sequence batching specifies multiple <KIND> tensors for <name>',
      "sequence batching must specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for <KIND> for <name>",
      "sequence batching specifies more than one from 'int32_false_true', 'fp32_false_true' and 'bool_false_true' for <KIND> for <name>",
      "sequence batching control 'int32_false_true' must have exactly 2 entries for <KIND> for <name>",
      "sequence batching control 'fp32_false_true' must have exactly 2 entries for <KIND> for <name>",
      "sequence batching control 'bool_false_true' must have exactly 2 entries for <KIND> for <name>",
      "sequence batching must not specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for CONTROL_SEQUENCE_CORRID for <name>",
      'unexpected data type for control CONTROL_SEQUENCE_CORRID for <name>. Allowed data types are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING',
      'sequence batching minimum slot utilization must be in range (0.0, 1.0] for <name>',
      'TRITON_BATCH_STRATEGY_PATH cannot be specified with sequence batcher, using default batching strategy',
      "initial_state field for state input '<input_name>' must contain exactly one or zero element. Found '<n>' elements.",
      "The data type used for 'initial_state' field of state '<input_name>' does not match the state data type.",
      "Field 'name' must be set when using initial_state for state input '<input_name>'.",
      "State input name '<input_name>' specified more than once.",
      "Number of dimensions in 'initial_state' doesn't match the size of 'state' dimensions for state input '<input_name>'. <n> != <m>",
      "'initial_state' field for state input name '<input_name>' contains variable dimensions.",
      "'initial_state' dim for input name '<input_name>' doesn't match 'state' dim description. <a> != <b>",
      'initial_state setting expects <N> bytes, but the data provided from <file>only has <M> bytes.',
      "initial_state setting expects state'<input_name>' to have state_data set",
    ],
    messages,
  },
  check(ctx) {
    const seq = ctx.config.sequence_batching;
    if (!seq) return;
    const name = modelName(ctx);
    checkControls(ctx, seq, name);

    const util = seq.direct?.minimum_slot_utilization;
    if (util !== undefined && (Number.isNaN(util) || util < 0 || util > 1)) {
      ctx.report({
        path: [...BASE, 'direct', 'minimum_slot_utilization'],
        messageId: 'slotUtilizationOutOfRange',
        data: { value: util, util, name },
      });
    }

    if (ctx.config.parameters?.TRITON_BATCH_STRATEGY_PATH !== undefined) {
      const path = ['parameters', 'TRITON_BATCH_STRATEGY_PATH'];
      ctx.report({
        path,
        range: ctx.doc.locate(path)?.name,
        messageId: 'customBatchingStrategy',
      });
    }

    checkStates(ctx, seq.state ?? []);
  },
});

function checkControls(ctx: Ctx, seq: ModelSequenceBatching, name: string): void {
  const seenNames = new Set<string>();
  const seenKinds = new Set<string>();
  (seq.control_input ?? []).forEach((input, i) => {
    const inputPath = [...BASE, 'control_input', i];
    const tensor = input.name ?? '';
    if (!tensor) {
      ctx.report({
        path: [...inputPath, 'name'],
        messageId: 'controlInputWithoutName',
        data: { name },
      });
    } else if (seenNames.has(tensor)) {
      ctx.report({
        path: [...inputPath, 'name'],
        messageId: 'controlTensorTwice',
        data: { tensor, name },
      });
    }
    seenNames.add(tensor);

    (input.control ?? []).forEach((c, j) => {
      const path = [...inputPath, 'control', j];
      const kindPath = c.kind !== undefined ? [...path, 'kind'] : path;
      const kind = kindOf(c);
      if (!(KINDS as readonly string[]).includes(kind)) return;
      if (seenKinds.has(kind)) {
        ctx.report({
          path: kindPath,
          messageId: c.kind === undefined ? 'controlKindUnsetTwice' : 'controlKindTwice',
          data: { kind, name },
        });
      }
      seenKinds.add(kind);
      const lists = LISTS.filter((l) => (c[l]?.length ?? 0) > 0);
      if (kind === 'CONTROL_SEQUENCE_CORRID') {
        for (const l of lists) {
          ctx.report({
            path: [...path, l],
            messageId: 'corridWithFalseTrue',
            data: { list: l, name },
          });
        }
        const dt = typeName(c.data_type);
        if (!CORRID_TYPES.includes(dt)) {
          ctx.report({
            path: c.data_type !== undefined ? [...path, 'data_type'] : kindPath,
            messageId: c.data_type === undefined ? 'corridNoDataType' : 'corridDataType',
            data: { dataType: dt, name, tensor },
          });
        }
        return;
      }
      if (lists.length === 0) {
        ctx.report({
          path: kindPath,
          messageId: 'controlWithoutValues',
          data: { kind, name, tensor },
        });
        return;
      }
      if (lists.length > 1) {
        ctx.report({
          path: [...path, lists[1]!],
          messageId: 'controlValuesTwice',
          data: { kind, lists, listNames: lists.join(' and '), name },
        });
        return;
      }
      const l = lists[0]!;
      const n = c[l]!.length;
      if (n !== 2) {
        ctx.report({
          path: n > 2 ? [...path, l, 2] : [...path, l],
          messageId: n === 1 ? 'controlValueSingle' : 'controlValuesCount',
          data: { kind, list: l, count: n, name, example: l === 'bool_false_true' ? 'false, true' : '0, 1' },
        });
      }
    });
  });
}

function checkStates(ctx: Ctx, states: ModelSequenceBatching_State[]): void {
  const withInitial = new Set<string>();
  states.forEach((state, i) => {
    const path = [...BASE, 'state', i];
    const input = state.input_name ?? '';
    const initial = state.initial_state ?? [];
    if (initial.length > 1) {
      ctx.report({
        path: [...path, 'initial_state', 1],
        messageId: 'initialStateCount',
        data: { input, count: initial.length, length: initial.length },
      });
      return;
    }
    const is = initial[0];
    if (!is) return;
    const isPath = [...path, 'initial_state', 0];
    const isType = typeName(is.data_type);
    const stateType = typeName(state.data_type);
    if (isType !== stateType) {
      ctx.report({
        path: is.data_type !== undefined ? [...isPath, 'data_type'] : isPath,
        messageId: stateType === 'TYPE_INVALID' ? 'initialStateDataTypeUnset' : 'initialStateDataType',
        data: { input, initialType: isType, stateType, isType },
      });
    }
    if (!is.name) {
      ctx.report({
        path: [...isPath, 'name'],
        messageId: 'initialStateWithoutName',
        data: { input, state: input || 'state' },
      });
    }
    if (withInitial.has(input)) {
      ctx.report({
        path: state.input_name !== undefined ? [...path, 'input_name'] : path,
        messageId: 'initialStateTwice',
        data: { input },
      });
    }
    withInitial.add(input);

    const dims = (is.dims ?? []).map(Number);
    const stateDims = (state.dims ?? []).map(Number);
    let dimsOk = true;
    if (dims.length !== stateDims.length) {
      dimsOk = false;
      ctx.report({
        path: is.dims?.length ? [...isPath, 'dims'] : isPath,
        messageId: 'initialStateRank',
        data: { input, dims, stateDims, dimsText: dims.join(','), stateDimsText: stateDims.join(','), length: dims.length, stateLength: stateDims.length },
      });
    } else {
      for (let k = 0; k < dims.length; k++) {
        const d = dims[k]!;
        const s = stateDims[k]!;
        if (d === -1) {
          dimsOk = false;
          ctx.report({
            path: [...isPath, 'dims', k],
            messageId: s !== -1 ? 'initialStateVariableDimSized' : 'initialStateVariableDim',
            data: { input, index: k, dims: dims.join(','), stateDim: s },
          });
          break;
        }
        if (s !== -1 && d !== s) {
          dimsOk = false;
          ctx.report({
            path: [...isPath, 'dims', k],
            messageId: 'initialStateDimMismatch',
            data: { input, index: k, dim: d, stateDim: s },
          });
          break;
        }
      }
    }

    if (is.zero_data === undefined && is.data_file === undefined) {
      ctx.report({
        path: isPath,
        messageId: 'initialStateWithoutData',
        data: { input, name: ctx.model.name },
      });
    } else if (is.data_file !== undefined) {
      const file = is.data_file;
      const problem = dataFileProblem(ctx.files, ctx.model, {
        folder: 'initial_state',
        file,
        field: 'initial_state data_file',
        need: dimsOk && isType !== 'TYPE_STRING' ? byteSizeOf(isType, dims) : undefined,
        subject: `initial_state of state '${input}' (${isType} [${dims.join(',')}])`,
        tritonMessage: (need, size) => `initial_state setting expects ${need} bytes, but the data provided from ${file}only has ${size} bytes.`,
        path: [...isPath, 'data_file'],
        data: { input, file },
      });
      if (problem?.messageId === 'dataFileShort')
        ctx.report({
          ...problem,
          data: { input, file, isType, dimsText: dims.join(','), need: problem.data.need, size: problem.data.size, where: problem.data.where },
        });
      else if (problem) ctx.report(problem);
    }
  });
}

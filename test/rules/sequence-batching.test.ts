import { testRule } from '../support/rule-tester.js';

const HEAD = 'backend: "onnxruntime"\nmax_batch_size: 8\n';
const seq = (body: string): string => `${HEAD}sequence_batching {\n${body}\n}\n`;
const control = (name: string, body: string) => seq(`  control_input [ { name: "${name}" control [ { ${body} } ] } ]`);

const CONTROLS = `  control_input [
    { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "READY" control [ { kind: CONTROL_SEQUENCE_READY fp32_false_true: [ 0, 1 ] } ] },
    { name: "END" control [ { kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true ] } ] },
    { name: "CORRID" control [ { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 } ] }
  ]`;

const STATE = (initial: string, stateDims = '[ -1, 4 ]', stateType = ' data_type: TYPE_FP32'): string => `  state [ {
    input_name: "INPUT_STATE" output_name: "OUTPUT_STATE"${stateType} dims: ${stateDims}
    initial_state: [ ${initial} ]
  } ]`;
const IN = { input: 'INPUT_STATE' };
const DATA_FILE = seq(STATE('{ name: "init" data_type: TYPE_FP32 dims: [ 2, 4 ] data_file: "init.bin" }'));
const S = (i: number): (string | number)[] => ['sequence_batching', 'state', 0, 'initial_state', i];

testRule('sequence-batching', {
  valid: [
    { name: 'all four controls, each done right', config: seq(CONTROLS) },
    {
      name: 'a state with zero initial data, and a direct strategy',
      config: seq(`${STATE('{ name: "init" data_type: TYPE_FP32 dims: [ 2, 4 ] zero_data: true }')}\n  direct { minimum_slot_utilization: 0.5 }`),
    },
    { name: 'a state whose data file holds enough bytes', files: { 'm/config.pbtxt': DATA_FILE, 'm/initial_state/init.bin': new Uint8Array(32) } },
  ],
  invalid: [
    // Controls.
    {
      name: 'a control tensor without a name',
      config: seq('  control_input [ { control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]'),
      errors: [{ messageId: 'controlInputWithoutName', severity: 'error', line: 4, data: { name: 'm' } }],
    },
    {
      name: 'the same tensor twice: points at the second name',
      config: seq(`  control_input [
    { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "START" control [ { kind: CONTROL_SEQUENCE_END int32_false_true: [ 0, 1 ] } ] }
  ]`),
      errors: [{ messageId: 'controlTensorTwice', line: 6, token: '"START"', data: { tensor: 'START', name: 'm' } }],
    },
    {
      name: 'the same kind twice (an unset kind is START)',
      config: seq(`  control_input [
    { name: "A" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "B" control [ { int32_false_true: [ 0, 1 ] } ] }
  ]`),
      errors: [
        {
          messageId: 'controlKindUnsetTwice',
          line: 6,
          path: ['sequence_batching', 'control_input', 1, 'control', 0],
          data: { kind: 'CONTROL_SEQUENCE_START', name: 'm' },
        },
      ],
    },
    {
      name: 'the same kind twice, both written',
      config: seq(`  control_input [
    { name: "A" control [ { kind: CONTROL_SEQUENCE_END int32_false_true: [ 0, 1 ] } ] },
    { name: "B" control [ { kind: CONTROL_SEQUENCE_END int32_false_true: [ 0, 1 ] } ] }
  ]`),
      errors: [{ messageId: 'controlKindTwice', line: 6, token: 'CONTROL_SEQUENCE_END', data: { kind: 'CONTROL_SEQUENCE_END', name: 'm' } }],
    },
    {
      name: 'START without a false/true list',
      config: control('S', 'kind: CONTROL_SEQUENCE_START'),
      errors: [{ messageId: 'controlWithoutValues', token: 'CONTROL_SEQUENCE_START', data: { kind: 'CONTROL_SEQUENCE_START', name: 'm', tensor: 'S' } }],
    },
    {
      name: 'START with two false/true lists',
      config: control('S', 'kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] fp32_false_true: [ 0, 1 ]'),
      errors: [
        {
          messageId: 'controlValuesTwice',
          token: 'fp32_false_true',
          data: {
            kind: 'CONTROL_SEQUENCE_START',
            lists: ['int32_false_true', 'fp32_false_true'],
            listNames: 'int32_false_true and fp32_false_true',
            name: 'm',
          },
        },
      ],
    },
    {
      name: 'a list of 3: points at the third entry',
      config: control('S', 'kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true, true ]'),
      errors: [
        {
          messageId: 'controlValuesCount',
          line: 4,
          token: 'true',
          path: ['sequence_batching', 'control_input', 0, 'control', 0, 'bool_false_true', 2],
          data: { kind: 'CONTROL_SEQUENCE_END', list: 'bool_false_true', count: 3, example: 'false, true' },
        },
      ],
    },
    {
      name: 'a list of 1',
      config: control('S', 'kind: CONTROL_SEQUENCE_READY int32_false_true: [ 1 ]'),
      errors: [
        {
          messageId: 'controlValueSingle',
          token: 'int32_false_true',
          data: { kind: 'CONTROL_SEQUENCE_READY', list: 'int32_false_true', count: 1, example: '0, 1' },
        },
      ],
    },
    {
      name: 'CORRID with a false/true list',
      config: control('C', 'kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 int32_false_true: [ 0, 1 ]'),
      errors: [{ messageId: 'corridWithFalseTrue', token: 'int32_false_true', data: { list: 'int32_false_true', name: 'm' } }],
    },
    {
      name: 'CORRID with a data_type that cannot carry an ID',
      config: control('C', 'kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_FP32'),
      errors: [{ messageId: 'corridDataType', token: 'TYPE_FP32', data: { dataType: 'TYPE_FP32', name: 'm', tensor: 'C' } }],
    },
    {
      name: 'CORRID without data_type',
      config: control('C', 'kind: CONTROL_SEQUENCE_CORRID'),
      errors: [{ messageId: 'corridNoDataType', token: 'CONTROL_SEQUENCE_CORRID', data: { dataType: 'TYPE_INVALID', name: 'm', tensor: 'C' } }],
    },
    {
      name: 'direct minimum_slot_utilization above 1',
      config: seq('  direct { minimum_slot_utilization: 1.5 }'),
      errors: [{ messageId: 'slotUtilizationOutOfRange', token: '1.5', data: { util: 1.5, value: 1.5, name: 'm' } }],
    },
    {
      name: 'a custom batching strategy with the sequence batcher',
      config: `${seq(CONTROLS)}parameters { key: "TRITON_BATCH_STRATEGY_PATH" value: { string_value: "libbatch.so" } }\n`,
      errors: [{ messageId: 'customBatchingStrategy', token: '"TRITON_BATCH_STRATEGY_PATH"' }],
    },
    // States.
    {
      name: 'two initial states',
      config: seq(
        STATE('{ name: "a" data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }, { name: "b" data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }'),
      ),
      errors: [{ messageId: 'initialStateCount', path: S(1), data: { ...IN, count: 2, length: 2 } }],
    },
    {
      name: "an initial state of another data type than the state's",
      config: seq(STATE('{ name: "i" data_type: TYPE_INT32 dims: [ 1, 4 ] zero_data: true }')),
      errors: [
        { messageId: 'initialStateDataType', token: 'TYPE_INT32', data: { ...IN, isType: 'TYPE_INT32', initialType: 'TYPE_INT32', stateType: 'TYPE_FP32' } },
      ],
    },
    {
      name: 'a state without data type, its initial state with one',
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }', '[ -1, 4 ]', '')),
      errors: [{ messageId: 'initialStateDataTypeUnset', token: 'TYPE_FP32', data: { ...IN, isType: 'TYPE_FP32', stateType: 'TYPE_INVALID' } }],
    },
    {
      name: 'an initial state without a name',
      config: seq(STATE('{ data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }')),
      errors: [{ messageId: 'initialStateWithoutName', path: [...S(0), 'name'], data: { ...IN, state: 'INPUT_STATE' } }],
    },
    {
      name: "an initial state of another rank than the state's",
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ 4 ] zero_data: true }')),
      errors: [
        {
          messageId: 'initialStateRank',
          path: [...S(0), 'dims'],
          data: { ...IN, dims: [4], stateDims: [-1, 4], dimsText: '4', stateDimsText: '-1,4', length: 1, stateLength: 2 },
        },
      ],
    },
    {
      name: 'an initial state with a variable dim where the state has one too',
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ -1, 4 ] zero_data: true }')),
      errors: [{ messageId: 'initialStateVariableDim', token: '-1', data: { ...IN, index: 0, dims: '-1,4' } }],
    },
    {
      name: "an initial state with a variable dim where the state's is fixed",
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ 2, -1 ] zero_data: true }', '[ 2, 4 ]')),
      errors: [{ messageId: 'initialStateVariableDimSized', token: '-1', data: { ...IN, index: 1, dims: '2,-1', stateDim: 4 } }],
    },
    {
      name: "an initial state dim unlike the state's",
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ 2, 5 ] zero_data: true }')),
      errors: [{ messageId: 'initialStateDimMismatch', token: '5', data: { ...IN, index: 1, dim: 5, stateDim: 4 } }],
    },
    {
      name: 'an initial state without data',
      config: seq(STATE('{ name: "i" data_type: TYPE_FP32 dims: [ 2, 4 ] }')),
      errors: [{ messageId: 'initialStateWithoutData', path: S(0), data: { ...IN, name: 'm' } }],
    },
    {
      name: 'the same state input twice with initial states',
      config: seq(
        `  state [ ${['', ''].map(() => '{ input_name: "S" output_name: "S_OUT" data_type: TYPE_FP32 dims: [ 4 ] initial_state: [ { name: "i" data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } ] }').join(', ')} ]`,
      ),
      errors: [{ messageId: 'initialStateTwice', path: ['sequence_batching', 'state', 1, 'input_name'], data: { input: 'S' } }],
    },
    {
      name: 'a data file too short: error',
      files: { 'm/config.pbtxt': DATA_FILE, 'm/initial_state/init.bin': new Uint8Array(16) },
      errors: [
        {
          messageId: 'dataFileShort',
          severity: 'error',
          token: '"init.bin"',
          data: { ...IN, file: 'init.bin', need: 32, size: 16, where: 'm/initial_state/', isType: 'TYPE_FP32', dimsText: '2,4' },
        },
      ],
    },
    {
      name: 'a data file missing: warning',
      config: DATA_FILE,
      errors: [
        {
          messageId: 'dataFileMissing',
          severity: 'warning',
          token: '"init.bin"',
          data: { ...IN, file: 'init.bin', field: 'initial_state data_file', where: 'm/initial_state/' },
        },
      ],
    },
  ],
});

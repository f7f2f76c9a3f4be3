import { testRule } from '../support/rule-tester.js';

const HEAD = `platform: "tensorrt_plan"
max_batch_size: 8
input [ { name: "INPUT" data_type: TYPE_FP32 dims: [ -1 ] allow_ragged_batch: true } ]
output [ { name: "OUTPUT" data_type: TYPE_FP32 dims: [ -1 ] } ]
`;
const INPUT_KINDS =
  'BATCH_ELEMENT_COUNT, BATCH_ACCUMULATED_ELEMENT_COUNT, BATCH_ACCUMULATED_ELEMENT_COUNT_WITH_ZERO, BATCH_MAX_ELEMENT_COUNT_AS_SHAPE, BATCH_ITEM_SHAPE, BATCH_ITEM_SHAPE_FLATTEN';

testRule('batch-io', {
  valid: [
    {
      name: 'a ragged batch: element counts in, scatter out',
      config: `${HEAD}batch_input [ { kind: BATCH_ACCUMULATED_ELEMENT_COUNT target_name: "INDEX" data_type: TYPE_INT32 source_input: "INPUT" } ]
batch_output [ { target_name: "OUTPUT" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "INPUT" } ]
`,
    },
  ],
  invalid: [
    {
      name: 'no source input: points at the kind',
      config: `${HEAD}batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT32 } ]\n`,
      errors: [
        {
          messageId: 'batchInputSourceMissing',
          data: { kind: 'BATCH_ELEMENT_COUNT', length: 0, count: 0, modelName: 'm' },
          severity: 'error',
          line: 5,
          token: 'BATCH_ELEMENT_COUNT',
          path: ['batch_input', 0, 'kind'],
        },
      ],
      output: null,
    },
    {
      name: 'two sources: points at the second',
      config: `${HEAD}batch_input [ { kind: BATCH_ITEM_SHAPE target_name: "N" data_type: TYPE_INT32 source_input: [ "INPUT", "INPUT" ] } ]\n`,
      errors: [
        {
          messageId: 'batchInputSourceCount',
          data: { kind: 'BATCH_ITEM_SHAPE', length: 2, count: 2, modelName: 'm' },
          severity: 'error',
          line: 5,
          token: '"INPUT"',
          path: ['batch_input', 0, 'source_input', 1],
        },
      ],
    },
    {
      name: 'a batch input type other than INT32/FP32',
      config: `${HEAD}batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT64 source_input: "INPUT" } ]\n`,
      errors: [{ messageId: 'batchInputDataType', data: { dataType: 'TYPE_INT64', target: 'N', modelName: 'm' }, severity: 'error', token: 'TYPE_INT64' }],
    },
    {
      name: 'a batch input without data_type: on the kind',
      config: `${HEAD}batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" source_input: "INPUT" } ]\n`,
      errors: [{ messageId: 'batchInputNoDataType', data: { target: 'N', modelName: 'm' }, severity: 'error', token: 'BATCH_ELEMENT_COUNT' }],
    },
    {
      name: 'an unknown batch input kind (a number past the enum): nothing else is checked',
      config: `${HEAD}batch_input [ { kind: 42 target_name: "N" data_type: TYPE_INT64 } ]\n`,
      errors: [{ messageId: 'unknownBatchInputKind', data: { kind: '42', modelName: 'm', INPUT_KINDS }, severity: 'error', token: '42' }],
    },
    {
      name: 'an unknown target, a target twice, an unknown source (in the order they are written)',
      config: `${HEAD}batch_output [ { target_name: [ "OUTPUT", "OUT", "OUTPUT" ] kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "IN" } ]\n`,
      errors: [
        { messageId: 'targetNameUnknown', data: { target: 'OUT', outputs: "'OUTPUT'", modelName: 'm' }, severity: 'error', token: '"OUT"' },
        {
          messageId: 'targetNameTwice',
          data: { target: 'OUTPUT', modelName: 'm' },
          severity: 'error',
          token: '"OUTPUT"',
          path: ['batch_output', 0, 'target_name', 2],
        },
        { messageId: 'sourceInputUnknown', data: { source: 'IN', inputs: "'INPUT'", modelName: 'm' }, severity: 'error', token: '"IN"' },
      ],
    },
    {
      name: 'with no inputs listed, an unknown source is only a warning (auto-complete may add it)',
      config: 'platform: "tensorrt_plan"\nbatch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT32 source_input: "X" } ]\n',
      errors: [{ messageId: 'sourceInputUnlisted', data: { source: 'X', modelName: 'm' }, severity: 'warning', token: '"X"' }],
    },
    {
      name: 'with no outputs listed, an unknown target is only a warning',
      config:
        'platform: "tensorrt_plan"\ninput [ { name: "INPUT" data_type: TYPE_FP32 dims: [ -1 ] } ]\nbatch_output [ { target_name: "Y" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "INPUT" } ]\n',
      errors: [{ messageId: 'targetNameUnlisted', data: { target: 'Y', modelName: 'm' }, severity: 'warning', token: '"Y"' }],
    },
    {
      name: 'an unknown batch output kind',
      config: `${HEAD}batch_output [ { target_name: "OUTPUT" kind: 3 source_input: "INPUT" } ]\n`,
      errors: [{ messageId: 'unknownBatchOutputKind', data: { kind: '3', modelName: 'm' }, severity: 'error', token: '3' }],
    },
    {
      name: 'a batch output without a source input, and one with two',
      config: `${HEAD}batch_output [ { target_name: "OUTPUT" kind: BATCH_SCATTER_WITH_INPUT_SHAPE }, { target_name: "OUTPUT" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: [ "INPUT", "INPUT" ] } ]\n`,
      errors: [
        {
          messageId: 'batchOutputSourceMissing',
          data: { kind: 'BATCH_SCATTER_WITH_INPUT_SHAPE', length: 0, modelName: 'm' },
          token: 'BATCH_SCATTER_WITH_INPUT_SHAPE',
          path: ['batch_output', 0, 'kind'],
        },
        {
          messageId: 'batchOutputSourceCount',
          data: { kind: 'BATCH_SCATTER_WITH_INPUT_SHAPE', length: 2, modelName: 'm' },
          token: '"INPUT"',
          path: ['batch_output', 1, 'source_input', 1],
        },
      ],
    },
  ],
});

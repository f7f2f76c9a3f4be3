// onnxruntime_backend src/onnxruntime.cc ValidateBooleanSequenceControl / ValidateTypedSequenceControl.
import type { OnnxSpec } from '../lint/harness.js';
import { testRule } from '../support/rule-tester.js';

const counter = (start: [string, (number | string)[]]): OnnxSpec => ({
  inputs: [
    ['INPUT', 'INT32', ['b', 1]],
    ['START', start[0], start[1]],
  ],
  outputs: [['OUTPUT', 'INT32', ['b', 1]]],
});
const config = (control: string) => `name: "counter"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
output [ { name: "OUTPUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
sequence_batching { control_input [ { name: "START" control [ { kind: CONTROL_SEQUENCE_START ${control} } ] } ] }
`;
const repo = (control: string, model: OnnxSpec) => ({
  targets: ['counter'],
  files: { 'counter/config.pbtxt': config(control), 'counter/1/model.onnx': model },
});
const MODEL = { tensor: 'START', model: 'counter' };

testRule('sequence-control-inputs', {
  valid: [
    { name: 'int32_false_true with an INT32 [batch, 1] input', ...repo('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 1]])) },
    { name: 'fp32_false_true with a FLOAT input', ...repo('fp32_false_true: [ 0, 1 ]', counter(['FLOAT', ['b', 1]])) },
    { name: 'bool_false_true with a BOOL input', ...repo('bool_false_true: [ false, true ]', counter(['BOOL', ['b', 1]])) },
  ],
  invalid: [
    {
      name: 'a control list of another type than the model input: the list to write',
      ...repo('int32_false_true: [ 0, 1 ]', counter(['BOOL', ['b', 1]])),
      errors: [
        {
          messageId: 'listTypeMismatch',
          severity: 'error',
          line: 6,
          token: 'int32_false_true',
          data: {
            ...MODEL,
            configType: 'TYPE_INT32',
            list: 'int32_false_true',
            elemType: 'BOOL',
            tritonType: 'TYPE_BOOL',
            expectedList: 'bool_false_true: [ false, true ]',
          },
        },
      ],
    },
    {
      name: 'a control list for a model input of a type no list has: set data_type',
      ...repo('int32_false_true: [ 0, 1 ]', counter(['INT64', ['b', 1]])),
      errors: [
        {
          messageId: 'listTypeUnlisted',
          line: 6,
          token: 'int32_false_true',
          data: { ...MODEL, configType: 'TYPE_INT32', list: 'int32_false_true', elemType: 'INT64', tritonType: 'TYPE_INT64' },
        },
      ],
    },
    {
      name: "a typed control's data_type unlike the model input's",
      ...repo('', counter(['INT64', ['b', 1]])),
      files: {
        'counter/config.pbtxt': config('').replace('CONTROL_SEQUENCE_START ', 'CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64'),
        'counter/1/model.onnx': counter(['INT64', ['b', 1]]),
      },
      errors: [
        {
          messageId: 'dataTypeMismatch',
          line: 6,
          token: 'TYPE_UINT64',
          data: { ...MODEL, configType: 'TYPE_UINT64', elemType: 'INT64', tritonType: 'TYPE_INT64' },
        },
      ],
    },
    {
      name: 'a control tensor the model does not have',
      ...repo('int32_false_true: [ 0, 1 ]', { inputs: [['INPUT', 'INT32', ['b', 1]]], outputs: [['OUTPUT', 'INT32', ['b', 1]]] }),
      errors: [{ messageId: 'notAModelInput', line: 6, token: '"START"', data: { tensor: 'START', inputs: "'INPUT'" } }],
    },
    {
      name: 'a control input that is not [1] per item',
      ...repo('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 2]])),
      errors: [{ messageId: 'dimsNotOne', data: { ...MODEL, dims: '[2]' } }],
    },
    {
      name: 'a control input with a dynamic dim',
      ...repo('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 'n']])),
      errors: [{ messageId: 'dimsNotOne', data: { ...MODEL, dims: '[-1]' } }],
    },
  ],
});

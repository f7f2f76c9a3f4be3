import { encodeModel, model, T, tensorInfo, tensorType, valueInfo } from '../../fixtures/onnx/model-builder.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, type OnnxSpec } from '../lint/harness.js';
import { testRule } from '../support/rule-tester.js';
import { irFiles } from '../openvino/fixtures.js';
import { savedModelPb } from '../savedmodel/helpers.js';

const classifier = (config: string) => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': CLASSIFIER });
const withModel = (config: string, spec: OnnxSpec | Uint8Array) => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': spec });

/** x [-1,4] FLOAT -> tokens, a sequence of INT64 tensors (not a tensor). */
const SEQUENCE_OUTPUT = encodeModel(
  model({
    name: 'test',
    node: [],
    input: [tensorInfo('x', T.FLOAT, [-1, 4])],
    output: [valueInfo('tokens', { sequenceType: { elemType: tensorType(T.INT64, [-1]) } })],
  }),
);

testRule('io-datatype', {
  valid: [
    { name: 'types that match the model', files: classifier(CLASSIFIER_CONFIG) },
    {
      name: 'STRING is TYPE_STRING, BOOL is TYPE_BOOL, FLOAT16 is TYPE_FP16, BFLOAT16 is TYPE_BF16',
      files: withModel(
        `input [ { name: "s" data_type: TYPE_STRING dims: [-1] }, { name: "b" data_type: TYPE_BOOL dims: [-1] } ]
output [ { name: "h" data_type: TYPE_FP16 dims: [-1] }, { name: "bf" data_type: TYPE_BF16 dims: [-1] } ]\n`,
        {
          inputs: [
            ['s', 'STRING', [-1]],
            ['b', 'BOOL', [-1]],
          ],
          outputs: [
            ['h', 'FLOAT16', [-1]],
            ['bf', 'BFLOAT16', [-1]],
          ],
        },
      ),
    },
  ],
  invalid: [
    {
      name: 'TYPE_INT32 for an FP32 input: points at the type, says which to set, and sets it',
      files: classifier(CLASSIFIER_CONFIG.replace('name: "input" data_type: TYPE_FP32', 'name: "input" data_type: TYPE_INT32')),
      errors: [
        {
          messageId: 'dataTypeMismatch',
          data: { configType: 'TYPE_INT32', direction: 'input', name: 'input', elemType: 'FLOAT', modelType: 'TYPE_FP32' },
          severity: 'error',
          line: 4,
          token: 'TYPE_INT32',
          path: ['input', 0, 'data_type'],
        },
      ],
      output: CLASSIFIER_CONFIG,
    },
    {
      name: 'an output type mismatch (Triton qa: "configuration expects datatype ... for output")',
      files: classifier(CLASSIFIER_CONFIG.replace('name: "output" data_type: TYPE_FP32', 'name: "output" data_type: TYPE_FP16')),
      errors: [
        {
          messageId: 'dataTypeMismatch',
          data: { configType: 'TYPE_FP16', direction: 'output', name: 'output', elemType: 'FLOAT', modelType: 'TYPE_FP32' },
          line: 5,
          token: 'TYPE_FP16',
        },
      ],
    },
    {
      name: 'an element type Triton cannot serve: no fix',
      files: withModel('input { name: "c" data_type: TYPE_FP32 dims: [-1] }\noutput { name: "y" data_type: TYPE_FP32 dims: [-1] }\n', {
        inputs: [['c', 'COMPLEX64', [-1]]],
        outputs: [['y', 'FLOAT', [-1]]],
      }),
      errors: [
        {
          messageId: 'unservableElementType',
          data: { direction: 'input', name: 'c', elemType: 'COMPLEX64', configType: 'TYPE_FP32', modelType: null },
          severity: 'error',
          token: 'TYPE_FP32',
          line: 1,
        },
      ],
      output: null,
    },
    {
      name: 'a model output that is a sequence, not a tensor: on the config name',
      files: withModel('input { name: "x" data_type: TYPE_FP32 dims: [-1, 4] }\noutput { name: "tokens" data_type: TYPE_INT64 dims: [-1] }\n', SEQUENCE_OUTPUT),
      errors: [
        {
          messageId: 'modelTensorNotTensor',
          data: { direction: 'output', name: 'tokens', kind: 'sequence', ONNX_KIND: 'ONNX_TYPE_SEQUENCE' },
          severity: 'error',
          line: 2,
          token: '"tokens"',
        },
      ],
    },
  ],
});

// The OpenVINO backend converts to the config's data_type (set_element_type) instead of comparing it,
// and refuses only a type it has no element for (openvino_backend src/openvino.cc ValidateInputs).
const ovConfig = (inputType: string): string =>
  `backend: "openvino"\ninput { name: "Func/PartitionedCall/input/_0:0" data_type: ${inputType} dims: [1, 4] }\ninput { name: "input1" data_type: TYPE_INT32 dims: [1, 4] }\n`;

testRule('io-datatype', {
  valid: [
    {
      name: 'OpenVINO: TYPE_FP32 for an i32 input is a conversion, not a mismatch',
      files: { 'm/config.pbtxt': ovConfig('TYPE_FP32'), ...irFiles('openvino_fixed_batch', 'm') },
    },
  ],
  invalid: [
    {
      name: 'OpenVINO: a data type the backend has no element for',
      files: { 'm/config.pbtxt': ovConfig('TYPE_STRING'), ...irFiles('openvino_fixed_batch', 'm') },
      errors: [
        {
          messageId: 'unsupportedDataType',
          data: { direction: 'input', name: 'Func/PartitionedCall/input/_0:0', configType: 'TYPE_STRING', backend: 'OpenVINO', model: 'm', elemType: 'i32' },
          token: 'TYPE_STRING',
        },
      ],
      output: null,
    },
  ],
});

// TensorFlow SavedModels (real exports): DT_* types through the backend's table; a signature tensor of a
// type it cannot serve fails the load whether the config lists it or not.
testRule('io-datatype', {
  valid: [
    {
      name: 'TensorFlow: DT_INT32 is TYPE_INT32, DT_INT8 is TYPE_INT8',
      files: {
        'm/config.pbtxt':
          'max_batch_size: 1\ninput [ { name: "INPUT0" data_type: TYPE_INT32 dims: [16] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_INT8 dims: [16] } ]\n',
        'm/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_int32_int8_int8'),
      },
    },
  ],
  invalid: [
    {
      name: 'TensorFlow: a DT_COMPLEX64 signature input, not listed in the config',
      files: { 'm/config.pbtxt': 'max_batch_size: 4\n', 'm/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_complex64') },
      errors: [{ messageId: 'unservableElementType', path: [], data: { name: 'INPUT0', direction: 'input', elemType: 'DT_COMPLEX64', modelType: null } }],
    },
    {
      name: 'TensorFlow: a DT_INT32 input written as TYPE_FP32 (qa autofill_noplatform/tensorflow_savedmodel/bad_input_type)',
      files: {
        'm/config.pbtxt': 'max_batch_size: 1\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [16] } ]\n',
        'm/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_int32_int8_int8'),
      },
      errors: [{ messageId: 'dataTypeMismatch', data: { name: 'INPUT0', configType: 'TYPE_FP32', modelType: 'TYPE_INT32', elemType: 'DT_INT32' } }],
    },
  ],
});

// The ONNX Runtime backend serves BFLOAT16 from 26.03 (onnxruntime_backend src/onnxruntime_utils.cc
// ConvertFromOnnxDataType at r26.03; r26.02 has no BF16 case): the release before refuses it either way
// (tritonserver 2.51, test/server/onnx-runtime-version-real-triton.test.ts).
const BF16_MODEL = { inputs: [['x', 'BFLOAT16', [-1, 4]]], outputs: [['y', 'FLOAT', [-1, 4]]] } as OnnxSpec;
const bf16Config = (type: string) =>
  `backend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "x" data_type: ${type} dims: [ 4 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n`;

testRule('io-datatype', {
  valid: [
    { name: 'BF16 I/O from 26.03', files: withModel(bf16Config('TYPE_BF16'), BF16_MODEL), settings: { triton: '26.03' } },
    { name: 'BF16 I/O auto-completed from 26.03', files: withModel('backend: "onnxruntime"\nmax_batch_size: 8\n', BF16_MODEL), settings: { triton: '26.03' } },
    {
      name: 'BF16 I/O before 26.03 with auto-complete off: the config is as written',
      files: withModel('backend: "onnxruntime"\nmax_batch_size: 8\n', BF16_MODEL),
      settings: { triton: '26.02', server: { disableAutoCompleteConfig: true } },
    },
  ],
  invalid: [
    {
      name: 'TYPE_BF16 in 26.02: "unsupported datatype TYPE_BF16"',
      files: withModel(bf16Config('TYPE_BF16'), BF16_MODEL),
      settings: { triton: '26.02' },
      errors: [{ messageId: 'bf16BeforeRelease', data: { name: 'x', direction: 'input', model: 'm', release: '26.02' }, path: ['input', 0, 'data_type'] }],
    },
    {
      name: 'another type for a BFLOAT16 tensor in 24.10: "model provides TYPE_<invalid>", no fix to TYPE_BF16',
      files: withModel(bf16Config('TYPE_FP16'), BF16_MODEL),
      settings: { triton: '24.10' },
      errors: [{ messageId: 'bf16BeforeReleaseMismatch', data: { configType: 'TYPE_FP16', release: '24.10' } }],
      output: null,
    },
    {
      name: "BF16 I/O auto-completed in 26.02: \"model input 'x' must specify 'data_type'\"",
      files: withModel('backend: "onnxruntime"\nmax_batch_size: 8\n', BF16_MODEL),
      settings: { triton: '26.02' },
      errors: [
        {
          messageId: 'bf16BeforeReleaseAutoComplete',
          data: { name: 'x', direction: 'input', subject: "model input 'x'", model: 'm', release: '26.02' },
          path: [],
        },
      ],
    },
    {
      name: 'the same in 24.06, whose core names no tensor and says "model output" for an input\'s data_type',
      files: withModel('backend: "onnxruntime"\nmax_batch_size: 8\n', BF16_MODEL),
      settings: { triton: '24.06' },
      errors: [{ messageId: 'bf16BeforeReleaseAutoComplete', data: { subject: 'model output', release: '24.06' }, path: [] }],
    },
    {
      name: 'another type for a BFLOAT16 tensor in 26.03: the ordinary mismatch, fixed to TYPE_BF16',
      files: withModel(bf16Config('TYPE_FP16'), BF16_MODEL),
      settings: { triton: '26.03' },
      errors: [{ messageId: 'dataTypeMismatch', data: { modelType: 'TYPE_BF16' } }],
    },
  ],
});

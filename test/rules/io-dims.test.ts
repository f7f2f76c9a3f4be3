import { testRule } from '../support/rule-tester.js';

const ORT = 'backend: "onnxruntime"\n';
const OUT = '{ name: "y" data_type: TYPE_FP32 dims: [ 4 ] }';
const io = (mbs: number, input: string, output = OUT): string => `${ORT}max_batch_size: ${mbs}\ninput [ ${input} ]\noutput [ ${output} ]\n`;
const x = (rest: string): string => `{ name: "x" data_type: TYPE_FP32 ${rest} }`;
const reshaped = (dims: string, shape: string): string => io(8, x(`dims: ${dims} reshape { shape: ${shape} }`));
const INPUT = { direction: 'input', name: 'x', model: 'm' };

testRule('io-dims', {
  valid: [
    { name: 'plain dims', config: io(8, x('dims: [ 3, -1, -1 ]')) },
    // r26.02 core: common's GetElementCount wraps in int64; the r24.10 core loads both (test/conformance/core-releases.test.ts).
    {
      name: 'dims beyond int64 without a reshape, for 26.02 (the count wraps; refused from 26.03)',
      config: io(8, x('dims: [ 4294967296, 4294967296 ]')),
      settings: { triton: '26.02' },
    },
    {
      name: 'dims and a matching reshape beyond int64, for 26.02 (both counts wrap alike)',
      config: reshaped('[ 4294967296, 4294967296 ]', '[ 4294967296, 4294967296 ]'),
      settings: { triton: '26.02' },
    },
    {
      name: 'an ensemble input beyond int64, for 26.03 (no backend scheduler counts it)',
      config:
        'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 4294967296, 4294967296 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
      settings: { triton: '26.03' },
    },
    {
      name: 'a scalar per item: dims [1] + empty reshape with batching',
      config: io(8, '{ name: "x" data_type: TYPE_INT64 dims: [ 1 ] reshape { shape: [ ] } }'),
    },
    { name: 'a reshape of the same element count', config: io(0, x('dims: [ 2, 12 ] reshape { shape: [ 4, 6 ] }')) },
    { name: 'variable segments that match: [2,4,-1,6] to [8,-1,1,6]', config: io(0, x('dims: [ 2, 4, -1, 6 ] reshape { shape: [ 8, -1, 1, 6 ] }')) },
    { name: 'NCHW with 3 dims', config: io(8, x('format: FORMAT_NCHW dims: [ 3, 224, 224 ]')) },
    { name: 'dims of one element and an empty reshape', config: reshaped('[ 1, 1 ]', '[ ]') },
    {
      name: 'TensorRT flags on a TensorRT model',
      config:
        'platform: "tensorrt_plan"\ninput [ { name: "s" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true }, { name: "x" data_type: TYPE_FP16 dims: [ 3, 8, 8 ] is_non_linear_format_io: true } ]\n',
    },
  ],
  invalid: [
    // core r24.07 src/model_config_utils.cc ValidateIOShape names the tensor; r24.06 does not, and says
    // "model output" for any missing data_type (core-releases.ts ioSubject).
    {
      name: "24.06's words: no tensor name, and a missing data_type always 'model output'",
      config: io(8, '{ name: "x" }'),
      settings: { triton: '24.06' },
      errors: [
        { messageId: 'noDataType', data: { ...INPUT, subject: 'model output' } },
        { messageId: 'noDims', data: { ...INPUT, subject: 'model input' } },
      ],
    },
    {
      name: "24.07's words: the tensor named",
      config: io(8, '{ name: "x" }'),
      settings: { triton: '24.07' },
      errors: [
        { messageId: 'noDataType', data: { ...INPUT, subject: "model input 'x'" } },
        { messageId: 'noDims', data: { ...INPUT, subject: "model input 'x'" } },
      ],
    },
    {
      name: "24.06's words for a reshape of another size",
      config: reshaped('[ 2, 12 ]', '[ 4, 5 ]'),
      settings: { triton: '24.06' },
      errors: [{ messageId: 'reshapeSizeMismatch', data: { ...INPUT, subject: 'model input' } }],
    },
    {
      name: 'a dim of 0: points at it, per input',
      config: io(8, x('dims: [ 3, 0 ]')),
      errors: [{ messageId: 'dimNotSize', data: { ...INPUT, dim: '0', index: 1 }, severity: 'error', line: 3, token: '0', path: ['input', 0, 'dims', 1] }],
    },
    {
      name: 'outputs are named as outputs',
      config: io(8, x('dims: [ 3 ]'), '{ name: "y" data_type: TYPE_FP32 dims: [ -2 ] }'),
      errors: [{ messageId: 'dimNotSize', data: { direction: 'output', name: 'y', model: 'm', dim: '-2' }, line: 4, token: '-2' }],
    },
    {
      name: 'no name',
      config: io(8, '{ data_type: TYPE_FP32 dims: [ 3 ] }'),
      errors: [{ messageId: 'noName', data: { direction: 'input', model: 'm' }, severity: 'error' }],
    },
    {
      name: 'no data_type and no dims: both at the name',
      config: io(8, '{ name: "x" }'),
      errors: [
        { messageId: 'noDataType', data: INPUT, severity: 'error', token: '"x"' },
        { messageId: 'noDims', data: INPUT, severity: 'error', token: '"x"' },
      ],
    },
    {
      name: 'empty dims: at dims',
      config: io(8, x('dims: [ ]')),
      errors: [{ messageId: 'noDims', data: INPUT, token: 'dims' }],
    },
    {
      name: 'no data_type is a warning when the backend auto-completes tensors (TensorRT by its model.plan)',
      files: { 'm/config.pbtxt': 'input [ { name: "x" dims: [ 16 ] } ]\n', 'm/1/model.plan': '' },
      errors: [{ messageId: 'noDataTypeUnlessCompleted', data: { ...INPUT, backend: 'tensorrt' }, severity: 'warning' }],
    },
    {
      name: 'no dims is a warning when the backend auto-completes tensors',
      files: { 'm/config.pbtxt': 'input [ { name: "x" data_type: TYPE_FP32 } ]\n', 'm/1/model.plan': '' },
      errors: [{ messageId: 'noDimsUnlessCompleted', data: { ...INPUT, backend: 'tensorrt' }, severity: 'warning' }],
    },
    {
      name: 'an unknown numeric data_type',
      config: io(8, '{ name: "x" data_type: 99 dims: [ 3 ] }'),
      errors: [{ messageId: 'unknownDataType', data: { name: 'x', data_type: 99 }, severity: 'error', token: '99' }],
    },
    {
      name: 'an empty reshape with max_batch_size 0',
      config: io(0, x('dims: [ 1 ] reshape { shape: [ ] }')),
      errors: [{ messageId: 'emptyReshapeWithoutBatching', data: INPUT, severity: 'error', token: '{ shape: [ ] }' }],
    },
    {
      name: 'an empty reshape without max_batch_size',
      config: `${ORT}input [ ${x('dims: [ 1 ] reshape { shape: [ ] }')} ]\noutput [ ${OUT} ]\n`,
      errors: [{ messageId: 'emptyReshapeBatchingUnset', data: INPUT, severity: 'error', token: '{ shape: [ ] }' }],
    },
    {
      name: "an empty reshape with max_batch_size 0, which the ONNX Runtime backend's auto-complete may raise (no outputs listed)",
      config: `${ORT}max_batch_size: 0\ninput [ ${x('dims: [ 1 ] reshape { shape: [ ] }')} ]\n`,
      errors: [{ messageId: 'emptyReshapeUnlessBatchRaised', data: INPUT, severity: 'warning' }],
    },
    {
      name: 'an empty reshape without max_batch_size, which auto-complete may raise',
      config: `${ORT}input [ ${x('dims: [ 1 ] reshape { shape: [ ] }')} ]\n`,
      errors: [{ messageId: 'emptyReshapeBatchingUnsetUnlessRaised', data: INPUT, severity: 'warning' }],
    },
    {
      name: 'with auto-complete off, an empty reshape without batching is an error',
      config: `${ORT}input [ ${x('dims: [ 1 ] reshape { shape: [ ] }')} ]\n`,
      options: { server: { autoCompleteConfig: false } },
      errors: [{ messageId: 'emptyReshapeBatchingUnset', data: INPUT, severity: 'error' }],
    },
    {
      name: 'a reshape dim of 0',
      config: reshaped('[ 4 ]', '[ 0, 4 ]'),
      errors: [{ messageId: 'reshapeDimNotSize', data: { ...INPUT, dim: '0', index: 0 }, path: ['input', 0, 'reshape', 'shape', 0] }],
    },
    {
      name: 'a reshape of another element count',
      config: reshaped('[ 2, 3 ]', '[ 5 ]'),
      errors: [
        {
          messageId: 'reshapeSizeMismatch',
          data: { ...INPUT, reshapeText: '[5]', reshapeCount: '5', dimsText: '[2,3]', dimsCount: '6', dims: ['2', '3'], reshape: ['5'] },
        },
      ],
    },
    {
      name: 'an empty reshape needs dims of one element',
      config: reshaped('[ 2 ]', '[ ]'),
      errors: [{ messageId: 'emptyReshapeSizeMismatch', data: { ...INPUT, dimsText: '[2]' }, path: ['input', 0, 'reshape'] }],
    },
    {
      name: 'a variable count against a fixed one',
      config: reshaped('[ -1, 4 ]', '[ 4 ]'),
      errors: [{ messageId: 'reshapeVariableSizeMismatch', data: { ...INPUT, reshapeText: '[4]', dimsText: '[-1,4]' } }],
    },
    {
      name: 'a different number of variable dims',
      config: reshaped('[ -1, 4 ]', '[ -1, 2, -1 ]'),
      errors: [{ messageId: 'reshapeVariableCount', data: { ...INPUT, reshapeText: '[-1,2,-1]', reshapeVariables: 2, dimsText: '[-1,4]', dimsVariables: 1 } }],
    },
    {
      name: 'variable segments whose fixed dims differ',
      config: reshaped('[ 2, -1, 6 ]', '[ 4, -1, 3 ]'),
      errors: [{ messageId: 'reshapeFixedMismatch', data: { ...INPUT, reshapeFixed: '2, 6', dimsFixed: '4, 3' } }],
    },
    {
      name: 'element counts beyond int64',
      config: reshaped('[ 4294967296, 4294967296 ]', '[ -1 ]'),
      errors: [{ messageId: 'elementCountOverflow', data: { ...INPUT, label: 'dims', text: '[4294967296,4294967296]', release: '26.08' } }],
    },
    {
      name: 'dims and a matching reshape beyond int64, for 26.03, the first release that counts them safely',
      config: reshaped('[ 4294967296, 4294967296 ]', '[ 4294967296, 4294967296 ]'),
      settings: { triton: '26.03' },
      errors: [{ messageId: 'elementCountOverflow', data: { ...INPUT, label: 'dims', text: '[4294967296,4294967296]', release: '26.03' } }],
    },
    {
      name: 'dims beyond int64 without a reshape, for 26.03: the scheduler refuses them',
      config: io(8, x('dims: [ 4294967296, 4294967296 ]')),
      settings: { triton: '26.03' },
      errors: [{ messageId: 'inputElementCountOverflow', data: { name: 'x', text: '[4294967296,4294967296]', release: '26.03' }, path: ['input', 0, 'dims'] }],
    },
    {
      name: 'NHWC with 2 dims',
      config: io(8, x('format: FORMAT_NHWC dims: [ 224, 224 ]')),
      errors: [
        {
          messageId: 'formatNeedsThreeDims',
          data: { name: 'x', model: 'm', format: 'FORMAT_NHWC', layout: 'H, W, C', text: '[224,224]', length: 2 },
          token: 'FORMAT_NHWC',
        },
      ],
    },
    {
      name: 'TensorRT flags on an ONNX Runtime model',
      config: io(8, '{ name: "x" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true is_non_linear_format_io: true }'),
      errors: [
        { messageId: 'shapeTensorNotTensorrt', data: { name: 'x', model: 'm', platform: 'onnxruntime_onnx' }, severity: 'error' },
        { messageId: 'nonLinearFormatNotTensorrt', data: { name: 'x', model: 'm', platform: 'onnxruntime_onnx' }, severity: 'error' },
      ],
    },
    {
      name: 'TensorRT flags on a Python model (no platform)',
      config: 'backend: "python"\ninput [ { name: "x" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true is_non_linear_format_io: true } ]\n',
      errors: [
        { messageId: 'shapeTensorNoPlatform', data: { name: 'x', model: 'm' }, severity: 'error' },
        { messageId: 'nonLinearFormatNoPlatform', data: { name: 'x', model: 'm' }, severity: 'error' },
      ],
    },
    {
      name: 'TensorRT flags without a platform and without a version directory to infer one from: warnings',
      config: 'input [ { name: "x" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true is_non_linear_format_io: true } ]\n',
      errors: [
        { messageId: 'shapeTensorPlatformGuessed', data: { name: 'x', model: 'm' }, severity: 'warning' },
        { messageId: 'nonLinearFormatPlatformGuessed', data: { name: 'x', model: 'm' }, severity: 'warning' },
      ],
    },
    {
      name: 'a non-linear TensorRT output without 3 dims',
      config: 'platform: "tensorrt_plan"\noutput [ { name: "y" data_type: TYPE_FP16 dims: [ 8 ] is_non_linear_format_io: true } ]\n',
      errors: [{ messageId: 'nonLinearFormatDims', data: { direction: 'output', name: 'y', model: 'm', text: '[8]', length: 1 } }],
    },
    {
      name: 'a name listed twice on ONNX Runtime: a warning on the second',
      config: io(8, `${x('dims: [ 3 ]')}, ${x('dims: [ 3 ]')}`),
      errors: [
        {
          messageId: 'listedTwiceOnnxRuntime',
          data: { direction: 'input', name: 'x', first: 0 },
          severity: 'warning',
          token: '"x"',
          path: ['input', 1, 'name'],
        },
      ],
    },
    {
      name: 'a name listed twice on another backend',
      config: `backend: "python"\ninput [ ${x('dims: [ 3 ]')}, ${x('dims: [ 3 ]')} ]\n`,
      errors: [{ messageId: 'listedTwice', data: { direction: 'input', name: 'x', first: 0 }, severity: 'warning', path: ['input', 1, 'name'] }],
    },
  ],
});

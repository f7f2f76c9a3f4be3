import { testRule } from '../support/rule-tester.js';

const HEAD = `backend: "onnxruntime"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, -1 ] }, { name: "mask" data_type: TYPE_INT64 dims: [ 4 ] optional: true } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
`;
const warm = (inputs: string, extra = 'batch_size: 2', head = HEAD): string => `${head}model_warmup [ { name: "w" ${extra} inputs: [ ${inputs} ] } ]\n`;
const X = '{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] zero_data: true } }';
const FROM_FILE = warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] input_data_file: "x.bin" } }');
const NO_BATCHING = HEAD.replace('max_batch_size: 8', 'max_batch_size: 0');
const PYTHON = HEAD.replace('backend: "onnxruntime"', 'backend: "python"');

testRule('model-warmup', {
  valid: [
    {
      name: 'zero and random data of the right type and shape',
      config: warm(`${X}, { key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] random_data: true } }`),
    },
    { name: 'a data file of enough bytes', files: { 'm/config.pbtxt': FROM_FILE, 'm/warmup/x.bin': new Uint8Array(192) } },
    {
      name: 'no config inputs listed: only the sample itself is checked',
      config:
        'backend: "onnxruntime"\nmax_batch_size: 8\nmodel_warmup [ { batch_size: 1 inputs { key: "anything" value: { data_type: TYPE_FP32 dims: [ 2 ] zero_data: true } } } ]\n',
    },
    { name: 'an ensemble: the ensemble rules speak of its model_warmup', config: 'platform: "ensemble"\nmodel_warmup [ { batch_size: 0 } ]\n' },
  ],
  invalid: [
    {
      name: 'a variable dim: points at it',
      config: warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, -1 ] zero_data: true } }'),
      errors: [{ messageId: 'inputVariableDims', severity: 'error', line: 5, token: '-1', data: { input: 'x', dims: [3, -1], dimsText: '[3,-1]' } }],
      output: null,
    },
    {
      name: 'no data_type: the data cannot be sized',
      config: warm('{ key: "x" value: { dims: [ 3, 16 ] zero_data: true } }'),
      errors: [
        {
          messageId: 'inputWithoutDataType',
          severity: 'error',
          token: '{ dims: [ 3, 16 ] zero_data: true }',
          path: ['model_warmup', 0, 'inputs', 'x'],
          data: { input: 'x', name: 'm' },
        },
      ],
    },
    {
      name: 'a data_type without a size',
      config: warm('{ key: "x" value: { data_type: TYPE_INVALID dims: [ 3, 16 ] zero_data: true } }'),
      errors: [{ messageId: 'inputWithoutSize', severity: 'error', token: 'TYPE_INVALID', data: { input: 'x', type: 'TYPE_INVALID', name: 'm' } }],
    },
    {
      name: 'no data source: points at the input',
      config: warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] } }'),
      errors: [{ messageId: 'inputWithoutData', severity: 'error', token: '"x"', data: { input: 'x' } }],
    },
    {
      name: 'a data file too short: error',
      files: { 'm/config.pbtxt': FROM_FILE, 'm/warmup/x.bin': new Uint8Array(100) },
      errors: [
        {
          messageId: 'dataFileShort',
          severity: 'error',
          token: '"x.bin"',
          data: { input: 'x', file: 'x.bin', need: 192, size: 100, where: 'm/warmup/', type: 'TYPE_FP32', dimsText: '[3,16]' },
        },
      ],
    },
    {
      name: 'a data file missing: warning',
      config: FROM_FILE,
      errors: [
        { messageId: 'dataFileMissing', severity: 'warning', token: '"x.bin"', data: { input: 'x', file: 'x.bin', quotedFile: '"x.bin"', where: 'm/warmup/' } },
      ],
    },
    {
      name: 'a required input missing while an optional one is given: warning',
      config: warm('{ key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] zero_data: true } }'),
      errors: [
        { messageId: 'requiredInputMissingOptionalGiven', severity: 'warning', data: { sample: "'w'", missing: ['x'], given: ['mask'], missingList: "'x'" } },
      ],
    },
    {
      name: 'a required input missing, every config input required: error, with the count Triton checks',
      config: `${HEAD.replace(' optional: true', '')}model_warmup [ { batch_size: 1 inputs { key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] zero_data: true } } } ]\n`,
      errors: [
        {
          messageId: 'requiredInputMissing',
          severity: 'error',
          data: {
            sample: '#1',
            sampleName: '',
            missing: ['x'],
            given: ['mask'],
            inputCount: 2,
            givenCount: 1,
            name: 'm',
            givenQuoted: "['mask']",
            missingQuoted: "['x']",
            additions: 'inputs { key: "x" value: { ... zero_data: true } }',
          },
        },
      ],
    },
    {
      name: 'a required input missing with optional inputs in the config: the count as a range',
      config: warm('{ key: "z" value: { data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }'),
      errors: [
        {
          messageId: 'requiredInputMissingRange',
          severity: 'error',
          data: { sample: "'w'", missing: ['x'], given: [], requiredCount: 1, inputCount: 2, givenCount: 0, givenQuoted: '[]', missingQuoted: "['x']" },
        },
        { messageId: 'inputUnknown', severity: 'warning', token: '"z"' },
      ],
    },
    {
      name: 'a data type other than the config input',
      config: warm('{ key: "x" value: { data_type: TYPE_FP16 dims: [ 3, 16 ] zero_data: true } }'),
      errors: [
        {
          messageId: 'inputDataTypeMismatch',
          severity: 'error',
          token: 'TYPE_FP16',
          data: { input: 'x', warmupType: 'TYPE_FP16', configType: 'TYPE_FP32', warmupProtocolType: 'FP16', configProtocolType: 'FP32', name: 'm' },
        },
      ],
    },
    {
      name: 'dims with the batch axis',
      config: warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 1, 3, 16 ] zero_data: true } }'),
      errors: [
        {
          messageId: 'inputDimsMismatch',
          severity: 'error',
          data: { input: 'x', dims: [1, 3, 16], configDims: [3, -1], full: '[-1,3,-1]', got: '[1,1,3,16]', example: '[3,1]' },
        },
      ],
    },
    {
      name: 'dims that do not fit a model without batching',
      config: warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 1, 3, 16 ] zero_data: true } }', 'batch_size: 1', NO_BATCHING),
      errors: [{ messageId: 'inputDimsMismatchNoBatching', severity: 'error', data: { input: 'x', full: '[3,-1]', got: '[1,3,16]', want: '[3,-1]' } }],
    },
    {
      name: 'an input the config does not have: warning (Triton passes it as an override input)',
      config: warm(`${X}, { key: "z" value: { data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }`),
      errors: [{ messageId: 'inputUnknown', severity: 'warning', token: '"z"', data: { input: 'z', configInputs: "'x', 'mask'" } }],
    },
    {
      name: 'batch_size above max_batch_size: error for ONNX Runtime',
      config: warm(X, 'batch_size: 16'),
      errors: [
        {
          messageId: 'batchSizeAboveMax',
          severity: 'error',
          token: '16',
          data: { sample: "'w'", sampleName: 'w', batch: 16, batchSize: 16, maxBatchSize: 8, limit: 8 },
        },
      ],
    },
    {
      name: 'batch_size above max_batch_size on another backend: warning',
      config: warm(X, 'batch_size: 16', PYTHON),
      errors: [{ messageId: 'batchSizeAboveMaxOtherBackend', severity: 'warning', token: '16', data: { batch: 16, maxBatchSize: 8, limit: 8 } }],
    },
    {
      name: 'batch_size above 1 for a model without batching: error for ONNX Runtime',
      config: warm(X, 'batch_size: 2', NO_BATCHING),
      errors: [{ messageId: 'batchSizeWithoutBatching', severity: 'error', token: '2', data: { batch: 2, maxBatchSize: 0, limit: 1 } }],
    },
    {
      name: 'batch_size above 1 for a model without batching on another backend: warning',
      config: warm(X, 'batch_size: 2', PYTHON.replace('max_batch_size: 8', 'max_batch_size: 0')),
      errors: [{ messageId: 'batchSizeWithoutBatchingOtherBackend', severity: 'warning', token: '2', data: { batch: 2, maxBatchSize: 0, limit: 1 } }],
    },
    {
      name: 'batch_size 0: the sample is skipped silently',
      config: warm(X, 'batch_size: 0'),
      errors: [{ messageId: 'batchSizeZero', severity: 'warning', token: '0', path: ['model_warmup', 0, 'batch_size'], data: { sample: "'w'", batchSize: 0 } }],
    },
    {
      name: 'batch_size unset: the sample is skipped silently',
      config: `${HEAD}model_warmup [ { inputs: [ ${X} ] } ]\n`,
      errors: [{ messageId: 'batchSizeUnset', severity: 'warning', path: ['model_warmup', 0], data: { sample: '#1', batchSize: 0 } }],
    },
  ],
});

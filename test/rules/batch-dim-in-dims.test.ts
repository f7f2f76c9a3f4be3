import { CLASSIFIER, CLASSIFIER_CONFIG, type OnnxSpec } from '../lint/harness.js';
import { testRule } from '../support/rule-tester.js';

const withDims = (inDims: string, outDims = '[ 1000 ]', mbs = 8) =>
  CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', `dims: ${inDims}`)
    .replace('dims: [ 1000 ]', `dims: ${outDims}`)
    .replace('max_batch_size: 8', `max_batch_size: ${mbs}`);
const withModel = (config: string, spec: OnnxSpec = CLASSIFIER) => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': spec });

const ONLY_BATCH: OnnxSpec = { inputs: [['ids', 'INT64', ['batch']]], outputs: [['y', 'FLOAT', ['batch']]] };
const ONLY_BATCH_CONFIG =
  'max_batch_size: 4\ninput { name: "ids" data_type: TYPE_INT64 dims: [ -1 ] }\noutput { name: "y" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } }\n';

testRule('batch-dim-in-dims', {
  valid: [
    { name: 'dims without the batch axis', files: withModel(CLASSIFIER_CONFIG) },
    { name: 'the full shape with max_batch_size 0', files: withModel(withDims('[ -1, 3, 224, 224 ]', '[ -1, 1000 ]', 0)) },
    {
      name: 'an extra trailing dim is a shape error, not a batch axis (bad_input_dims in Triton qa)',
      files: withModel(
        'max_batch_size: 1\ninput { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16, 1 ] }\noutput { name: "OUTPUT0" data_type: TYPE_INT32 dims: [ 16 ] }\n',
        {
          inputs: [['INPUT0', 'INT32', ['b', 16]]],
          outputs: [['OUTPUT0', 'INT32', ['b', 16]]],
        },
      ),
    },
  ],
  invalid: [
    {
      // ONNX Runtime's auto-complete runs (no output listed) and raises the 0, which proto3 cannot tell
      // from unset, to 4; the listed dims are then checked with a batch dim (tritonserver 2.51 with the
      // real backend: "... but the model configuration specifies 5 dimensions (an initial batch dimension
      // because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,-1,3,224,224])").
      name: 'max_batch_size 0 raised to 4 by auto-complete (a side left out): the full shape then holds the batch axis twice',
      files: withModel('max_batch_size: 0\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]\n'),
      errors: [
        {
          messageId: 'includesBatchAxis',
          data: { mbs: 4, written: '[-1,3,224,224]', wanted: '[3,224,224]', requestShape: '[-1,-1,3,224,224]' },
          token: '-1',
          line: 2,
        },
      ],
    },
    {
      name: 'dims [1,3,224,224] with max_batch_size 8: points at the `1`, says the dims Triton expects, and removes it',
      files: withModel(withDims('[ 1, 3, 224, 224 ]')),
      errors: [
        {
          messageId: 'includesBatchAxis',
          data: {
            field: 'dims',
            written: '[1,3,224,224]',
            wanted: '[3,224,224]',
            mbs: 8,
            requestShape: '[-1,1,3,224,224]',
            direction: 'input',
            name: 'input',
            modelShape: '[-1,3,224,224] (ONNX [batch,3,224,224])',
            dims: [1, 3, 224, 224],
            expected: [3, 224, 224],
          },
          severity: 'error',
          line: 4,
          token: '1',
          path: ['input', 0, 'dims', 0],
        },
      ],
      output: withDims('[ 3, 224, 224 ]'),
    },
    {
      name: 'dims [-1, 1000] on an output',
      files: withModel(withDims('[ 3, 224, 224 ]', '[ -1, 1000 ]')),
      errors: [{ messageId: 'includesBatchAxis', data: { field: 'dims', direction: 'output', name: 'output', wanted: '[1000]' }, line: 5, token: '-1' }],
    },
    {
      name: 'reshape.shape repeating the batch axis',
      files: withModel(CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 150528 ] reshape { shape: [ 1, 3, 224, 224 ] }')),
      errors: [
        {
          messageId: 'includesBatchAxis',
          data: { field: 'reshape.shape', written: '[1,3,224,224]', mbs: 8, wanted: '[3,224,224]' },
          token: '1',
          path: ['input', 0, 'reshape', 'shape', 0],
        },
      ],
      output: CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 150528 ] reshape { shape: [ 3, 224, 224 ] }'),
    },
    {
      name: 'a model tensor that is only the batch axis: dims [1] plus an empty reshape, left to the user',
      files: withModel(ONLY_BATCH_CONFIG, ONLY_BATCH),
      errors: [
        {
          messageId: 'includesBatchAxisScalar',
          data: { field: 'dims', written: '[-1]', wanted: '[1]', direction: 'input', name: 'ids', expected: [] },
          line: 2,
          token: '-1',
        },
      ],
      output: null,
    },
  ],
});

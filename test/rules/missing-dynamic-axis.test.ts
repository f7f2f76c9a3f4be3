import { CLASSIFIER, CLASSIFIER_CONFIG, type OnnxSpec } from '../lint/harness.js';
import { testRule, type CaseFile } from '../support/rule-tester.js';
import { savedModelPb } from '../savedmodel/helpers.js';

const FIXED: OnnxSpec = { inputs: [['images', 'FLOAT', [1, 3, 32, 32]]], outputs: [['features', 'FLOAT', [1, 3, 32, 32]]] };
const io = (mbs: number, dims: string) =>
  `max_batch_size: ${mbs}\ninput { name: "images" data_type: TYPE_FP32 dims: ${dims} }\noutput { name: "features" data_type: TYPE_FP32 dims: ${dims} }\n`;
/** The files of a one-model repository: its config and its ONNX model. */
const repo = (config: string, onnx: OnnxSpec): Record<string, CaseFile> => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': onnx });
const DEBUG: OnnxSpec = {
  inputs: [['x', 'FLOAT', ['batch', 4]]],
  outputs: [
    ['y', 'FLOAT', ['batch', 4]],
    ['debug', 'FLOAT', [1, 4]],
  ],
};
const DEBUG_CONFIG = 'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n';

testRule('missing-dynamic-axis', {
  valid: [
    { name: 'a dynamic batch axis with max_batch_size > 0', files: repo(CLASSIFIER_CONFIG, CLASSIFIER) },
    {
      name: 'a fixed batch model served with max_batch_size 0 and only some inputs at batch 1',
      files: repo('max_batch_size: 0\n', {
        inputs: [
          ['a', 'FLOAT', [1, 3, 32]],
          ['b', 'FLOAT', [4, 3]],
        ],
        outputs: [['y', 'FLOAT', [1, 3]]],
      }),
    },
    {
      name: 'batch-1 inputs of rank 1 only (per-request parameters, not a batch axis)',
      files: repo('', { inputs: [['temperature', 'FLOAT', [1]]], outputs: [['y', 'FLOAT', [1]]] }),
    },
    { name: 'no model file: the rule does not run', config: io(8, '[3,32,32]') },
    { name: 'only the listed tensors are checked when the config lists inputs and outputs (as Triton does)', files: repo(DEBUG_CONFIG, DEBUG) },
  ],
  invalid: [
    {
      name: 'max_batch_size > 0 with a fixed first dim: error on the max_batch_size value, with the shapes and the fix',
      files: repo(io(8, '[3,32,32]'), FIXED),
      errors: [
        {
          messageId: 'batchAxisFixed',
          severity: 'error',
          line: 1,
          token: '8',
          path: ['max_batch_size'],
          data: {
            maxBatchSize: 8,
            list: "input 'images' [1,3,32,32], output 'features' [1,3,32,32]",
            dynamicAxes: "{'images': {0: 'batch'}, 'features': {0: 'batch'}}",
            fullDims: '[1,3,32,32]',
            tensors: [
              { direction: 'input', name: 'images', shape: [1, 3, 32, 32] },
              { direction: 'output', name: 'features', shape: [1, 3, 32, 32] },
            ],
          },
        },
      ],
    },
    {
      name: 'a listed output with a fixed first dim',
      files: repo(`${DEBUG_CONFIG}output { name: "debug" data_type: TYPE_FP32 dims: [4] }\n`, DEBUG),
      errors: [
        {
          messageId: 'batchAxisFixed',
          data: { list: "output 'debug' [1,4]", dynamicAxes: "{'x': {0: 'batch'}, 'y': {0: 'batch'}, 'debug': {0: 'batch'}}", fullDims: '[1,4]' },
        },
      ],
    },
    {
      name: 'every model tensor is checked when auto-complete runs (the config lists no outputs): Triton\'s "autofill failed"',
      files: repo('max_batch_size: 1\ninput { name: "INPUT0" data_type: TYPE_INT32 dims: [16] }\n', {
        inputs: [['INPUT0', 'INT32', [16]]],
        outputs: [['OUTPUT0', 'INT8', [16]]],
      }),
      errors: [{ messageId: 'batchAxisFixed', data: { maxBatchSize: 1, list: "input 'INPUT0' [16], output 'OUTPUT0' [16]", fullDims: '[16]' } }],
    },
    {
      name: 'a scalar model output when auto-complete runs: no shape to give in dims',
      files: repo('max_batch_size: 2\n', { inputs: [['x', 'FLOAT', ['n', 2]]], outputs: [['loss', 'FLOAT', []]] }),
      errors: [{ messageId: 'batchAxisFixedNoShape', data: { maxBatchSize: 2, list: "output 'loss' []", dynamicAxes: "{'x': {0: 'batch'}}" } }],
    },
    {
      name: 'every input fixed at batch 1 and max_batch_size 0: a warning on the `1` in dims',
      files: repo('input { name: "images" data_type: TYPE_FP32 dims: [1,3,32,32] }\n', FIXED),
      errors: [
        {
          messageId: 'fixedBatchOfOne',
          severity: 'warning',
          token: '1',
          line: 1,
          path: ['input', 0, 'dims', 0],
          data: { shown: "'images' [1,3,32,32]", dims: '[3,32,32]', dynamicAxes: "{'images': {0: 'batch'}, 'features': {0: 'batch'}}", maxBatchSize: 0 },
        },
      ],
    },
    {
      name: 'the warning points at an explicit max_batch_size: 0',
      files: repo('name: "m"\nmax_batch_size: 0\n', FIXED),
      errors: [{ messageId: 'fixedBatchOfOne', severity: 'warning', line: 2, token: '0' }],
    },
    {
      name: 'a batch axis exported on the input only (the output fixed at 1): the model cannot batch, a warning with the re-export',
      files: repo('name: "m"\n', { inputs: [['input', 'FLOAT', ['batch_size', 3, 224, 224]]], outputs: [['output', 'FLOAT', [1, 1000]]] }),
      errors: [
        {
          messageId: 'partialBatchAxis',
          severity: 'warning',
          line: 1,
          path: ['name'],
          data: {
            dynamicList: "input 'input' [-1,3,224,224] (ONNX [batch_size,3,224,224])",
            fixedList: "output 'output' [1,1000]",
            dynamicAxes: "{'input': {0: 'batch'}, 'output': {0: 'batch'}}",
            tensors: [{ direction: 'output', name: 'output', shape: [1, 1000] }],
          },
        },
      ],
    },
    {
      name: 'on the output only (the input fixed at 1), at an explicit max_batch_size: 0',
      files: repo('max_batch_size: 0\n', {
        inputs: [
          ['a', 'FLOAT', [1, 4]],
          ['b', 'FLOAT', ['n', 4]],
        ],
        outputs: [['y', 'FLOAT', ['n', 4]]],
      }),
      errors: [
        {
          messageId: 'partialBatchAxis',
          line: 1,
          token: '0',
          data: {
            dynamicList: "input 'b' [-1,4] (ONNX [n,4]), output 'y' [-1,4] (ONNX [n,4])",
            fixedList: "input 'a' [1,4]",
            dynamicAxes: "{'a': {0: 'batch'}, 'b': {0: 'batch'}, 'y': {0: 'batch'}}",
          },
        },
      ],
    },
    {
      name: 'symbolic dims shown the way the ONNX file spells them',
      files: repo('max_batch_size: 2\n', { inputs: [['x', 'FLOAT', [1, 'seq']]], outputs: [['y', 'FLOAT', ['batch', 'seq']]] }),
      errors: [{ messageId: 'batchAxisFixed', data: { list: "input 'x' [1,-1] (ONNX [1,seq])" } }],
    },
  ],
});

// TensorFlow SavedModels (real exports): max_batch_size > 0 on a signature without -1 first is
// refused by the backend's auto-complete (FixBatchingSupport) before any tensor is compared.
const TF_IMAGES = savedModelPb('savedmodel_nobatch_images_float32');
const tfRepo = (config: string, pb: Uint8Array): Record<string, CaseFile> => ({ 'm/config.pbtxt': config, 'm/1/model.savedmodel/saved_model.pb': pb });

testRule('missing-dynamic-axis', {
  valid: [
    { name: 'TensorFlow: a batchable signature with max_batch_size > 0', files: tfRepo('max_batch_size: 8\n', savedModelPb('savedmodel_int32_int8_int8')) },
  ],
  invalid: [
    {
      name: 'TensorFlow: max_batch_size > 0 on a signature fixed at batch 1',
      files: tfRepo('max_batch_size: 4\n', TF_IMAGES),
      errors: [
        {
          messageId: 'batchAxisFixedSignature',
          severity: 'error',
          path: ['max_batch_size'],
          data: {
            maxBatchSize: 4,
            list: "input 'input' [1,256,256,256,1], output 'output' [1,256,256,256,14]",
            backend: 'TensorFlow',
            tensors: [
              { direction: 'input', name: 'input', shape: [1, 256, 256, 256, 1] },
              { direction: 'output', name: 'output', shape: [1, 256, 256, 256, 14] },
            ],
          },
        },
      ],
    },
  ],
});

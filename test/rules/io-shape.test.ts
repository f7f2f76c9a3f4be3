import { describe, expect, it } from 'vitest';
import { testRule, type CaseFile } from '../support/rule-tester.js';
import { irFiles, scalarIr } from '../openvino/fixtures.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';
import { QA_MODEL, qaConfig } from './qa-model.js';
import { savedModelPb } from '../savedmodel/helpers.js';

const SEQ: OnnxSpec = { inputs: [['ids', 'INT64', ['batch', 'seq']]], outputs: [['logits', 'FLOAT', ['batch', 'seq', 2]]] };
const seqConfig = (inDims: string, outDims: string, mbs = 4) =>
  `max_batch_size: ${mbs}\ninput { name: "ids" data_type: TYPE_INT64 dims: ${inDims} }\noutput { name: "logits" data_type: TYPE_FP32 dims: ${outDims} }\n`;
const SCALAR: OnnxSpec = { inputs: [['t', 'FLOAT', []]], outputs: [['y', 'FLOAT', []]] };
const BATCH_OF_ONE: OnnxSpec = { inputs: [['x', 'FLOAT', [1, 4]]], outputs: [['y', 'FLOAT', [1, 4]]] };
const BATCH_OF_ONE_CONFIG = 'max_batch_size: 2\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n';
const REPEATED_BATCH = CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]');

/** The files of a one-model repository: its config and its ONNX model. */
const repo = (config: string, onnx: OnnxSpec): Record<string, CaseFile> => ({ 'm/config.pbtxt': config, 'm/1/model.onnx': onnx });

testRule('io-shape', {
  valid: [
    { name: 'dims that match the model', files: repo(CLASSIFIER_CONFIG, CLASSIFIER) },
    { name: 'an input may pin a dynamic model dim (more restrictive than the model)', files: repo(seqConfig('[ 128 ]', '[ -1, 2 ]'), SEQ) },
    { name: 'the full shape with max_batch_size 0', files: repo(seqConfig('[ -1, -1 ]', '[ -1, -1, 2 ]', 0), SEQ) },
    {
      name: 'a scalar model tensor with dims [1]',
      files: repo('input { name: "t" data_type: TYPE_FP32 dims: [1] }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] }\n', SCALAR),
    },
    {
      name: 'a ragged input with model shape [-1]',
      files: repo(
        'max_batch_size: 8\ninput { name: "x" data_type: TYPE_FP32 dims: [-1] allow_ragged_batch: true }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] reshape { shape: [] } }\n',
        { inputs: [['x', 'FLOAT', ['n']]], outputs: [['y', 'FLOAT', ['n']]] },
      ),
    },
    {
      name: 'batch_output targets are not shape-checked',
      files: repo(
        'max_batch_size: 8\ninput { name: "x" data_type: TYPE_FP32 dims: [-1] allow_ragged_batch: true }\noutput { name: "y" data_type: TYPE_FP32 dims: [-1] }\nbatch_output { target_name: "y" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "x" }\n',
        { inputs: [['x', 'FLOAT', ['n']]], outputs: [['y', 'FLOAT', ['n', 7]]] },
      ),
    },
  ],
  invalid: [
    {
      name: 'bad_input_dims (Triton qa): one dim too many, pointed at dims, with the full request shape and the fix',
      files: repo(qaConfig('bad_input_dims'), QA_MODEL),
      errors: [
        {
          messageId: 'rankMismatch',
          severity: 'error',
          token: 'dims',
          data: {
            field: 'dims',
            dimsText: '[16,1]',
            length: 3,
            modelLength: 2,
            requestShapeText: '[-1,16,1] (batch axis + dims)',
            direction: 'input',
            name: 'INPUT0',
            modelShapeText: '[-1,16] (ONNX [batch,16])',
            expectedText: '[16]',
            expected: [16],
          },
        },
      ],
    },
    {
      name: 'bad_output_dims (Triton qa): a wrong size, pointed at the `1`',
      files: repo(qaConfig('bad_output_dims'), QA_MODEL),
      errors: [
        {
          messageId: 'dimMismatch',
          token: '1',
          data: {
            field: 'dims',
            index: 0,
            value: 1,
            modelDim: 16,
            requestShapeText: '[-1,1] (batch axis + dims)',
            direction: 'output',
            name: 'OUTPUT1',
            modelShapeText: '[-1,16] (ONNX [batch,16])',
            expectedText: '[16]',
          },
        },
      ],
    },
    {
      name: 'an output may not pin a dynamic model dim (outputs must be identical)',
      files: repo(seqConfig('[ -1 ]', '[ 128, 2 ]'), SEQ),
      errors: [{ messageId: 'outputDimNotDynamic', token: '128', data: { field: 'dims', index: 0, value: 128, name: 'logits', expectedText: '[-1,2]' } }],
    },
    {
      name: 'an input fixed where the model is fixed differently, with max_batch_size 0',
      files: repo(
        CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0')
          .replace('dims: [ 3, 224, 224 ]', 'dims: [ -1, 3, 256, 224 ]')
          .replace('dims: [ 1000 ]', 'dims: [ -1, 1000 ]'),
        CLASSIFIER,
      ),
      errors: [
        {
          messageId: 'dimMismatch',
          token: '256',
          data: {
            requestShapeText: '[-1,3,256,224]',
            direction: 'input',
            name: 'input',
            modelShapeText: '[-1,3,224,224] (ONNX [batch,3,224,224])',
            index: 2,
            value: 256,
            modelDim: 224,
          },
        },
      ],
    },
    {
      name: 'a -1 in the config where the model is fixed',
      files: repo(CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 3, -1, -1 ]'), CLASSIFIER),
      errors: [{ messageId: 'dimMismatch', token: '-1', data: { field: 'dims', index: 1, value: -1, modelDim: 224 } }],
    },
    {
      name: 'a scalar model tensor takes only 1s',
      files: repo('input { name: "t" data_type: TYPE_FP32 dims: [2] }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] }\n', SCALAR),
      errors: [{ messageId: 'scalarNeedsOnes', token: '2', data: { direction: 'input', name: 't', field: 'dims', dimsText: '[2]' } }],
    },
    {
      name: 'a scalar model tensor of a batching model also needs an empty reshape',
      files: repo(
        'max_batch_size: 4\ninput { name: "t" data_type: TYPE_FP32 dims: [2] }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] reshape { shape: [ ] } }\n',
        SCALAR,
      ),
      errors: [{ messageId: 'scalarNeedsOnesAndReshape', token: '2', data: { direction: 'input', name: 't', field: 'dims', dimsText: '[2]' } }],
    },
    {
      name: 'optional inputs need max_batch_size 0',
      files: repo(`${seqConfig('[ -1 ]', '[ -1, 2 ]')}input { name: "bias" data_type: TYPE_FP32 dims: [2] optional: true }\n`, {
        ...SEQ,
        initializers: [{ name: 'bias', floats: 2, overridable: true }],
      }),
      errors: [{ messageId: 'optionalWithBatching', token: 'true', data: { name: 'bias', mbs: 4 } }],
    },
    {
      name: 'an input both optional and ragged',
      files: repo(
        `${seqConfig('[ -1, -1 ]', '[ -1, -1, 2 ]', 0)}input { name: "bias" data_type: TYPE_FP32 dims: [2] optional: true allow_ragged_batch: true }\n`,
        { ...SEQ, initializers: [{ name: 'bias', floats: 2, overridable: true }] },
      ),
      errors: [{ messageId: 'optionalAndRagged', data: { name: 'bias' }, path: ['input', 1, 'allow_ragged_batch'] }],
    },
    {
      name: 'ragged inputs need model shape [-1]',
      files: repo(seqConfig('[ -1 ]', '[ -1, 2 ]').replace('dims: [ -1 ] }', 'dims: [ -1 ] allow_ragged_batch: true }'), SEQ),
      errors: [{ messageId: 'raggedNeedsFlatInput', token: 'true', data: { name: 'ids', modelShapeText: '[-1,-1] (ONNX [batch,seq])' } }],
    },
    {
      // Only io-shape runs here: batch-dim-in-dims is off, so io-shape reports the repeated batch axis itself.
      name: 'dims that repeat the batch axis, with batch-dim-in-dims off',
      files: repo(REPEATED_BATCH, CLASSIFIER),
      errors: [{ messageId: 'rankMismatch', data: { dimsText: '[1,3,224,224]', length: 5, modelLength: 4 } }],
    },
    {
      name: 'a fixed model batch dim, with missing-dynamic-axis off',
      files: repo(BATCH_OF_ONE_CONFIG, BATCH_OF_ONE),
      errors: [
        { messageId: 'batchAxisNotDynamic', data: { mbs: 2, direction: 'input', name: 'x', modelShapeText: '[1,4]' } },
        { messageId: 'batchAxisNotDynamic', data: { mbs: 2, direction: 'output', name: 'y' } },
      ],
    },
    {
      name: 'a batching model whose tensor is only the batch axis takes per-item scalars',
      files: repo(
        'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 dims: [ 3 ] }\noutput { name: "y" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } }\n',
        { inputs: [['x', 'FLOAT', ['batch']]], outputs: [['y', 'FLOAT', ['batch']]] },
      ),
      errors: [{ messageId: 'rankMismatchScalarItems', data: { field: 'dims', dimsText: '[3]', length: 2, modelLength: 1, name: 'x' } }],
    },
  ],
});

// The rule tester runs one rule alone; these need the rules io-shape defers to enabled beside it.
describe('io-shape beside the more specific rules', () => {
  it('leaves dims that repeat the batch axis to batch-dim-in-dims', async () => {
    expect(await check('io-shape', REPEATED_BATCH, CLASSIFIER)).toEqual([]);
  });
  it('leaves a fixed model batch dim to missing-dynamic-axis', async () => {
    expect(await check('io-shape', BATCH_OF_ONE_CONFIG, BATCH_OF_ONE)).toEqual([]);
  });
});

// The OpenVINO backend's CompareDimsSupported (openvino_backend src/openvino_utils.cc): the batch dim is
// reshaped, never compared; without batching every dim is compared (-1 only matches a dynamic dim);
// a range takes sizes strictly between its bounds; batching needs rank >= 1.
const ovRepo = (model: Parameters<typeof irFiles>[0], config: string): Record<string, CaseFile> => ({
  'm/config.pbtxt': `backend: "openvino"\n${config}`,
  ...irFiles(model, 'm'),
});
const CLASSIFIER_OV = (ids: string, mbs = 4) =>
  `max_batch_size: ${mbs}\ninput { name: "pixel_values" data_type: TYPE_FP32 dims: [3, 8, 8] }\ninput { name: "input_ids" data_type: TYPE_INT64 dims: ${ids} }\noutput { name: "classifier/add:0" data_type: TYPE_FP32 dims: [10] }\n`;

testRule('io-shape', {
  valid: [
    {
      name: 'OpenVINO: max_batch_size 8 on a static [8,16] model without layouts (partial_config)',
      files: ovRepo('openvino_int8_int8_int8', 'max_batch_size: 8\noutput { name: "OUTPUT0" data_type: TYPE_INT8 dims: [16] }\n'),
    },
    { name: 'OpenVINO: a dynamic batch, an input -1 on a range while batching', files: ovRepo('openvino_classifier', CLASSIFIER_OV('[-1]')) },
    { name: 'OpenVINO: a size strictly inside the range', files: ovRepo('openvino_classifier', CLASSIFIER_OV('[64]')) },
    { name: 'OpenVINO: no config on a static model: what the backend writes passes its checks', files: ovRepo('openvino_dynamic_batch', '') },
  ],
  invalid: [
    {
      name: 'OpenVINO: a size outside the range 1..128',
      files: ovRepo('openvino_classifier', CLASSIFIER_OV('[200]')),
      errors: [
        {
          messageId: 'dimOutsideRange',
          data: {
            field: 'dims',
            index: 0,
            value: 200,
            modelDim: '1..128',
            backend: 'OpenVINO',
            expectedText: '[-1]',
            modelShapeText: '[-1,-1] (OpenVINO [-1,1..128])',
          },
        },
      ],
    },
    {
      name: 'OpenVINO: -1 against a static dim without batching',
      files: ovRepo('openvino_fixed_batch', 'input { name: "input1" data_type: TYPE_INT32 dims: [1, -1] }\n'),
      errors: [{ messageId: 'staticDimNotMatched', data: { index: 1, value: -1, modelDim: 4, expectedText: '[1,4]' } }],
    },
    {
      name: 'OpenVINO: no outputs in the config: the backend writes dims [-1] for [?,10] and refuses them',
      files: ovRepo('openvino_classifier', ''),
      errors: [
        {
          messageId: 'autoCompletedDimsRefused',
          data: {
            backend: 'OpenVINO',
            direction: 'output',
            name: 'classifier/add:0',
            dimsText: '[-1]',
            rank: 2,
            expectsText: '[4,10]',
            entry: 'output { name: "classifier/add:0" data_type: TYPE_FP32 dims: [10] }',
          },
        },
      ],
    },
    {
      name: 'OpenVINO: full shapes on a model whose layouts batch: the backend sets max_batch_size 4 and then compares [4,1,4]',
      files: ovRepo(
        'openvino_dynamic_batch',
        'input { name: "input1" data_type: TYPE_INT32 dims: [1, 4] }\ninput { name: "Func/PartitionedCall/input/_0:0" data_type: TYPE_INT32 dims: [4] }\n',
      ),
      errors: [{ messageId: 'rankMismatchFilledBatch', data: { mbs: 4, name: 'input1', dimsText: '[1,4]', length: 3, modelLength: 2, expectedText: '[4]' } }],
    },
    {
      name: 'OpenVINO: a scalar model tensor with max_batch_size > 0',
      files: { 'm/config.pbtxt': 'backend: "openvino"\nmax_batch_size: 2\ninput { name: "x" data_type: TYPE_FP32 dims: [1] }\n', ...scalarIr('m') },
      errors: [{ messageId: 'batchNeedsRank', data: { mbs: 2, direction: 'input', name: 'x', backend: 'OpenVINO' } }],
    },
  ],
});

// TensorFlow SavedModels (real exports, fixtures/models/tensorflow): the backend's auto-complete first
// reads each tensor's dims as a batching hint and refuses a config whose tensors disagree.
const TF_ADDSUB = savedModelPb('savedmodel_int32_int8_int8');
const tfRepo = (config: string): Record<string, CaseFile> => ({ 'm/config.pbtxt': config, 'm/1/model.savedmodel/saved_model.pb': TF_ADDSUB });
const tfIo = (in0: string, in1: string, mbs = 1): string =>
  `max_batch_size: ${mbs}\ninput [ { name: "INPUT0" data_type: TYPE_INT32 dims: ${in0} }, { name: "INPUT1" data_type: TYPE_INT32 dims: ${in1} } ]\n` +
  'output [ { name: "OUTPUT0" data_type: TYPE_INT8 dims: [16] }, { name: "OUTPUT1" data_type: TYPE_INT8 dims: [16] } ]\n';

testRule('io-shape', {
  valid: [
    { name: 'TensorFlow: dims without the batch dimension on every tensor', files: tfRepo(tfIo('[16]', '[16]')) },
    {
      name: 'TensorFlow: a tensor listed without dims is completed from the model',
      files: tfRepo('input [ { name: "INPUT0" data_type: TYPE_INT32 }, { name: "INPUT1" dims: [ 16 ] } ]\n'),
    },
    {
      name: "TensorFlow: a signature tensor of unknown rank takes the config's shape, unchecked",
      files: {
        'm/config.pbtxt': 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [3, 4] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [3, 4] } ]\n',
        'm/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_unknown_rank_float32'),
      },
    },
    {
      name: "TensorFlow: a scalar signature tensor (no dims) takes the config's shape too, where ONNX Runtime would want 1s",
      files: {
        'm/config.pbtxt': 'input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [3, 4] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [3, 4] } ]\n',
        'm/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_scalar_float32'),
      },
    },
    { name: 'TensorFlow: every tensor at the full shape, no batching', files: tfRepo(tfIo('[-1,16]', '[-1,16]', 0).replace(/dims: \[16\]/g, 'dims: [-1,16]')) },
  ],
  invalid: [
    {
      name: "TensorFlow: one tensor's dims give the full rank, the next leave out the batch dimension (qa autofill_noplatform/tensorflow_savedmodel/bad_input_dims)",
      files: tfRepo(tfIo('[16,1]', '[16]')),
      errors: [
        {
          messageId: 'batchHintContradictionBatched',
          severity: 'error',
          path: ['input', 1, 'dims'],
          data: {
            direction: 'input',
            name: 'INPUT1',
            dims: [16],
            dimsText: '[16]',
            modelShapeText: '[-1,16]',
            firstDirection: 'input',
            firstName: 'INPUT0',
            firstDims: [16, 1],
            firstDimsText: '[16,1]',
            firstShapeText: '[-1,16]',
            backend: 'TensorFlow',
          },
        },
      ],
    },
    {
      name: 'TensorFlow: the other way round, the second tensor gives the full rank',
      files: tfRepo(tfIo('[16]', '[-1,16]')),
      errors: [
        {
          messageId: 'batchHintContradiction',
          severity: 'error',
          path: ['input', 1, 'dims'],
          data: { direction: 'input', name: 'INPUT1', dims: [-1, 16], firstName: 'INPUT0', firstDims: [16], backend: 'TensorFlow' },
        },
      ],
    },
  ],
});

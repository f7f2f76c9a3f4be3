import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';
import { QA_MODEL, qaConfig } from './qa-model.js';

const SEQ: OnnxSpec = { inputs: [['ids', 'INT64', ['batch', 'seq']]], outputs: [['logits', 'FLOAT', ['batch', 'seq', 2]]] };
const seqConfig = (inDims: string, outDims: string, mbs = 4) =>
  `max_batch_size: ${mbs}\ninput { name: "ids" data_type: TYPE_INT64 dims: ${inDims} }\noutput { name: "logits" data_type: TYPE_FP32 dims: ${outDims} }\n`;

describe('io-shape', () => {
  describe('valid', () => {
    it('dims that match the model', async () => {
      expect(await check('io-shape', CLASSIFIER_CONFIG, CLASSIFIER)).toEqual([]);
    });
    it('an input may pin a dynamic model dim (more restrictive than the model)', async () => {
      expect(await check('io-shape', seqConfig('[ 128 ]', '[ -1, 2 ]'), SEQ)).toEqual([]);
    });
    it('the full shape with max_batch_size 0', async () => {
      expect(await check('io-shape', seqConfig('[ -1, -1 ]', '[ -1, -1, 2 ]', 0), SEQ)).toEqual([]);
    });
    it('a scalar model tensor with dims [1] (+ reshape when batching)', async () => {
      const spec: OnnxSpec = { inputs: [['t', 'FLOAT', []]], outputs: [['y', 'FLOAT', []]] };
      expect(await check('io-shape', 'input { name: "t" data_type: TYPE_FP32 dims: [1] }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] }\n', spec)).toEqual([]);
    });
    it('a ragged input with model shape [-1]', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', ['n']]], outputs: [['y', 'FLOAT', ['n']]] };
      const config = 'max_batch_size: 8\ninput { name: "x" data_type: TYPE_FP32 dims: [-1] allow_ragged_batch: true }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] reshape { shape: [] } }\n';
      expect(await check('io-shape', config, spec)).toEqual([]);
    });
    it('batch_output targets are not shape-checked', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', ['n']]], outputs: [['y', 'FLOAT', ['n', 7]]] };
      const config = 'max_batch_size: 8\ninput { name: "x" data_type: TYPE_FP32 dims: [-1] allow_ragged_batch: true }\noutput { name: "y" data_type: TYPE_FP32 dims: [-1] }\nbatch_output { target_name: "y" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "x" }\n';
      expect(await check('io-shape', config, spec)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('bad_input_dims (Triton qa): one dim too many, pointed at dims, with the full request shape and the fix', async () => {
      const config = qaConfig('bad_input_dims');
      const f = await check('io-shape', config, QA_MODEL);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ severity: 'error', token: 'dims' });
      expect(f[0]!.message).toBe(
        "dims [16,1] give 3 dimensions where the model has 2: the request shape is [-1,16,1] (batch axis + dims), the model's input 'INPUT0' is [-1,16] (ONNX [batch,16]); set dims: [16]",
      );
    });
    it('bad_output_dims (Triton qa): a wrong size, pointed at the `1`', async () => {
      const f = await check('io-shape', qaConfig('bad_output_dims'), QA_MODEL);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ token: '1' });
      expect(f[0]!.message).toBe(
        "dims[0] is 1 where the model has 16: the request shape is [-1,1] (batch axis + dims), the model's output 'OUTPUT1' is [-1,16] (ONNX [batch,16]); set dims: [16]",
      );
    });
    it('an output may not pin a dynamic model dim (outputs must be identical)', async () => {
      const [f] = await check('io-shape', seqConfig('[ -1 ]', '[ 128, 2 ]'), SEQ);
      expect(f).toMatchObject({ token: '128' });
      expect(f!.message).toContain("dims[0] is 128 where the model's output is dynamic (-1), and Triton requires output dims identical to the model's");
      expect(f!.message).toContain('set dims: [-1,2]');
    });
    it('an input fixed where the model is fixed differently, with max_batch_size 0', async () => {
      const [f] = await check('io-shape', CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0').replace('dims: [ 3, 224, 224 ]', 'dims: [ -1, 3, 256, 224 ]').replace('dims: [ 1000 ]', 'dims: [ -1, 1000 ]'), CLASSIFIER);
      expect(f).toMatchObject({ token: '256' });
      expect(f!.message).toContain('the request shape is [-1,3,256,224], the model\'s input \'input\' is [-1,3,224,224]');
    });
    it('a -1 in the config where the model is fixed', async () => {
      const [f] = await check('io-shape', CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 3, -1, -1 ]'), CLASSIFIER);
      expect(f).toMatchObject({ token: '-1' });
      expect(f!.message).toContain('dims[1] is -1 where the model has 224');
    });
    it('the scalar rule', async () => {
      const spec: OnnxSpec = { inputs: [['t', 'FLOAT', []]], outputs: [['y', 'FLOAT', []]] };
      const [f] = await check('io-shape', 'input { name: "t" data_type: TYPE_FP32 dims: [2] }\noutput { name: "y" data_type: TYPE_FP32 dims: [1] }\n', spec);
      expect(f).toMatchObject({ token: '2' });
      expect(f!.message).toContain("input 't' is a scalar in the model, so Triton accepts only 1s in dims");
    });
    it('optional inputs need max_batch_size 0', async () => {
      const spec: OnnxSpec = { ...SEQ, initializers: [{ name: 'bias', floats: 2, overridable: true }] };
      const config = `${seqConfig('[ -1 ]', '[ -1, 2 ]')}input { name: "bias" data_type: TYPE_FP32 dims: [2] optional: true }\n`;
      const [f] = await check('io-shape', config, spec);
      expect(f).toMatchObject({ token: 'true' });
      expect(f!.message).toContain("optional input 'bias' is not supported with max_batch_size: 4");
    });
    it('ragged inputs need model shape [-1]', async () => {
      const config = seqConfig('[ -1 ]', '[ -1, 2 ]').replace('dims: [ -1 ] }', 'dims: [ -1 ] allow_ragged_batch: true }');
      const [f] = await check('io-shape', config, SEQ);
      expect(f).toMatchObject({ token: 'true' });
      expect(f!.message).toContain("ragged input 'ids' needs the model input to be one flat dynamic axis, shape [-1], but the model's is [-1,-1] (ONNX [batch,seq])");
    });
    it('leaves dims that repeat the batch axis to batch-dim-in-dims, and reports them itself when that rule is off', async () => {
      const config = CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]');
      expect(await check('io-shape', config, CLASSIFIER)).toEqual([]);
      const off = await check('io-shape', config, CLASSIFIER, { ruleLevels: { 'batch-dim-in-dims': 'off' } });
      expect(off[0]!.message).toContain('dims [1,3,224,224] give 5 dimensions where the model has 4');
    });
    it('leaves a fixed model batch dim to missing-dynamic-axis', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', [1, 4]]], outputs: [['y', 'FLOAT', [1, 4]]] };
      const config = 'max_batch_size: 2\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n';
      expect(await check('io-shape', config, spec)).toEqual([]);
      const off = await check('io-shape', config, spec, { ruleLevels: { 'missing-dynamic-axis': 'off' } });
      expect(off).toHaveLength(2);
    });
  });
});

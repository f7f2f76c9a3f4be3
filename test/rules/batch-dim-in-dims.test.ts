import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';

const withDims = (inDims: string, outDims = '[ 1000 ]', mbs = 8) =>
  CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', `dims: ${inDims}`).replace('dims: [ 1000 ]', `dims: ${outDims}`).replace('max_batch_size: 8', `max_batch_size: ${mbs}`);

describe('batch-dim-in-dims', () => {
  describe('valid', () => {
    it('dims without the batch axis', async () => {
      expect(await check('batch-dim-in-dims', CLASSIFIER_CONFIG, CLASSIFIER)).toEqual([]);
    });
    it('the full shape with max_batch_size 0', async () => {
      expect(await check('batch-dim-in-dims', withDims('[ -1, 3, 224, 224 ]', '[ -1, 1000 ]', 0), CLASSIFIER)).toEqual([]);
    });
    it('an extra trailing dim is a shape error, not a batch axis (bad_input_dims in Triton qa)', async () => {
      const spec: OnnxSpec = { inputs: [['INPUT0', 'INT32', ['b', 16]]], outputs: [['OUTPUT0', 'INT32', ['b', 16]]] };
      const config = 'max_batch_size: 1\ninput { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16, 1 ] }\noutput { name: "OUTPUT0" data_type: TYPE_INT32 dims: [ 16 ] }\n';
      expect(await check('batch-dim-in-dims', config, spec)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('dims [1,3,224,224] with max_batch_size 8: points at the `1`, says the dims Triton expects', async () => {
      const [f, ...rest] = await check('batch-dim-in-dims', withDims('[ 1, 3, 224, 224 ]'), CLASSIFIER);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 4, token: '1' });
      expect(f!.message).toBe(
        "dims [1,3,224,224] include the batch axis; with max_batch_size: 8 Triton expects dims [3,224,224] (the request shape would be [-1,1,3,224,224], but the model's input 'input' is [-1,3,224,224] (ONNX [batch,3,224,224])): remove the first dim",
      );
    });
    it('dims [-1, 1000] on an output', async () => {
      const [f] = await check('batch-dim-in-dims', withDims('[ 3, 224, 224 ]', '[ -1, 1000 ]'), CLASSIFIER);
      expect(f).toMatchObject({ line: 5, token: '-1' });
      expect(f!.message).toContain('Triton expects dims [1000]');
    });
    it('reshape.shape repeating the batch axis', async () => {
      const config = CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 150528 ] reshape { shape: [ 1, 3, 224, 224 ] }');
      const [f] = await check('batch-dim-in-dims', config, CLASSIFIER);
      expect(f!.message).toMatch(/^reshape.shape \[1,3,224,224\] include the batch axis; with max_batch_size: 8 Triton expects reshape.shape \[3,224,224\]/);
      expect(f!.token).toBe('1');
    });
    it('a model tensor that is only the batch axis: dims [1] plus an empty reshape', async () => {
      const spec: OnnxSpec = { inputs: [['ids', 'INT64', ['batch']]], outputs: [['y', 'FLOAT', ['batch']]] };
      const config = 'max_batch_size: 4\ninput { name: "ids" data_type: TYPE_INT64 dims: [ -1 ] }\noutput { name: "y" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } }\n';
      const [f, ...rest] = await check('batch-dim-in-dims', config, spec);
      expect(rest).toEqual([]);
      expect(f!.message).toContain('add reshape { shape: [ ] }');
    });
  });
});

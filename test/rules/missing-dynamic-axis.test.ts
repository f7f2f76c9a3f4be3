import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';

const FIXED: OnnxSpec = { inputs: [['images', 'FLOAT', [1, 3, 32, 32]]], outputs: [['features', 'FLOAT', [1, 3, 32, 32]]] };
const io = (mbs: number, dims: string) =>
  `max_batch_size: ${mbs}\ninput { name: "images" data_type: TYPE_FP32 dims: ${dims} }\noutput { name: "features" data_type: TYPE_FP32 dims: ${dims} }\n`;

describe('missing-dynamic-axis', () => {
  describe('valid', () => {
    it('a dynamic batch axis with max_batch_size > 0', async () => {
      expect(await check('missing-dynamic-axis', CLASSIFIER_CONFIG, CLASSIFIER)).toEqual([]);
    });
    it('a fixed batch model served with max_batch_size 0 and only some inputs at batch 1', async () => {
      const spec: OnnxSpec = { inputs: [['a', 'FLOAT', [1, 3, 32]], ['b', 'FLOAT', [4, 3]]], outputs: [['y', 'FLOAT', [1, 3]]] };
      expect(await check('missing-dynamic-axis', 'max_batch_size: 0\n', spec)).toEqual([]);
    });
    it('batch-1 inputs of rank 1 only (per-request parameters, not a batch axis)', async () => {
      const spec: OnnxSpec = { inputs: [['temperature', 'FLOAT', [1]]], outputs: [['y', 'FLOAT', [1]]] };
      expect(await check('missing-dynamic-axis', '', spec)).toEqual([]);
    });
    it('no model file: the rule does not run', async () => {
      expect(await check('missing-dynamic-axis', io(8, '[3,32,32]'))).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('max_batch_size > 0 with a fixed first dim: error on the max_batch_size value, quoting the shapes and the fix', async () => {
      const [f, ...rest] = await check('missing-dynamic-axis', io(8, '[3,32,32]'), FIXED);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 1, column: 17, token: '8' });
      expect(f!.message).toBe(
        "max_batch_size: 8 needs a dynamic first (batch) dimension on every model input and output, but input 'images' is [1,3,32,32], output 'features' is [1,3,32,32] in the model. " +
          "Re-export the model with a dynamic batch axis (torch.onnx.export(..., dynamic_axes={'images': {0: 'batch'}, 'features': {0: 'batch'}})), or set max_batch_size: 0 and give the full shape in dims ([1,3,32,32])",
      );
    });

    it('checks only the listed tensors when the config lists inputs and outputs (as Triton does)', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', ['batch', 4]]], outputs: [['y', 'FLOAT', ['batch', 4]], ['debug', 'FLOAT', [1, 4]]] };
      const config = 'max_batch_size: 4\ninput { name: "x" data_type: TYPE_FP32 dims: [4] }\noutput { name: "y" data_type: TYPE_FP32 dims: [4] }\n';
      expect(await check('missing-dynamic-axis', config, spec)).toEqual([]);
      const withDebug = `${config}output { name: "debug" data_type: TYPE_FP32 dims: [4] }\n`;
      expect((await check('missing-dynamic-axis', withDebug, spec)).map((f) => f.message)).toEqual([expect.stringContaining("output 'debug' is [1,4]")]);
    });

    it('checks every model tensor when auto-complete runs (the config lists no outputs): Triton\'s "autofill failed"', async () => {
      const spec: OnnxSpec = { inputs: [['INPUT0', 'INT32', [16]]], outputs: [['OUTPUT0', 'INT8', [16]]] };
      const f = await check('missing-dynamic-axis', 'max_batch_size: 1\ninput { name: "INPUT0" data_type: TYPE_INT32 dims: [16] }\n', spec);
      expect(f).toHaveLength(1);
      expect(f[0]!.message).toContain("input 'INPUT0' is [16], output 'OUTPUT0' is [16]");
    });

    it('reports a scalar model output when auto-complete runs', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', ['n', 2]]], outputs: [['loss', 'FLOAT', []]] };
      const f = await check('missing-dynamic-axis', 'max_batch_size: 2\n', spec);
      expect(f[0]!.message).toContain("output 'loss' is []");
    });

    it('warns when every input is fixed at batch 1 and max_batch_size is 0, on the `1` in dims', async () => {
      const config = 'input { name: "images" data_type: TYPE_FP32 dims: [1,3,32,32] }\n';
      const [f] = await check('missing-dynamic-axis', config, FIXED);
      expect(f).toMatchObject({ severity: 'warning', token: '1', line: 1, column: 52 });
      expect(f!.message).toContain("the model's inputs have a fixed batch of 1 ('images' [1,3,32,32]) and max_batch_size is 0");
      expect(f!.message).toContain('dims without the batch axis ([3,32,32])');
    });

    it('points the warning at an explicit max_batch_size: 0', async () => {
      const [f] = await check('missing-dynamic-axis', 'name: "m"\nmax_batch_size: 0\n', FIXED);
      expect(f).toMatchObject({ severity: 'warning', line: 2, token: '0' });
    });

    it('shows symbolic dims the way the ONNX file spells them', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', [1, 'seq']]], outputs: [['y', 'FLOAT', ['batch', 'seq']]] };
      const [f] = await check('missing-dynamic-axis', 'max_batch_size: 2\n', spec);
      expect(f!.message).toContain("input 'x' is [1,-1] (ONNX [1,seq])");
    });
  });
});

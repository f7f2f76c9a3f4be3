import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';

describe('io-datatype', () => {
  describe('valid', () => {
    it('types that match the model', async () => {
      expect(await check('io-datatype', CLASSIFIER_CONFIG, CLASSIFIER)).toEqual([]);
    });
    it('STRING is TYPE_STRING, BOOL is TYPE_BOOL, FLOAT16 is TYPE_FP16, BFLOAT16 is TYPE_BF16', async () => {
      const spec: OnnxSpec = { inputs: [['s', 'STRING', [-1]], ['b', 'BOOL', [-1]]], outputs: [['h', 'FLOAT16', [-1]], ['bf', 'BFLOAT16', [-1]]] };
      const config = `input [ { name: "s" data_type: TYPE_STRING dims: [-1] }, { name: "b" data_type: TYPE_BOOL dims: [-1] } ]
output [ { name: "h" data_type: TYPE_FP16 dims: [-1] }, { name: "bf" data_type: TYPE_BF16 dims: [-1] } ]\n`;
      expect(await check('io-datatype', config, spec)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('TYPE_INT32 for an FP32 input: points at the type, says which to set', async () => {
      const config = CLASSIFIER_CONFIG.replace('name: "input" data_type: TYPE_FP32', 'name: "input" data_type: TYPE_INT32');
      const [f, ...rest] = await check('io-datatype', config, CLASSIFIER);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', token: 'TYPE_INT32', line: 4 });
      expect(f!.message).toBe("data_type TYPE_INT32 does not match the model: input 'input' is FLOAT (TYPE_FP32) in the model; set data_type: TYPE_FP32");
    });
    it('an output type mismatch (Triton qa: "configuration expects datatype ... for output")', async () => {
      const config = CLASSIFIER_CONFIG.replace('name: "output" data_type: TYPE_FP32', 'name: "output" data_type: TYPE_FP16');
      const [f] = await check('io-datatype', config, CLASSIFIER);
      expect(f!.message).toContain("output 'output' is FLOAT (TYPE_FP32) in the model; set data_type: TYPE_FP32");
    });
    it('an element type Triton cannot serve', async () => {
      const spec: OnnxSpec = { inputs: [['c', 'COMPLEX64', [-1]]], outputs: [['y', 'FLOAT', [-1]]] };
      const [f] = await check('io-datatype', 'input { name: "c" data_type: TYPE_FP32 dims: [-1] }\noutput { name: "y" data_type: TYPE_FP32 dims: [-1] }\n', spec);
      expect(f!.message).toContain('element type COMPLEX64 in the model, which Triton cannot serve');
    });
  });
});

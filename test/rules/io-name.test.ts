import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, check, type OnnxSpec } from '../lint/harness.js';
import { QA_MODEL, qaConfig } from './qa-model.js';

describe('io-name', () => {
  describe('valid', () => {
    it('names that match the model', async () => {
      expect(await check('io-name', CLASSIFIER_CONFIG, CLASSIFIER)).toEqual([]);
    });
    it('a config that lists no inputs: auto-complete generates them', async () => {
      expect(await check('io-name', 'max_batch_size: 8\noutput { name: "output" data_type: TYPE_FP32 dims: [1000] }\n', CLASSIFIER)).toEqual([]);
    });
    it('outputs the config does not list are fine (Triton checks only listed outputs)', async () => {
      const spec: OnnxSpec = { ...CLASSIFIER, outputs: [...CLASSIFIER.outputs, ['aux', 'FLOAT', ['batch', 3]]] };
      expect(await check('io-name', CLASSIFIER_CONFIG, spec)).toEqual([]);
    });
    it('an optional input that is an overridable initializer', async () => {
      const spec: OnnxSpec = { ...CLASSIFIER, initializers: [{ name: 'scale', floats: 1, overridable: true }] };
      const config = CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0').replace(']\noutput', ']\ninput [ { name: "scale" data_type: TYPE_FP32 dims: [1] optional: true } ]\noutput');
      expect(await check('io-name', config, spec)).toEqual([]);
    });
    it('sequence controls and batch inputs count as provided inputs', async () => {
      const spec: OnnxSpec = { inputs: [['x', 'FLOAT', ['b', 4]], ['START', 'INT32', ['b', 1]], ['count', 'INT32', [-1]]], outputs: [['y', 'FLOAT', ['b', 4]]] };
      const config = `max_batch_size: 4
input { name: "x" data_type: TYPE_FP32 dims: [4] }
output { name: "y" data_type: TYPE_FP32 dims: [4] }
batch_input { kind: BATCH_ELEMENT_COUNT target_name: "count" data_type: TYPE_INT32 source_input: "x" }
sequence_batching { control_input { name: "START" control { kind: CONTROL_SEQUENCE_START int32_false_true: [0, 1] } } }
`;
      expect(await check('io-name', config, spec)).toEqual([]);
    });
  });

  describe('invalid (Triton qa configs against a model of their signature)', () => {
    it("unknown_input: \"unexpected inference input 'INPUT_UNKNOWN', allowed inputs are: INPUT0, INPUT1\"", async () => {
      const config = qaConfig('unknown_input');
      const f = await check('io-name', config, QA_MODEL);
      // Sorted by position: the `input` field (the missing INPUT1) comes before the unknown name.
      expect(f.map((x) => x.token)).toEqual(['input', '"INPUT_UNKNOWN"']);
      expect(f[1]!.message).toBe("input 'INPUT_UNKNOWN' is not an input of the model (it has 'INPUT0', 'INPUT1'); rename it to one of the model's inputs or remove it");
      expect(f[0]!.message).toContain("the model's input 'INPUT1' is missing from the configuration, so Triton refuses it (\"configuration expects 2 inputs, model provides 2\")");
    });
    it('unknown_output', async () => {
      const f = await check('io-name', qaConfig('unknown_output'), QA_MODEL);
      expect(f).toHaveLength(1);
      expect(f[0]!.token).toBe('"OUTPUT_UNKNOWN"');
      expect(f[0]!.message).toContain("output 'OUTPUT_UNKNOWN' is not an output of the model (it has 'OUTPUT0', 'OUTPUT1')");
    });
    it('too_few_inputs: "configuration expects 1 inputs, model provides 2", with the entry to add', async () => {
      const f = await check('io-name', qaConfig('too_few_inputs'), QA_MODEL);
      expect(f).toHaveLength(1);
      expect(f[0]!.message).toBe(
        "the model's input 'INPUT0' is missing from the configuration, so Triton refuses it (\"configuration expects 1 inputs, model provides 2\"); add input { name: \"INPUT0\" data_type: TYPE_INT32 dims: [16] }",
      );
      expect(f[0]!.token).toBe('input');
    });
    it('too_many_inputs: "configuration expects 3 inputs, model provides 2"', async () => {
      const f = await check('io-name', qaConfig('too_many_inputs'), QA_MODEL);
      expect(f.map((x) => x.token)).toEqual(['"INPUT_EXTRA"']);
    });
    it('a near miss gets a suggestion', async () => {
      const f = await check('io-name', CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inputs"'), CLASSIFIER);
      expect(f.find((x) => x.token === '"inputs"')!.message).toContain("did you mean 'input'?");
    });
    it('optional: true on an input the model requires', async () => {
      const config = CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 0').replace('dims: [ 3, 224, 224 ] }', 'dims: [ -1, 3, 224, 224 ] optional: true }');
      const f = await check('io-name', config, CLASSIFIER);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ token: 'true' });
      expect(f[0]!.message).toContain("input 'input' is optional: true, but the model requires it");
    });
    it('a required config input that is only an initializer of the model', async () => {
      const spec: OnnxSpec = { ...CLASSIFIER, initializers: [{ name: 'scale', floats: 1, overridable: true }] };
      const config = CLASSIFIER_CONFIG.replace(']\noutput', ']\ninput [ { name: "scale" data_type: TYPE_FP32 dims: [1] } ]\noutput');
      const f = await check('io-name', config, spec);
      expect(f[0]!.message).toContain("input 'scale' is an initializer of the model");
      expect(f[0]!.message).toContain('configuration expects 2 inputs, model provides 1');
    });
  });
});

import { describe, expect, it } from 'vitest';
import { lintConfig, lintFiles } from './core-support.js';

const ID = 'model-warmup';
const HEAD = `backend: "onnxruntime"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 3, -1 ] }, { name: "mask" data_type: TYPE_INT64 dims: [ 4 ] optional: true } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 10 ] } ]
`;
const warm = (inputs: string, extra = 'batch_size: 2'): string => `${HEAD}model_warmup [ { name: "w" ${extra} inputs: [ ${inputs} ] } ]\n`;
const X = '{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] zero_data: true } }';

describe(ID, () => {
  describe('valid', () => {
    it('zero and random data of the right type and shape', async () => {
      expect(await lintConfig(ID, warm(`${X}, { key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] random_data: true } }`))).toEqual([]);
    });
    it('a data file of enough bytes', async () => {
      const config = warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] input_data_file: "x.bin" } }');
      expect(await lintFiles(ID, { 'm/config.pbtxt': config, 'm/warmup/x.bin': new Uint8Array(192) })).toEqual([]);
    });
    it('no config inputs listed: only the sample itself is checked', async () => {
      expect(await lintConfig(ID, `backend: "onnxruntime"\nmax_batch_size: 8\nmodel_warmup [ { batch_size: 1 inputs { key: "anything" value: { data_type: TYPE_FP32 dims: [ 2 ] zero_data: true } } } ]\n`)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('a variable dim: points at it', async () => {
      const fs = await lintConfig(ID, warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, -1 ] zero_data: true } }'));
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ severity: 'error', line: 5, token: '-1' });
      expect(fs[0]!.message).toBe(
        `warmup input 'x' dims [3,-1] have a variable dimension, but warmup data needs a concrete shape, so Triton refuses the model ("warmup setting expects all variable-size dimensions are specified for input 'x'"); write the size to warm up with`,
      );
    });
    it('no data source', async () => {
      const [f] = await lintConfig(ID, warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] } }'));
      expect(f).toMatchObject({ token: '"x"' });
      expect(f!.message).toContain(`("[request id: <id_unknown>] warmup setting expects input 'x' to have input_data_type set"); add zero_data: true`);
    });
    it('a data file too short: error; missing: warning', async () => {
      const config = warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 3, 16 ] input_data_file: "x.bin" } }');
      const [short] = await lintFiles(ID, { 'm/config.pbtxt': config, 'm/warmup/x.bin': new Uint8Array(100) });
      expect(short).toMatchObject({ severity: 'error', token: '"x.bin"' });
      expect(short!.message).toContain('("[request id: <id_unknown>] warmup setting expects 192 bytes, but the data provided from x.binonly has 100 bytes")');
      expect((await lintConfig(ID, config))[0]).toMatchObject({ severity: 'warning' });
    });
    it('a required input missing', async () => {
      const [f] = await lintConfig(ID, warm('{ key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] zero_data: true } }'));
      expect(f).toMatchObject({ severity: 'warning' });
      const [g] = await lintConfig(ID, `${HEAD.replace(' optional: true', '')}model_warmup [ { batch_size: 1 inputs { key: "mask" value: { data_type: TYPE_INT64 dims: [ 4 ] zero_data: true } } } ]\n`);
      expect(g).toMatchObject({ severity: 'error' });
      expect(g!.message).toContain(`("[request id: <id_unknown>] expected 2 inputs but got 1 inputs for model 'm'. Got input(s) ['mask'], but missing required input(s) ['x']. Please provide all required input(s).")`);
    });
    it('a data type other than the config input', async () => {
      const [f] = await lintConfig(ID, warm('{ key: "x" value: { data_type: TYPE_FP16 dims: [ 3, 16 ] zero_data: true } }'));
      expect(f).toMatchObject({ severity: 'error', token: 'TYPE_FP16' });
      expect(f!.message).toContain(`("[request id: <id_unknown>] inference input 'x' data-type is 'FP16', but model 'm' expects 'FP32'"); set data_type: TYPE_FP32`);
    });
    it('dims with the batch axis', async () => {
      const [f] = await lintConfig(ID, warm('{ key: "x" value: { data_type: TYPE_FP32 dims: [ 1, 3, 16 ] zero_data: true } }'));
      expect(f!.message).toContain(`("[request id: <id_unknown>] unexpected shape for input 'x' for model 'm'. Expected [-1,3,-1], got [1,1,3,16]. NOTE: Setting a non-zero max_batch_size`);
    });
    it('an input the config does not have: warning (Triton passes it as an override input)', async () => {
      const [f] = await lintConfig(ID, warm(`${X}, { key: "z" value: { data_type: TYPE_FP32 dims: [ 1 ] zero_data: true } }`));
      expect(f).toMatchObject({ severity: 'warning', token: '"z"' });
    });
    it('batch_size above max_batch_size: error for ONNX Runtime', async () => {
      const [f] = await lintConfig(ID, warm(X, 'batch_size: 16'));
      expect(f).toMatchObject({ severity: 'error', token: '16' });
      expect(f!.message).toContain(`("failed to run warmup sample 'w': batch size 16 for '<instance>', max allowed is 8; "); set batch_size: 8`);
    });
    it('batch_size 0: the sample is skipped silently', async () => {
      const [f] = await lintConfig(ID, warm(X, 'batch_size: 0'));
      expect(f).toMatchObject({ severity: 'warning', token: '0' });
    });
  });
});

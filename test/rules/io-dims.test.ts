import { describe, expect, it } from 'vitest';
import { lintConfig, lintFiles } from './core-support.js';

const ID = 'io-dims';
const ORT = 'backend: "onnxruntime"\n';
const io = (mbs: number, input: string, output = '{ name: "y" data_type: TYPE_FP32 dims: [ 4 ] }'): string =>
  `${ORT}max_batch_size: ${mbs}\ninput [ ${input} ]\noutput [ ${output} ]\n`;

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['plain dims', io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ 3, -1, -1 ] }')],
      ['a scalar per item: dims [1] + empty reshape with batching', io(8, '{ name: "x" data_type: TYPE_INT64 dims: [ 1 ] reshape { shape: [ ] } }')],
      ['a reshape of the same element count', io(0, '{ name: "x" data_type: TYPE_FP32 dims: [ 2, 12 ] reshape { shape: [ 4, 6 ] } }')],
      ['variable segments that match: [2,4,-1,6] to [8,-1,1,6]', io(0, '{ name: "x" data_type: TYPE_FP32 dims: [ 2, 4, -1, 6 ] reshape { shape: [ 8, -1, 1, 6 ] } }')],
      ['NCHW with 3 dims', io(8, '{ name: "x" data_type: TYPE_FP32 format: FORMAT_NCHW dims: [ 3, 224, 224 ] }')],
    ])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
    it('TensorRT flags on a TensorRT model', async () => {
      expect(await lintConfig(ID, 'platform: "tensorrt_plan"\ninput [ { name: "s" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true }, { name: "x" data_type: TYPE_FP16 dims: [ 3, 8, 8 ] is_non_linear_format_io: true } ]\n')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('a dim of 0: points at it; the message is per input and quotes Triton', async () => {
      const [f, ...rest] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ 3, 0 ] }'));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 3, token: '0' });
      expect(f!.message).toBe(
        `dim 0 is not a size, so Triton refuses the model ("model input 'x' dimension must be integer >= 1, or -1 to indicate a variable-size dimension for m"); use the size, or -1 for a size that varies`,
      );
    });
    it('outputs get "model output" messages', async () => {
      const [f] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ 3 ] }', '{ name: "y" data_type: TYPE_FP32 dims: [ -2 ] }'));
      expect(f).toMatchObject({ line: 4, token: '-2' });
      expect(f!.message).toContain(`"model output 'y' dimension must be integer >= 1`);
    });
    it('no name, no data_type, no dims', async () => {
      const [name] = await lintConfig(ID, io(8, '{ data_type: TYPE_FP32 dims: [ 3 ] }'));
      expect(name!.message).toContain(`("model input must specify 'name' for m")`);
      const fs = await lintConfig(ID, io(8, '{ name: "x" }'));
      expect(fs.map((f) => [f.severity, f.token])).toEqual([['error', '"x"'], ['error', '"x"']]);
      expect(fs[0]!.message).toContain(`("model input 'x' must specify 'data_type' for m")`);
      expect(fs[1]!.message).toContain(`("model input 'x' must specify 'dims' for m")`);
      const [empty] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ ] }'));
      expect(empty).toMatchObject({ token: 'dims' });
    });
    it('missing data_type is a warning when the backend auto-completes tensors (TensorRT by its model.plan)', async () => {
      const fs = await lintFiles(ID, { 'm/config.pbtxt': 'input [ { name: "x" dims: [ 16 ] } ]\n', 'm/1/model.plan': '' });
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ severity: 'warning' });
      expect(fs[0]!.message).toContain("unless the tensorrt backend's auto-complete fills it in");
    });
    it('an unknown numeric data_type', async () => {
      const [f] = await lintConfig(ID, io(8, '{ name: "x" data_type: 99 dims: [ 3 ] }'));
      expect(f).toMatchObject({ severity: 'error', token: '99' });
    });
    it('an empty reshape without batching', async () => {
      const [f] = await lintConfig(ID, io(0, '{ name: "x" data_type: TYPE_FP32 dims: [ 1 ] reshape { shape: [ ] } }'));
      expect(f).toMatchObject({ severity: 'error', token: '{ shape: [ ] }' });
      expect(f!.message).toContain(`("model input 'x' cannot have empty reshape for non-batching model as scalar tensors are not supported for m")`);
    });
    it('reshape dims of 0, element counts, variable segments', async () => {
      const msg = async (dims: string, shape: string): Promise<string> => (await lintConfig(ID, io(8, `{ name: "x" data_type: TYPE_FP32 dims: ${dims} reshape { shape: ${shape} } }`)))[0]?.message ?? '';
      expect(await msg('[ 4 ]', '[ 0, 4 ]')).toContain(`("model input 'x' reshape dimensions must be integer >= 1, or -1 to indicate a variable-size dimension for m")`);
      expect(await msg('[ 2, 3 ]', '[ 5 ]')).toContain(`reshape [5] (5 elements) does not hold the same elements as dims [2,3] (6 elements), so Triton refuses the model ("model input 'x' has different size for dims and reshape for m")`);
      expect(await msg('[ 2 ]', '[ ]')).toContain('an empty reshape needs dims of one element');
      expect(await msg('[ -1, 4 ]', '[ 4 ]')).toContain(`has different size for dims and reshape`);
      expect(await msg('[ -1, 4 ]', '[ -1, 2, -1 ]')).toContain(`reshape [-1,2,-1] has 2 variable dims (-1) and dims [-1,4] have 1, so Triton refuses the model ("model input 'x' has different number of variable-size dimensions for dims and reshape for m")`);
      expect(await msg('[ 2, -1, 6 ]', '[ 4, -1, 3 ]')).toContain('the fixed dims multiply to 2, 6 in dims and 4, 3 in reshape');
      expect(await msg('[ 1, 1 ]', '[ ]')).toBe('');
    });
    it('element counts beyond int64', async () => {
      const [f] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ 4294967296, 4294967296 ] reshape { shape: [ -1 ] } }'));
      expect(f!.message).toContain(`("element count for tensor 'x dims' exceeds maximum size of 9223372036854775807 for m")`);
    });
    it('NHWC with 2 dims', async () => {
      const [f] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 format: FORMAT_NHWC dims: [ 224, 224 ] }'));
      expect(f).toMatchObject({ token: 'FORMAT_NHWC' });
      expect(f!.message).toContain('("model input NHWC/NCHW require 3 dims for m")');
    });
    it('TensorRT flags elsewhere', async () => {
      const fs = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_INT32 dims: [ 2 ] is_shape_tensor: true is_non_linear_format_io: true }'));
      expect(fs.map((f) => f.message.match(/\("([^"]*)"\)/)?.[1])).toEqual([
        'shape tensors are only supported for TensorRT platform for m',
        'Non-linear IO format is only supported for the TensorRT platform for m',
      ]);
      const [trt] = await lintConfig(ID, 'platform: "tensorrt_plan"\noutput [ { name: "y" data_type: TYPE_FP16 dims: [ 8 ] is_non_linear_format_io: true } ]\n');
      expect(trt!.message).toContain('("Non-linear IO format output requires 3 dims for m")');
    });
    it('a name listed twice: warning on the second', async () => {
      const [f] = await lintConfig(ID, io(8, '{ name: "x" data_type: TYPE_FP32 dims: [ 3 ] }, { name: "x" data_type: TYPE_FP32 dims: [ 3 ] }'));
      expect(f).toMatchObject({ severity: 'warning', token: '"x"', column: 65 });
    });
  });
});

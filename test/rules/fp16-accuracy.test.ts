import { describe, expect, it } from 'vitest';
import { check } from '../lint/harness.js';

const trt = (mode: string) => `name: "m"
optimization { execution_accelerators { gpu_execution_accelerator : [ {
  name : "tensorrt"
  parameters { key: "precision_mode" value: "${mode}" }
  parameters { key: "max_workspace_size_bytes" value: "1073741824" }
} ] } }
`;

describe('fp16-accuracy', () => {
  describe('valid', () => {
    it('FP32 TensorRT, and no accelerator', async () => {
      expect(await check('fp16-accuracy', trt('FP32'))).toEqual([]);
      expect(await check('fp16-accuracy', 'name: "m"\n')).toEqual([]);
    });
    it('a precision_mode on a non-TensorRT accelerator is not ours to judge', async () => {
      expect(await check('fp16-accuracy', trt('FP16').replace('"tensorrt"', '"cuda"'))).toEqual([]);
    });
  });
  describe('invalid', () => {
    it.each(['FP16', 'BF16', 'INT8'])('%s: info on the precision_mode value', async (mode) => {
      const [f, ...rest] = await check('fp16-accuracy', trt(mode));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'info', token: `"${mode}"`, line: 4 });
      expect(f!.message).toContain(`precision_mode ${mode} runs the model through TensorRT in reduced precision`);
      expect(f!.message).toContain('re-run the accuracy suite');
    });
  });
});

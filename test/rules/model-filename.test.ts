import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'model-filename';

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['a plain file name', 'backend: "onnxruntime"\ndefault_model_filename: "resnet50.onnx"\n'],
      ['a DALI pipeline file', 'backend: "dali"\ndefault_model_filename: "pipeline-v2.dali"\n'],
      ['a sub-directory of the version directory', 'backend: "onnxruntime"\ndefault_model_filename: "onnx/model.onnx"\n'],
      ['a cc_model_filenames entry', 'platform: "tensorrt_plan"\ncc_model_filenames { key: "8.6" value: "model_sm86.plan" }\n'],
    ])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it("DALI refuses any character outside [A-Za-z0-9_.-], and names the first one", async () => {
      const [f, ...rest] = await lintConfig(ID, 'backend: "dali"\ndefault_model_filename: "../pipelines/model.dali"\n');
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 2, token: '"../pipelines/model.dali"' });
      expect(f!.message).toBe(
        `default_model_filename "../pipelines/model.dali" has the character '/', which the DALI backend refuses ("Model file name '../pipelines/model.dali' contains an invalid character: '/'"); use a plain file name of letters, digits, '_', '.' and '-' in the version directory, e.g. "model.dali"`,
      );
    });
    it('other backends: a path out of the version directory is a warning', async () => {
      const [f] = await lintConfig(ID, 'backend: "onnxruntime"\ndefault_model_filename: "../../common/model.onnx"\n');
      expect(f).toMatchObject({ severity: 'warning', line: 2 });
      expect(f!.message).toContain('climbs out of the version directory');
    });
    it('quotes or white space in a file name are a warning', async () => {
      const [f] = await lintConfig(ID, `backend: "onnxruntime"\ndefault_model_filename: "model.onnx'"\n`);
      expect(f).toMatchObject({ severity: 'warning' });
    });
    it('a cc_model_filenames key that is not a compute capability: points at the key', async () => {
      const [f] = await lintConfig(ID, 'platform: "tensorrt_plan"\ncc_model_filenames { key: "sm86" value: "model.plan" }\n');
      expect(f).toMatchObject({ severity: 'warning', token: '"sm86"' });
    });
  });
});

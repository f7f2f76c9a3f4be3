import { describe, expect, it } from 'vitest';
import { lintConfig, lintFiles } from './core-support.js';

const ID = 'name-matches-directory';
const IO = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

describe(ID, () => {
  describe('valid', () => {
    it('name equal to the directory', async () => {
      expect(await lintConfig(ID, `name: "resnet"\n${IO}`, 'resnet')).toEqual([]);
    });
    it('no name, or an empty one: Triton fills it from the directory', async () => {
      expect(await lintConfig(ID, IO, 'resnet')).toEqual([]);
      expect(await lintConfig(ID, `name: ""\n${IO}`, 'resnet')).toEqual([]);
    });
    it('a dotted custom-backend name equal to the directory', async () => {
      expect(await lintConfig(ID, 'name: "model.identity"\n', 'model.identity')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('another name: points at the name, quotes Triton, says both fixes', async () => {
      const [f, ...rest] = await lintConfig(ID, `name: "resnet50"\n${IO}`, 'resnet');
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 1, token: '"resnet50"' });
      expect(f!.message).toBe(
        `name "resnet50" is not the model directory's name 'resnet', so Triton refuses the model ("unexpected directory name 'resnet' for model 'resnet50', directory name must equal model name"); set name: "resnet" or remove name (Triton fills it from the directory), or rename the directory to 'resnet50'`,
      );
    });
    it('a path as the name: path traversal, no rename advice', async () => {
      const [f] = await lintConfig(ID, `name: "../resnet"\n${IO}`, 'resnet');
      expect(f!.message).toContain(`"../resnet" contains path traversal characters and can never be a directory name ("invalid model name '../resnet', model name must not contain path traversal characters")`);
      expect(f!.message).not.toContain('rename the directory');
    });
    it('a blank name is not an empty one', async () => {
      const [f] = await lintConfig(ID, `name: "  "\n${IO}`, 'resnet');
      expect(f!.message).toContain('a blank name is not empty');
    });
    it('spaces around the name, and case', async () => {
      expect((await lintConfig(ID, `name: "resnet "\n${IO}`, 'resnet'))[0]!.message).toContain('the name has spaces around it');
      expect((await lintConfig(ID, `name: "ResNet"\n${IO}`, 'resnet'))[0]!.message).toContain('names are case-sensitive');
    });
    it('a custom config (configs/<name>.pbtxt) is checked against the model directory too', async () => {
      const fs = await lintFiles(ID, { 'resnet/config.pbtxt': `name: "resnet"\n${IO}`, 'resnet/configs/gpu.pbtxt': `name: "resnet_gpu"\n${IO}` }, 'resnet');
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ file: 'resnet/configs/gpu.pbtxt', token: '"resnet_gpu"' });
    });
  });
});

import { describe, expect, it } from 'vitest';
import { lintConfig, lintFiles } from './core-support.js';

const ID = 'platform-backend';

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['backend alone', 'backend: "onnxruntime"\n'],
      ['platform alone', 'platform: "onnxruntime_onnx"\n'],
      ['a matching pair', 'platform: "tensorrt_plan"\nbackend: "tensorrt"\n'],
      ['PyTorch AOTInductor (same backend type as LibTorch)', 'platform: "torch_aoti"\nbackend: "pytorch"\n'],
      ['a custom backend with any platform', 'backend: "dali"\nplatform: "whatever"\n'],
      ['python backend', 'backend: "python"\n'],
      ['an ensemble', 'platform: "ensemble"\nensemble_scheduling { step [ ] }\n'],
      ['default_model_filename naming the backend', 'default_model_filename: "model.onnx"\n'],
      ['runtime inside the backend directory', 'backend: "identity"\nruntime: "lib/libtriton_identity.so"\n'],
      ['a custom backend of a name far from every known one', 'backend: "my_tokenizer"\n'],
      ['the TensorRT-LLM and vLLM backends', 'backend: "tensorrtllm"\n'],
    ])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
    it('nothing set, and the version directory holds model.onnx (a directory counts)', async () => {
      expect(await lintFiles(ID, { 'm/config.pbtxt': 'max_batch_size: 4\n', 'm/1/model.onnx': '' })).toEqual([]);
      expect(await lintFiles(ID, { 'm/config.pbtxt': '', 'm/1/model.onnx/model.onnx': '' })).toEqual([]);
    });
    it('nothing set, and the model name says the backend (model.<backend>)', async () => {
      expect(await lintFiles(ID, { 'model.identity/config.pbtxt': '', 'model.identity/1/x': '' }, 'model.identity')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('a backend one typo away from a known one (core finds no library for it)', async () => {
      const [f, ...rest] = await lintConfig(ID, 'backend: "pyhton"\nmax_batch_size: 8\n');
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 1, token: '"pyhton"' });
      expect(f!.message).toContain(`did you mean "python"? Triton finds no library for it and refuses the model ("unable to find backend library for backend 'pyhton', try specifying runtime on the model configuration.")`);
      expect((await lintConfig(ID, 'backend: "onnxruntme"\n'))[0]!.message).toContain('did you mean "onnxruntime"?');
    });
    it('a backend name written as the platform', async () => {
      const [f, ...rest] = await lintConfig(ID, 'platform: "onnxruntime"\nmax_batch_size: 8\n');
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 1, token: '"onnxruntime"' });
      expect(f!.message).toBe(
        `platform "onnxruntime" is not a platform Triton knows and no backend is set, so Triton refuses the model ("unexpected platform type 'onnxruntime' for m"); 'onnxruntime' is a backend, not a platform: write backend: "onnxruntime" (or platform: "onnxruntime_onnx")`,
      );
    });
    it('a misspelt platform gets a suggestion', async () => {
      const [f] = await lintConfig(ID, 'platform: "onnxruntime_onx"\n');
      expect(f!.message).toContain(`("unexpected platform type 'onnxruntime_onx' for m"); did you mean platform: "onnxruntime_onnx"?`);
    });
    it('a custom default_model_filename without platform or backend (AutoCompleteBackendFields)', async () => {
      const [f] = await lintConfig(ID, 'default_model_filename: "resnet50.onnx"\n');
      expect(f).toMatchObject({ severity: 'error', token: '"resnet50.onnx"' });
      expect(f!.message).toContain(`("unexpected platform type '' for m"); add backend: "onnxruntime" next to it`);
    });
    it('a known backend with a platform of another framework: points at the platform', async () => {
      const [f] = await lintConfig(ID, 'backend: "onnxruntime"\nplatform: "tensorrt_plan"\n');
      expect(f).toMatchObject({ severity: 'error', line: 2, token: '"tensorrt_plan"' });
      expect(f!.message).toContain(`("unexpected 'platform' and 'backend' pair, got:tensorrt_plan, onnxruntime"); set platform: "onnxruntime_onnx" or remove platform`);
    });
    it("the 'libtorch' alias: auto-fill accepts it, the pair check does not", async () => {
      const [f] = await lintConfig(ID, 'platform: "libtorch"\n');
      expect(f!.message).toContain(`("unexpected 'platform' and 'backend' pair, got:libtorch, pytorch")`);
      expect(f!.message).toContain('set platform: "pytorch_libtorch"');
    });
    it('tensorflow backend whose platform cannot be inferred: error with a version directory, warning without', async () => {
      const withDir = await lintFiles(ID, { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/model.onnx': '' });
      expect(withDir[0]).toMatchObject({ severity: 'error', token: '"tensorflow"' });
      expect(withDir[0]!.message).toContain(`got:, tensorflow`);
      expect((await lintConfig(ID, 'backend: "tensorflow"\n'))[0]).toMatchObject({ severity: 'warning' });
      expect(await lintFiles(ID, { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/model.savedmodel/saved_model.pb': '' })).toEqual([]);
    });
    it('an ensemble with a backend', async () => {
      const [f] = await lintConfig(ID, 'platform: "ensemble"\nbackend: "onnxruntime"\n');
      expect(f).toMatchObject({ line: 2, token: '"onnxruntime"' });
      expect(f!.message).toContain(`("Ensemble model 'm' must have platform type 'ensemble' and empty backend type"); remove backend`);
    });
    it('nothing identifies the backend: error when Triton can look in a version directory, warning when there is none', async () => {
      const [f] = await lintFiles(ID, { 'm/config.pbtxt': 'name: "m"\nmax_batch_size: 4\n', 'm/1/weights.bin': '' });
      expect(f).toMatchObject({ severity: 'error', token: '"m"' });
      expect(f!.message).toContain(`("Invalid model name: Could not determine backend for model 'm' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.")`);
      const [g] = await lintConfig(ID, 'max_batch_size: 4\n');
      expect(g).toMatchObject({ severity: 'warning', line: 1, column: 1 });
      expect(g!.message).toContain('the model directory has no version directory');
    });
    it('runtime escaping the backend directory', async () => {
      const [f] = await lintConfig(ID, 'backend: "identity"\nruntime: "../lib/libtriton_identity.so"\n');
      expect(f).toMatchObject({ severity: 'error', line: 2, token: '"../lib/libtriton_identity.so"' });
      expect(f!.message).toContain(`("backend library name '../lib/libtriton_identity.so' escapes backend directory '<dir>', for model 'm', check model config runtime field"); put the library in the model directory and write its file name, e.g. runtime: "libtriton_identity.so"`);
    });
  });
});

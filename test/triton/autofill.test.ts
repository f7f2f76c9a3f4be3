// core's AutoCompleteBackendFields, branch by branch (core src/model_config_utils.cc), on listings built in memory.
import { describe, expect, it } from 'vitest';
import { autofillBackendFields, autofillReadsFiles, type AutofillListing, type EntryKind } from '../../src/triton/autofill.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { releaseNamed, type TritonRelease } from '../../src/triton/releases/catalog.js';

function listing(entries: Record<string, EntryKind> | undefined, modelName = 'm', subdir = '1'): AutofillListing {
  return entries === undefined ? { modelName } : { modelName, firstSubdir: { name: subdir, entries: new Map(Object.entries(entries)) } };
}

/** The backend fields after autofill (name left out unless asked). */
function fields(config: ModelConfig, l: AutofillListing, release?: TritonRelease): Pick<ModelConfig, 'platform' | 'backend' | 'default_model_filename'> {
  const r = autofillBackendFields(config, l, release);
  expect(r.problem).toBeUndefined();
  const { platform, backend, default_model_filename } = r.config;
  return Object.fromEntries(Object.entries({ platform, backend, default_model_filename }).filter(([, v]) => v !== undefined));
}

const ORT = { platform: 'onnxruntime_onnx', backend: 'onnxruntime', default_model_filename: 'model.onnx' };

describe('autofillBackendFields: name', () => {
  it('fills an empty name from the directory and records why', () => {
    const r = autofillBackendFields({}, listing({ 'model.onnx': 'file' }, 'resnet'));
    expect(r.config.name).toBe('resnet');
    expect(r.steps[0]).toMatchObject({ stage: 'autofill', action: 'set', path: ['name'], value: 'resnet' });
  });

  it('keeps a given name (the directory check comes later) and never mutates its input', () => {
    const input: ModelConfig = { name: 'other', platform: 'onnxruntime_onnx' };
    const r = autofillBackendFields(input, listing({}));
    expect(r.config.name).toBe('other');
    expect(input).toEqual({ name: 'other', platform: 'onnxruntime_onnx' });
  });
});

describe('autofillBackendFields: ONNX Runtime', () => {
  it('platform alone, backend alone, or the file name alone all give the full triple', () => {
    expect(fields({ platform: 'onnxruntime_onnx' }, listing({}))).toEqual(ORT);
    expect(fields({ backend: 'onnxruntime' }, listing({}))).toEqual(ORT);
    expect(fields({ default_model_filename: 'model.onnx' }, listing({}))).toEqual(ORT);
  });

  it('nothing in the config: a model.onnx file or directory in the first version directory', () => {
    expect(fields({}, listing({ 'model.onnx': 'file' }))).toEqual(ORT);
    expect(fields({}, listing({ 'model.onnx': 'dir' }))).toEqual(ORT);
  });

  it('keeps a custom file name when backend or platform says ONNX Runtime', () => {
    expect(fields({ backend: 'onnxruntime', default_model_filename: 'resnet.onnx' }, listing({}))).toEqual({ ...ORT, default_model_filename: 'resnet.onnx' });
  });

  it('a custom file name alone matches no branch: backend stays empty (validation then refuses it)', () => {
    const r = autofillBackendFields({ default_model_filename: 'resnet.onnx' }, listing({ 'resnet.onnx': 'file' }));
    expect(r.problem).toBeUndefined();
    expect(r.config.backend).toBeUndefined();
    expect(r.config.platform).toBeUndefined();
  });

  it('looks only in the first sub-directory in byte order, whatever it is called', () => {
    // "10" sorts before "2": a model only in 2/ is not seen when 10/ exists.
    expect(autofillBackendFields({}, listing({}, 'm', '10')).problem?.message).toMatch(/^Invalid model name/);
    expect(fields({}, listing({ 'model.onnx': 'file' }, 'm', '.ipynb_checkpoints'))).toEqual(ORT);
  });
});

describe("autofillBackendFields: the other backends, in core's order", () => {
  it('TensorFlow: by file name, a model.savedmodel directory, a model.graphdef file (graphdef wins over savedmodel)', () => {
    expect(fields({ default_model_filename: 'model.savedmodel' }, listing({}))).toEqual({
      platform: 'tensorflow_savedmodel',
      backend: 'tensorflow',
      default_model_filename: 'model.savedmodel',
    });
    expect(fields({}, listing({ 'model.savedmodel': 'dir' }))).toEqual({
      platform: 'tensorflow_savedmodel',
      backend: 'tensorflow',
      default_model_filename: 'model.savedmodel',
    });
    expect(fields({}, listing({ 'model.graphdef': 'file' }))).toEqual({
      platform: 'tensorflow_graphdef',
      backend: 'tensorflow',
      default_model_filename: 'model.graphdef',
    });
    expect(fields({}, listing({ 'model.savedmodel': 'dir', 'model.graphdef': 'file' }))).toMatchObject({ platform: 'tensorflow_graphdef' });
    // A model.savedmodel FILE is not a SavedModel; nothing else matches, so the custom-backend rule fails.
    expect(autofillBackendFields({}, listing({ 'model.savedmodel': 'file' })).problem).toBeDefined();
  });

  it('TensorRT is checked before ONNX Runtime: a version dir with model.plan and model.onnx is TensorRT', () => {
    const trt = { platform: 'tensorrt_plan', backend: 'tensorrt', default_model_filename: 'model.plan' };
    expect(fields({}, listing({ 'model.plan': 'file', 'model.onnx': 'file' }))).toEqual(trt);
    expect(fields({ platform: 'tensorrt_plan' }, listing({}))).toEqual(trt);
    // A model.plan directory is not an engine: the ONNX model next to it decides.
    expect(fields({}, listing({ 'model.plan': 'dir', 'model.onnx': 'file' }))).toEqual(ORT);
  });

  it('OpenVINO, Python: by file name or by the file in the version directory', () => {
    expect(fields({}, listing({ 'model.xml': 'file' }))).toEqual({ backend: 'openvino', default_model_filename: 'model.xml' });
    expect(fields({ default_model_filename: 'model.xml' }, listing({}))).toEqual({ backend: 'openvino', default_model_filename: 'model.xml' });
    expect(fields({}, listing({ 'model.py': 'file' }))).toEqual({ backend: 'python', default_model_filename: 'model.py' });
  });

  // core r24.10 / r26.03 / r26.04 src/model_config_utils.cc AutoCompleteBackendFields, the PyTorch branch
  // (triton/core-releases.ts); the r24.10 and r26.06 cores agree (test/conformance/core-releases.test.ts).
  it('PyTorch in 24.10: LibTorch by platform, file, or model.pt, always named model.pt; no torch_aoti, no model.pt2, no "libtorch"', () => {
    const at = releaseNamed('24.10');
    const f = (c: ModelConfig, l: AutofillListing) => fields(c, l, at);
    // The real r24.10 server answers default_model_filename "model.pt" for each LibTorch case
    // (test/conformance/l0-real-server.test.ts, autofill_noplatform_success/pytorch/no_name_platform).
    const LIBTORCH = { platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: 'model.pt' };
    expect(f({ platform: 'pytorch_libtorch' }, listing({}))).toEqual(LIBTORCH);
    expect(f({ backend: 'pytorch' }, listing({}))).toEqual(LIBTORCH);
    expect(f({}, listing({ 'model.pt': 'file' }))).toEqual(LIBTORCH);
    expect(f({ backend: 'pytorch', runtime: 'model.py' }, listing({}))).toEqual({ platform: 'pytorch_libtorch', backend: 'pytorch' });
    expect(f({ platform: 'torch_aoti' }, listing({}))).toEqual({ platform: 'torch_aoti' });
    expect(f({ platform: 'libtorch' }, listing({}))).toEqual({ platform: 'libtorch' });
    expect(autofillBackendFields({}, listing({ 'model.pt2': 'file' }), at).problem?.message).toMatch(/Could not determine backend for model 'm'/);
  });

  it('PyTorch in 26.03: torch_aoti and model.pt2 choose pytorch, but the LibTorch defaults are still filled in', () => {
    const at = releaseNamed('26.03');
    expect(fields({ platform: 'torch_aoti' }, listing({}), at)).toEqual({ platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt' });
    expect(fields({}, listing({ 'model.pt2': 'file' }), at)).toEqual({ platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: 'model.pt' });
    expect(fields({ platform: 'libtorch' }, listing({}), at)).toEqual({ platform: 'libtorch' });
    const r = autofillBackendFields({ platform: 'torch_aoti' }, listing({}), at);
    expect(r.steps.find((s) => s.path[0] === 'backend')?.reason).toBe('platform is torch_aoti (from 26.03)');
  });

  it('PyTorch from 26.04: defaults by platform (model.pt2 for torch_aoti), "libtorch" read as LibTorch, no file named for a LibTorch platform given', () => {
    for (const at of [releaseNamed('26.04'), releaseNamed('26.08')]) {
      const f = (c: ModelConfig, l: AutofillListing) => fields(c, l, at);
      expect(f({ platform: 'pytorch_libtorch' }, listing({}))).toEqual({ platform: 'pytorch_libtorch', backend: 'pytorch' });
      expect(f({ platform: 'libtorch' }, listing({}))).toEqual({ platform: 'libtorch', backend: 'pytorch' });
      expect(f({ backend: 'pytorch' }, listing({}))).toEqual({ platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: 'model.pt' });
      expect(f({}, listing({ 'model.pt': 'file' }))).toEqual({ platform: 'pytorch_libtorch', backend: 'pytorch' });
      expect(f({}, listing({ 'model.pt2': 'file' }))).toEqual({ platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt2' });
      expect(f({ platform: 'torch_aoti' }, listing({}))).toEqual({ platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt2' });
    }
  });

  it('a backend the config names but core does not know is left as written', () => {
    expect(fields({ backend: 'vllm' }, listing({ 'model.json': 'file' }))).toEqual({ backend: 'vllm' });
    expect(fields({ backend: 'tensorflow' }, listing({}))).toEqual({ backend: 'tensorflow' });
  });

  it('ensembles keep their platform and get no backend', () => {
    expect(fields({ platform: 'ensemble' }, listing({}))).toEqual({ platform: 'ensemble' });
  });
});

describe('autofillBackendFields: custom backend from the model name', () => {
  it('model.<backend>: the text after the first dot of the directory name', () => {
    expect(fields({}, listing({}, 'model.identity'))).toEqual({ backend: 'identity', default_model_filename: 'model.identity' });
    expect(fields({}, listing(undefined, 'add.sub.custom'))).toEqual({ backend: 'sub.custom', default_model_filename: 'model.sub.custom' });
  });

  it("fails with Triton's message when nothing says which backend, and says how to fix it", () => {
    const r = autofillBackendFields({}, listing({ 'weights.bin': 'file' }, 'classifier'));
    expect(r.problem).toMatchObject({
      stage: 'autofill',
      message:
        "Invalid model name: Could not determine backend for model 'classifier' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.",
    });
    expect(r.problem!.fix).toContain('model.onnx');
    expect(autofillBackendFields({}, listing(undefined, 'classifier')).problem!.fix).toContain('no version directory');
  });
});

describe('autofillReadsFiles: when the first sub-directory cannot change the outcome', () => {
  it('autofill gives the same result with or without the listing whenever it says so', () => {
    const fields = {
      platform: ['', 'onnxruntime_onnx', 'tensorrt_plan', 'ensemble', 'tensorflow_savedmodel', 'bogus'],
      backend: ['', 'onnxruntime', 'tensorflow', 'python', 'identity'],
      default_model_filename: ['', 'model.onnx', 'model.plan', 'model.savedmodel', 'x.bin'],
    };
    const listings = [
      { modelName: 'm', firstSubdir: { name: '1', entries: new Map([['model.onnx', 'file' as const]]) } },
      {
        modelName: 'm.identity',
        firstSubdir: {
          name: '1',
          entries: new Map([
            ['model.savedmodel', 'dir' as const],
            ['model.plan', 'file' as const],
          ]),
        },
      },
    ];
    let skipped = 0;
    for (const platform of fields.platform)
      for (const backend of fields.backend)
        for (const filename of fields.default_model_filename) {
          const config = { ...(platform ? { platform } : {}), ...(backend ? { backend } : {}), ...(filename ? { default_model_filename: filename } : {}) };
          if (autofillReadsFiles(config)) continue;
          skipped++;
          for (const listing of listings) {
            const withFiles = autofillBackendFields(config, listing);
            const without = autofillBackendFields(config, { modelName: listing.modelName });
            expect(without, JSON.stringify(config)).toEqual(withFiles);
          }
        }
    expect(skipped).toBeGreaterThan(100);
  });
});

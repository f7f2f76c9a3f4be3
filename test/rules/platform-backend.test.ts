import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/lint/rule.js';
import { platformBackend } from '../../src/lint/rules/correctness/platform-backend.js';
import { testRule } from '../support/rule-tester.js';

const ID = 'platform-backend';

testRule(ID, {
  valid: [
    { name: 'backend alone', config: 'backend: "onnxruntime"\n' },
    { name: 'platform alone', config: 'platform: "onnxruntime_onnx"\n' },
    { name: 'a matching pair', config: 'platform: "tensorrt_plan"\nbackend: "tensorrt"\n' },
    { name: 'PyTorch AOTInductor (same backend type as LibTorch)', config: 'platform: "torch_aoti"\nbackend: "pytorch"\n' },
    {
      name: 'torch_aoti alone, for 26.03 (auto-fill gives it the pytorch backend from 26.03)',
      config: 'platform: "torch_aoti"\n',
      settings: { triton: '26.03' },
    },
    { name: 'a custom backend with any platform', config: 'backend: "dali"\nplatform: "whatever"\n' },
    { name: 'python backend', config: 'backend: "python"\n' },
    { name: 'an ensemble', config: 'platform: "ensemble"\nensemble_scheduling { step [ ] }\n' },
    { name: 'default_model_filename naming the backend', config: 'default_model_filename: "model.onnx"\n' },
    { name: 'runtime inside the backend directory', config: 'backend: "identity"\nruntime: "lib/libtriton_identity.so"\n' },
    { name: 'a custom backend of a name far from every known one', config: 'backend: "my_tokenizer"\n' },
    { name: 'the TensorRT-LLM and vLLM backends', config: 'backend: "tensorrtllm"\n' },
    { name: 'nothing set, and the version directory holds model.onnx', files: { 'm/config.pbtxt': 'max_batch_size: 4\n', 'm/1/model.onnx': '' } },
    { name: 'nothing set, and the version directory holds model.onnx as a directory', files: { 'm/config.pbtxt': '', 'm/1/model.onnx/model.onnx': '' } },
    {
      name: 'nothing set, and the model name says the backend (model.<backend>)',
      files: { 'model.identity/config.pbtxt': '', 'model.identity/1/x': '' },
      targets: ['model.identity'],
    },
    // NVIDIA DeepLearningExamples' Kaldi model: core searches <model>/<version> and <model> before the
    // backend directory (core src/backend_model.cc GetBackendLibrarySearchPaths), so the name is known.
    {
      name: 'a custom backend whose library ships in the version directory (Kaldi)',
      files: { 'm/config.pbtxt': 'backend: "kaldi"\n', 'm/1/libtriton_kaldi.so': '' },
    },
    {
      name: 'a custom backend whose library ships in the model directory',
      files: { 'm/config.pbtxt': 'backend: "kaldi"\n', 'm/libtriton_kaldi.so': '', 'm/1/x': '' },
    },
    {
      name: 'a custom backend named by runtime beside the model',
      files: { 'm/config.pbtxt': 'backend: "kaldi"\nruntime: "libkaldi.so"\n', 'm/1/libkaldi.so': '' },
    },
  ],
  invalid: [
    {
      name: 'a backend one typo away from a known one (core finds no library for it): suggested, never applied by --fix',
      config: 'backend: "pyhton"\nmax_batch_size: 8\n',
      errors: [
        { messageId: 'misspeltBackend', severity: 'error', line: 1, token: '"pyhton"', path: ['backend'], data: { backend: 'pyhton', suggestion: 'python' } },
      ],
      suggestions: ['backend: "python"\nmax_batch_size: 8\n'],
      output: null,
    },
    {
      name: 'another misspelt backend',
      config: 'backend: "onnxruntme"\n',
      errors: [{ messageId: 'misspeltBackend', data: { backend: 'onnxruntme', suggestion: 'onnxruntime' } }],
      suggestions: ['backend: "onnxruntime"\n'],
      output: null,
    },
    {
      // Two edits from "dali", and no library beside the model: a suggestion, not a fix (issue 42).
      name: 'a custom backend whose library is not beside the model: "dali" only suggested',
      files: { 'm/config.pbtxt': 'backend: "kaldi"\n', 'm/1/README': '' },
      errors: [{ messageId: 'misspeltBackend', data: { backend: 'kaldi', suggestion: 'dali' } }],
      suggestions: ['backend: "dali"\n'],
      output: null,
    },
    {
      name: 'a backend name written as the platform',
      config: 'platform: "onnxruntime"\nmax_batch_size: 8\n',
      errors: [
        {
          messageId: 'unknownPlatformIsBackend',
          severity: 'error',
          line: 1,
          token: '"onnxruntime"',
          data: { platform: 'onnxruntime', name: 'm', backendPlatform: 'onnxruntime_onnx' },
        },
      ],
      output: null,
    },
    {
      name: 'a backend without a platform of its own written as the platform',
      config: 'platform: "python"\n',
      errors: [{ messageId: 'unknownPlatformIsBackendOnly', token: '"python"', data: { platform: 'python', name: 'm' } }],
    },
    // Every backend a record names is recognised written as the platform (core refuses it the same way:
    // model_config_utils.cc, "unexpected platform type"), not only the eight a list used to hold.
    {
      name: 'the vLLM backend written as the platform: it is a backend',
      config: 'platform: "vllm"\n',
      errors: [{ messageId: 'unknownPlatformIsBackendOnly', token: '"vllm"', data: { platform: 'vllm', name: 'm' } }],
    },
    {
      name: 'a misspelt platform gets a suggestion',
      config: 'platform: "onnxruntime_onx"\n',
      errors: [{ messageId: 'unknownPlatformDidYouMean', data: { platform: 'onnxruntime_onx', name: 'm', suggestion: 'onnxruntime_onnx' } }],
    },
    {
      name: 'an unknown platform far from every known one: the platforms listed',
      config: 'platform: "foobar_qux"\n',
      errors: [
        {
          messageId: 'unknownPlatform',
          token: '"foobar_qux"',
          data: { platform: 'foobar_qux', name: 'm', platforms: expect.stringContaining("'onnxruntime_onnx'") },
        },
      ],
    },
    {
      name: 'a custom default_model_filename without platform or backend (AutoCompleteBackendFields)',
      config: 'default_model_filename: "resnet50.onnx"\n',
      errors: [
        {
          messageId: 'filenameNamesNoBackend',
          severity: 'error',
          token: '"resnet50.onnx"',
          data: { filename: 'resnet50.onnx', platform: '', name: 'm', suggestion: 'onnxruntime' },
        },
      ],
    },
    {
      name: 'a custom default_model_filename of an extension no backend claims',
      config: 'default_model_filename: "weights.bin"\n',
      errors: [{ messageId: 'filenameNamesNoBackend', data: { filename: 'weights.bin', suggestion: '<backend>' } }],
    },
    {
      name: "a known backend with a platform of another framework: points at the platform, suggests the backend's (the backend may be the wrong one)",
      config: 'backend: "onnxruntime"\nplatform: "tensorrt_plan"\n',
      errors: [
        {
          messageId: 'platformBackendMismatch',
          severity: 'error',
          line: 2,
          token: '"tensorrt_plan"',
          data: { platform: 'tensorrt_plan', backend: 'onnxruntime', suggestion: 'onnxruntime_onnx' },
        },
      ],
      suggestions: ['backend: "onnxruntime"\nplatform: "onnxruntime_onnx"\n'],
      output: null,
    },
    {
      // The r24.10 core (2.51) refuses it at poll: "unexpected platform type 'torch_aoti' for <m>" (test/conformance/core-releases.test.ts).
      name: 'torch_aoti alone, for 26.02: a platform of a later release',
      config: 'platform: "torch_aoti"\n',
      settings: { triton: '26.02' },
      errors: [{ messageId: 'platformNotInRelease', path: ['platform'], data: { platform: 'torch_aoti', since: '26.03', release: '26.02', name: 'm' } }],
    },
    {
      // The r24.10 core: "unexpected 'platform' and 'backend' pair, got:torch_aoti, pytorch" (test/conformance/core-releases.test.ts).
      name: 'torch_aoti with backend pytorch, for 26.02: no pair before 26.03',
      config: 'platform: "torch_aoti"\nbackend: "pytorch"\n',
      settings: { triton: '26.02' },
      errors: [
        {
          messageId: 'platformNotInReleasePair',
          path: ['platform'],
          data: { platform: 'torch_aoti', backend: 'pytorch', since: '26.03', release: '26.02', suggestion: 'pytorch_libtorch' },
        },
      ],
    },
    {
      name: "the 'libtorch' alias: auto-fill accepts it, the pair check does not",
      config: 'platform: "libtorch"\n',
      errors: [
        {
          messageId: 'platformAliasBackendMismatchFilled',
          data: { platform: 'libtorch', backend: 'pytorch', platformName: 'pytorch_libtorch', suggestion: 'pytorch_libtorch' },
        },
      ],
      output: 'platform: "pytorch_libtorch"\n',
    },
    {
      name: "the 'libtorch' alias with the backend written",
      config: 'platform: "libtorch"\nbackend: "pytorch"\n',
      errors: [
        {
          messageId: 'platformAliasBackendMismatch',
          token: '"libtorch"',
          data: { platform: 'libtorch', backend: 'pytorch', platformName: 'pytorch_libtorch', suggestion: 'pytorch_libtorch' },
        },
      ],
    },
    {
      name: 'tensorflow backend with a SavedModel for Triton 25.02, the last release that builds it: auto-fill settles the platform, and a note that it leaves',
      settings: { triton: '25.02' },
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/model.savedmodel/saved_model.pb': '' },
      errors: [
        {
          messageId: 'backendLeaving',
          severity: 'info',
          token: '"tensorflow"',
          data: { backend: 'tensorflow', title: 'TensorFlow', target: '25.02', lastRelease: '25.02', firstWithout: '25.03' },
        },
      ],
    },
    {
      name: 'the same model for Triton 25.03, the first release without the backend: refused',
      settings: { triton: '25.03' },
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/model.savedmodel/saved_model.pb': '' },
      errors: [
        {
          messageId: 'backendDropped',
          severity: 'error',
          token: '"tensorflow"',
          data: { backend: 'tensorflow', title: 'TensorFlow', target: '25.03', lastRelease: '25.02', firstWithout: '25.03' },
        },
      ],
    },
    {
      name: 'a tensorflow_* platform written, for the default target (the newest release): refused, on the platform',
      files: { 'm/config.pbtxt': 'platform: "tensorflow_graphdef"\n', 'm/1/model.graphdef': '' },
      errors: [{ messageId: 'backendDropped', severity: 'error', token: '"tensorflow_graphdef"', data: { backend: 'tensorflow', target: '26.08' } }],
    },
    {
      name: "a tensorflow_* platform for the tutorial's Triton 24.05 (a server version given): the note",
      settings: { triton: '2.46.0' },
      files: { 'm/config.pbtxt': 'platform: "tensorflow_graphdef"\n', 'm/1/model.graphdef': '' },
      errors: [{ messageId: 'backendLeaving', severity: 'info', token: '"tensorflow_graphdef"', data: { backend: 'tensorflow', target: '24.05' } }],
    },
    {
      name: 'tensorflow backend whose platform cannot be inferred, with a version directory: error',
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/model.onnx': '' },
      errors: [
        {
          messageId: 'tensorflowNeedsPlatform',
          severity: 'error',
          token: '"tensorflow"',
          data: { platform: '', backend: 'tensorflow', platforms: '"tensorflow_savedmodel" or "tensorflow_graphdef"' },
        },
      ],
    },
    {
      name: 'tensorflow backend without a version directory: a warning (a guess)',
      config: 'backend: "tensorflow"\n',
      errors: [{ messageId: 'tensorflowNeedsPlatformNoVersionDir', severity: 'warning', token: '"tensorflow"', data: { platform: '', backend: 'tensorflow' } }],
    },
    {
      name: 'an ensemble with a backend',
      config: 'platform: "ensemble"\nbackend: "onnxruntime"\n',
      errors: [{ messageId: 'ensembleWithBackend', line: 2, token: '"onnxruntime"', data: { backend: 'onnxruntime', name: 'm' } }],
    },
    {
      name: 'nothing identifies the backend, and Triton can look in a version directory: error at the name',
      files: { 'm/config.pbtxt': 'name: "m"\nmax_batch_size: 4\n', 'm/1/weights.bin': '' },
      errors: [{ messageId: 'noModelFileRecognized', severity: 'error', token: '"m"', data: { model: 'm', versionDir: '1', modelAt: '1' } }],
    },
    {
      name: 'nothing identifies the backend, and the first version directory is not 1',
      files: { 'm/config.pbtxt': 'max_batch_size: 4\n', 'm/3/weights.bin': '' },
      errors: [{ messageId: 'noModelFileRecognized', data: { model: 'm', versionDir: '3', modelAt: '<version>' } }],
    },
    {
      name: 'nothing identifies the backend, and there is no version directory: a warning at the top',
      config: 'max_batch_size: 4\n',
      errors: [{ messageId: 'noVersionDirectoryToInfer', severity: 'warning', line: 1, path: [], data: { model: 'm' } }],
    },
    {
      name: 'runtime escaping the backend directory',
      config: 'backend: "identity"\nruntime: "../lib/libtriton_identity.so"\n',
      errors: [
        {
          messageId: 'runtimeEscapes',
          severity: 'error',
          line: 2,
          token: '"../lib/libtriton_identity.so"',
          data: { runtime: '../lib/libtriton_identity.so', name: 'm', fileName: 'libtriton_identity.so' },
        },
      ],
    },
  ],
});

// Not reachable through the auto-fill (a config with neither platform nor file name either finds a
// backend or hits its step 8), so the rule is run on a stub whose auto-fill settles nothing.
describe(`${ID}: an auto-fill that settles no backend`, () => {
  it('says Triton cannot tell the backend', () => {
    const reports: Report[] = [];
    const model = { name: 'm', autofillListing: () => ({ modelName: 'm' }), autofill: () => ({ config: {}, steps: [] }) };
    platformBackend.check({ config: {}, model, report: (r: Report) => reports.push(r), isEnabled: () => true } as never);
    expect(reports).toEqual([{ path: [], messageId: 'noBackend', data: { platform: '', name: 'm' } }]);
  });
});

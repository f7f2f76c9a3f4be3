// Version directories on disk for what the tester cannot hold: a config linted by lintText over the
// disk, and which files a whole-repository run takes for models.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/lint/engine.js';
import { versionDirs } from '../../src/lint/rules/correctness/version-dirs.js';
import { lintDir, writeRepo } from '../lint/harness.js';
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const RULE = 'version-dirs';
const ONNX = new Uint8Array([8, 8]); // only its presence matters here
const ORT = 'platform: "onnxruntime_onnx"\n';
const M = { model: 'm' };
const ENSEMBLE =
  'name: "ens"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3 ] } ]\nensemble_scheduling { step [ { model_name: "m" model_version: -1 input_map { key: "x" value: "IN" } output_map { key: "y" value: "OUT" } } ] }\n';

testRule(RULE, {
  valid: [
    { name: 'version 1 with model.onnx', files: { 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX } },
    {
      name: 'model.onnx as a directory holding model.onnx and its external data',
      files: { 'm/config.pbtxt': ORT, 'm/1/model.onnx/model.onnx': ONNX, 'm/1/model.onnx/weights.bin': ONNX },
    },
    { name: 'default_model_filename', files: { 'm/config.pbtxt': `${ORT}default_model_filename: "resnet.onnx"\n`, 'm/1/resnet.onnx': ONNX } },
    { name: 'a backend found from the file alone', files: { 'm/config.pbtxt': 'max_batch_size: 8\n', 'm/3/model.onnx': ONNX } },
    { name: 'an ensemble with an empty version directory', targets: ['e'], files: { 'e/config.pbtxt': 'platform: "ensemble"\n', 'e/1/.keep': '' } },
    { name: 'a Python model', targets: ['p'], files: { 'p/config.pbtxt': 'backend: "python"\n', 'p/1/model.py': 'pass\n' } },
    {
      name: 'warmup, initial_state and configs are not version directories',
      files: { 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'm/warmup/x.bin': ONNX, 'm/configs/h100.pbtxt': ORT },
    },
    { name: 'a model named 1 with versions of its own is a model', targets: ['1/config.pbtxt'], files: { '1/config.pbtxt': ORT, '1/1/model.onnx': ONNX } },
  ],
  invalid: [
    {
      name: "no version directory at all: Triton's message and where to put the model",
      config: ORT,
      errors: [{ messageId: 'noNumericVersion', severity: 'error', line: 1, path: [], data: { ...M, ignoredDirs: '', example: 'm/1/model.onnx' } }],
    },
    // The example names the file the model's own backend opens (its record's default model file), not
    // ONNX Runtime's: a TensorFlow model written by backend alone is served as a SavedModel
    // (core src/model_config_utils.cc AutoCompleteBackendFields; tensorflow_backend opens
    // <version>/model.savedmodel), and a backend whose file tritonc does not know gets no file name.
    {
      name: 'no version directory for a TensorFlow model: the example puts model.savedmodel there',
      config: 'backend: "tensorflow"\n',
      errors: [{ messageId: 'noNumericVersion', severity: 'error', data: { ...M, ignoredDirs: '', example: 'm/1/model.savedmodel' } }],
    },
    {
      name: 'no version directory for a vLLM model: the example names the version directory, not an ONNX file',
      config: 'backend: "vllm"\n',
      errors: [{ messageId: 'noNumericVersion', severity: 'error', data: { ...M, ignoredDirs: '', example: 'm/1/' } }],
    },
    {
      name: "no version directory and no backend in the config: Triton's backend auto-fill gives up first",
      config: 'max_batch_size: 1\n',
      errors: [
        {
          messageId: 'noVersionDirectoryNoBackend',
          severity: 'error',
          data: {
            ...M,
            ignoredDirs: '',
            message:
              "Invalid model name: Could not determine backend for model 'm' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.",
          },
        },
      ],
    },
    {
      name: 'no numbered version directory and no backend, beside an ignored one',
      files: { 'm/config.pbtxt': 'max_batch_size: 1\n', 'm/v1/notes.txt': 'x' },
      errors: [
        { messageId: 'notAVersion', severity: 'warning', data: { ...M, dirName: 'v1' } },
        { messageId: 'noVersionDirectoryNoBackendIgnored', severity: 'error', data: { ...M, ignoredDirs: "'v1'" } },
      ],
    },
    {
      name: 'leading zeros and names without a number are ignored, with a warning naming the directory',
      files: { 'm/config.pbtxt': ORT, 'm/01/model.onnx': ONNX, 'm/v2/model.onnx': ONNX },
      errors: [
        {
          messageId: 'notAVersionLeadingZero',
          severity: 'warning',
          data: { ...M, dirName: '01', rename: '1', ignored: "ignore version directory '01' which contains leading zeros in its directory name" },
        },
        {
          messageId: 'notAVersion',
          severity: 'warning',
          data: { ...M, dirName: 'v2', ignored: "ignore version directory 'v2' which fails to convert to integral number" },
        },
        { messageId: 'noNumericVersionIgnored', severity: 'error', data: { ...M, ignoredDirs: "'01', 'v2'", example: 'm/1/model.onnx' } },
      ],
    },
    {
      name: 'a directory without digits beside real versions is only info',
      files: { 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'm/assets/vocab.txt': 'a' },
      errors: [{ messageId: 'notAVersion', severity: 'info', data: { ...M, dirName: 'assets' } }],
    },
    {
      name: 'a numeric prefix counts: 2_old is version 2, and the backend opens 2/',
      files: { 'm/config.pbtxt': ORT, 'm/2_old/model.onnx': ONNX },
      errors: [
        { messageId: 'readAsVersion', severity: 'warning', data: { ...M, dirName: '2_old', version: 2 } },
        {
          messageId: 'renamedVersionWithoutModelFile',
          severity: 'error',
          data: { ...M, dirName: '2_old', version: 2, path: `${MEMORY_ROOT}/m/2/model.onnx`, artifact: 'model.onnx' },
        },
      ],
    },
    {
      name: 'a numeric prefix beside the plain number: never read',
      files: { 'm/config.pbtxt': ORT, 'm/2/model.onnx': ONNX, 'm/2_old/model.onnx': ONNX },
      errors: [{ messageId: 'readAsVersionShadowed', severity: 'warning', data: { ...M, dirName: '2_old', version: 2 } }],
    },
    {
      name: 'latest { num_versions: 0 } selects nothing: on the 0',
      files: { 'm/config.pbtxt': `${ORT}version_policy { latest { num_versions: 0 } }\n`, 'm/1/model.onnx': ONNX },
      errors: [{ messageId: 'policyLatestSelectsNone', line: 2, token: '0', data: { ...M, have: '1', numVersions: 0 } }],
    },
    {
      name: 'specific versions, none of which exists: an error',
      files: { 'm/config.pbtxt': `${ORT}version_policy { specific { versions: [2, 3] } }\n`, 'm/1/model.onnx': ONNX },
      errors: [{ messageId: 'policyListsMissing', severity: 'error', token: '2', data: { ...M, have: '1', listed: '2, 3' } }],
    },
    {
      name: 'specific versions listing none',
      files: { 'm/config.pbtxt': `${ORT}version_policy { specific { } }\n`, 'm/1/model.onnx': ONNX },
      errors: [{ messageId: 'policyListsNone', severity: 'error', path: ['version_policy', 'specific'], data: { ...M, have: '1' } }],
    },
    {
      name: 'specific versions, some missing: a warning per missing one',
      files: { 'm/config.pbtxt': `${ORT}version_policy { specific { versions: [1, 3] } }\n`, 'm/1/model.onnx': ONNX },
      errors: [{ messageId: 'listedVersionMissing', severity: 'warning', token: '3', data: { ...M, version: 3, have: '1' } }],
    },
    {
      name: 'a selected version without the model file, suggesting the .onnx that is there',
      files: { 'm/config.pbtxt': `${ORT}version_policy { all { } }\n`, 'm/1/model.onnx': ONNX, 'm/2/resnet50.onnx': ONNX },
      errors: [
        {
          messageId: 'versionWithOtherModelFile',
          data: { ...M, version: 2, path: `${MEMORY_ROOT}/m/2/model.onnx`, other: 'resnet50.onnx', artifact: 'model.onnx' },
        },
      ],
    },
    {
      name: 'a renamed version without the model file, holding another .onnx',
      files: { 'm/config.pbtxt': ORT, 'm/3_new/resnet50.onnx': ONNX },
      errors: [
        { messageId: 'readAsVersion', data: { ...M, dirName: '3_new', version: 3 } },
        { messageId: 'renamedVersionWithOtherModelFile', data: { ...M, dirName: '3_new', version: 3, other: 'resnet50.onnx' } },
      ],
    },
    {
      name: 'a custom default_model_filename that is missing: on its value',
      files: { 'm/config.pbtxt': `${ORT}default_model_filename: "model_fp16.onnx"\n`, 'm/1/model.onnx': ONNX },
      errors: [
        {
          messageId: 'versionWithOtherModelFile',
          line: 2,
          token: '"model_fp16.onnx"',
          data: { ...M, version: 1, artifact: 'model_fp16.onnx', other: 'model.onnx' },
        },
      ],
    },
    {
      name: 'a version directory without the model file',
      files: { 'm/config.pbtxt': ORT, 'm/1/': '' },
      errors: [
        {
          messageId: 'versionWithoutModelFile',
          severity: 'error',
          line: 1,
          path: [],
          data: { ...M, version: 1, path: `${MEMORY_ROOT}/m/1/model.onnx`, artifact: 'model.onnx' },
        },
      ],
    },
    {
      name: 'an ensemble needs a version directory too',
      targets: ['e'],
      files: { 'e/config.pbtxt': 'platform: "ensemble"\n' },
      errors: [{ messageId: 'ensembleNoVersion', data: { model: 'e', example: 'e/1/' } }],
    },
    {
      name: 'an ensemble whose only directory is ignored',
      targets: ['e'],
      files: { 'e/config.pbtxt': 'platform: "ensemble"\n', 'e/01/': '' },
      errors: [
        { messageId: 'notAVersionLeadingZero', data: { model: 'e', dirName: '01' } },
        { messageId: 'ensembleNoVersionIgnored', data: { model: 'e', ignoredDirs: "'01'" } },
      ],
    },
    {
      name: "the tutorials' Data_Pipelines layout: a config inside a version directory, the model's own missing",
      targets: ['ens'],
      files: { 'ens/1/config.pbtxt': ENSEMBLE },
      errors: [{ messageId: 'configOnlyInVersionDir', severity: 'error', line: 1, file: 'ens/1/config.pbtxt', data: { model: 'ens', dirName: '1' } }],
    },
    {
      name: "a config inside a version directory beside the model's own: a stray copy",
      targets: ['ens'],
      files: { 'ens/config.pbtxt': ENSEMBLE, 'ens/1/config.pbtxt': ENSEMBLE },
      errors: [{ messageId: 'configInVersionDir', severity: 'warning', line: 1, file: 'ens/1/config.pbtxt', data: { model: 'ens', dirName: '1' } }],
    },
  ],
});

describe('version-dirs on disk', () => {
  it('a config linted from memory is laid over the disk: the version directories on disk count', async () => {
    const dir = await writeRepo({ 'm/1/model.onnx': ONNX });
    const result = lintText(ORT, { file: join(dir, 'm', 'config.pbtxt'), rules: [versionDirs] });
    expect(result.errorCount + result.warningCount).toBe(0);
  });

  it('a config linted from memory where the disk has no model directory: the same finding as that file alone on disk', () => {
    const result = lintText(ORT, { file: '/nonexistent/m/config.pbtxt', rules: [versionDirs] });
    expect(result.results[0]!.diagnostics.map((d) => [d.messageId, d.data?.model])).toEqual([['noNumericVersion', 'm']]);
  });

  it('is the version\'s stray config, said on that file: move it one level up; no model named "1" is invented', async () => {
    const files = { 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'ens/1/config.pbtxt': ENSEMBLE };
    const dir = await writeRepo(files);
    const result = lintDir(dir, ['.'], { rules: [versionDirs] });
    const f = result.results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === RULE);
    expect(f.map((d) => [d.file.slice(dir.length + 1), d.messageId, d.severity, d.range.start.line])).toEqual([
      ['ens/1/config.pbtxt', 'configOnlyInVersionDir', 'error', 1],
    ]);
    // Linted whole, no file is taken for a model named '1'.
    expect(result.results.map((r) => r.filePath.slice(dir.length + 1)).sort()).toEqual(['ens/1/config.pbtxt', 'ens/config.pbtxt', 'm/config.pbtxt']);
    // The staged file alone (pre-commit) gives the same finding.
    const staged = lintDir(dir, ['ens/1/config.pbtxt'], { rules: [versionDirs] });
    expect(staged.results.flatMap((r) => r.diagnostics).filter((d) => d.messageId === 'configOnlyInVersionDir')).toHaveLength(1);
  });

  it("beside the model's own config it is a stray copy (a warning); a model named 1 with versions of its own is a model", async () => {
    const dir = await writeRepo({
      'repo/ens/config.pbtxt': ENSEMBLE,
      'repo/ens/1/config.pbtxt': ENSEMBLE,
      'repo/m/config.pbtxt': ORT,
      'repo/m/1/model.onnx': ONNX,
    });
    const f = lintDir(dir, ['repo'], { rules: [versionDirs] })
      .results.flatMap((r) => r.diagnostics)
      .filter((d) => d.messageId === 'configInVersionDir');
    expect(f.map((d) => [d.file.slice(dir.length + 1), d.severity])).toEqual([['repo/ens/1/config.pbtxt', 'warning']]);
    // A model named 1, its config beside its own version directory: linted as model 1.
    const named = await writeRepo({ 'repo/1/config.pbtxt': ORT, 'repo/1/1/model.onnx': ONNX });
    const r = lintDir(named, ['repo/1/config.pbtxt'], { rules: [versionDirs] });
    expect(r.results.map((x) => x.filePath.slice(named.length + 1))).toEqual(['repo/1/config.pbtxt']);
    expect(r.results.flatMap((x) => x.diagnostics)).toEqual([]);
  });
});

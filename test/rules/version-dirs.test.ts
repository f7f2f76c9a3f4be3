import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/lint/engine.js';
import { versionDirs } from '../../src/lint/rules/correctness/version-dirs.js';
import { findings, lintDir, writeRepo, type Finding, type RepoFiles } from '../lint/harness.js';

const RULE = 'version-dirs';
const ONNX = new Uint8Array([8, 8]); // only its presence matters here
const ORT = 'platform: "onnxruntime_onnx"\n';

async function lint(files: RepoFiles): Promise<{ dir: string; f: Finding[] }> {
  const dir = await writeRepo(files);
  const result = lintDir(dir, ['.'], { rules: [versionDirs] });
  const texts: Record<string, string> = {};
  for (const name of Object.keys(files)) if (name.endsWith('config.pbtxt')) texts[name] = readFileSync(join(dir, name), 'utf8');
  return { dir, f: findings(result, RULE, dir, texts) };
}

const quoted = (f: Finding): string | undefined => f.message.match(/\("([^"]*)"\)/)?.[1];

describe('version-dirs', () => {
  describe('valid', () => {
    it('version 1 with model.onnx', async () => {
      expect((await lint({ 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX })).f).toEqual([]);
    });

    it('model.onnx as a directory holding model.onnx and its external data', async () => {
      expect((await lint({ 'm/config.pbtxt': ORT, 'm/1/model.onnx/model.onnx': ONNX, 'm/1/model.onnx/weights.bin': ONNX })).f).toEqual([]);
    });

    it('default_model_filename, and a backend found from the file alone', async () => {
      expect((await lint({ 'm/config.pbtxt': `${ORT}default_model_filename: "resnet.onnx"\n`, 'm/1/resnet.onnx': ONNX })).f).toEqual([]);
      expect((await lint({ 'm/config.pbtxt': 'max_batch_size: 8\n', 'm/3/model.onnx': ONNX })).f).toEqual([]);
    });

    it('an ensemble with an empty version directory, and a Python model', async () => {
      expect((await lint({ 'e/config.pbtxt': 'platform: "ensemble"\n', 'e/1/.keep': '' })).f).toEqual([]);
      expect((await lint({ 'p/config.pbtxt': 'backend: "python"\n', 'p/1/model.py': 'pass\n' })).f).toEqual([]);
    });

    it('warmup, initial_state and configs are not version directories', async () => {
      expect((await lint({ 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'm/warmup/x.bin': ONNX, 'm/configs/h100.pbtxt': ORT })).f).toEqual([]);
    });

    it('a config linted from memory is laid over the disk: the version directories on disk count', async () => {
      const dir = await writeRepo({ 'm/1/model.onnx': ONNX });
      const result = lintText(ORT, { file: join(dir, 'm', 'config.pbtxt'), rules: [versionDirs] });
      expect(result.errorCount + result.warningCount).toBe(0);
    });
  });

  describe('invalid', () => {
    it('a config linted from memory where the disk has no model directory: the same finding as that file alone on disk', () => {
      const result = lintText(ORT, { file: '/nonexistent/m/config.pbtxt', rules: [versionDirs] });
      expect(result.results[0]!.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("at least one version must be available under the version policy of model 'm'")]);
    });

    it('no version directory at all: Triton\'s message and where to put the model', async () => {
      const { f } = await lint({ 'm/config.pbtxt': ORT });
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ severity: 'error', line: 1, column: 1 });
      expect(quoted(f[0]!)).toBe("at least one version must be available under the version policy of model 'm'");
      expect(f[0]!.message).toContain('e.g. m/1/model.onnx');
    });

    it('no version directory and no backend in the config: Triton\'s backend auto-fill gives up first', async () => {
      const { f } = await lint({ 'm/config.pbtxt': 'max_batch_size: 1\n' });
      expect(f.map(quoted)).toEqual(["Invalid model name: Could not determine backend for model 'm' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'."]);
      expect(f[0]!.message).toContain('set the backend');
    });

    it('leading zeros and names without a number are ignored, with a warning naming the directory', async () => {
      const { f } = await lint({ 'm/config.pbtxt': ORT, 'm/01/model.onnx': ONNX, 'm/v2/model.onnx': ONNX });
      expect(f.map((x) => [x.severity, quoted(x)])).toEqual([
        ['warning', "ignore version directory '01' which contains leading zeros in its directory name"],
        ['warning', "ignore version directory 'v2' which fails to convert to integral number"],
        ['error', "at least one version must be available under the version policy of model 'm'"],
      ]);
      expect(f[0]!.message).toContain("rename it to '1'");
      expect(f[2]!.message).toContain("(Triton ignores '01', 'v2')");
    });

    it('a directory without digits beside real versions is only info', async () => {
      const { f } = await lint({ 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'm/assets/vocab.txt': 'a' });
      expect(f.map((x) => x.severity)).toEqual(['info']);
    });

    it('a numeric prefix counts: 1_old is version 1, and the backend opens 1/', async () => {
      const { f } = await lint({ 'm/config.pbtxt': ORT, 'm/2_old/model.onnx': ONNX });
      expect(f.map((x) => x.severity)).toEqual(['warning', 'error']);
      expect(f[0]!.message).toContain("directory '2_old' in model 'm' is read as version 2");
      expect(quoted(f[1]!)).toMatch(/^unable to find '.*\/m\/2\/model\.onnx' for model instance 'm'$/);
      expect(f[1]!.message).toContain("(directory '2_old' is version 2, and the backend opens '2/')");
    });

    it('latest { num_versions: 0 } selects nothing: on the 0', async () => {
      const config = `${ORT}version_policy { latest { num_versions: 0 } }\n`;
      const { f } = await lint({ 'm/config.pbtxt': config, 'm/1/model.onnx': ONNX });
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 2, token: '0' });
      expect(quoted(f[0]!)).toBe("at least one version must be available under the version policy of model 'm'");
    });

    it('specific versions: an error when none exists, a warning per missing one otherwise', async () => {
      const none = await lint({ 'm/config.pbtxt': `${ORT}version_policy { specific { versions: [2, 3] } }\n`, 'm/1/model.onnx': ONNX });
      expect(none.f.map((x) => [x.severity, x.token])).toEqual([['error', '2']]);
      expect(none.f[0]!.message).toContain('it lists 2, 3, which have no directory');
      const some = await lint({ 'm/config.pbtxt': `${ORT}version_policy { specific { versions: [1, 3] } }\n`, 'm/1/model.onnx': ONNX });
      expect(some.f.map((x) => [x.severity, x.token, quoted(x)])).toEqual([['warning', '3', "version 3 is specified for model 'm', but the version directory is not present"]]);
    });

    it('a selected version without the model file, suggesting the .onnx that is there', async () => {
      const { f } = await lint({ 'm/config.pbtxt': `${ORT}version_policy { all { } }\n`, 'm/1/model.onnx': ONNX, 'm/2/resnet50.onnx': ONNX });
      expect(f).toHaveLength(1);
      expect(quoted(f[0]!)).toMatch(/^unable to find '.*\/m\/2\/model\.onnx' for model instance 'm'$/);
      expect(f[0]!.message).toContain(`rename it to 'model.onnx', or set default_model_filename: "resnet50.onnx"`);
    });

    it('a custom default_model_filename that is missing: on its value', async () => {
      const config = `${ORT}default_model_filename: "model_fp16.onnx"\n`;
      const { f } = await lint({ 'm/config.pbtxt': config, 'm/1/model.onnx': ONNX });
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 2, token: '"model_fp16.onnx"' });
    });

    it('an ensemble needs a version directory too', async () => {
      const { f } = await lint({ 'e/config.pbtxt': 'platform: "ensemble"\n' });
      expect(f).toHaveLength(1);
      expect(f[0]!.message).toContain('an ensemble needs an empty version directory');
    });
  });

  describe('a config.pbtxt inside a version directory (the tutorials\' Data_Pipelines layout)', () => {
    const ENSEMBLE = 'name: "ens"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 3 ] } ]\nensemble_scheduling { step [ { model_name: "m" model_version: -1 input_map { key: "x" value: "IN" } output_map { key: "y" value: "OUT" } } ] }\n';

    it('is the version\'s stray config, said on that file: move it one level up; no model named "1" is invented', async () => {
      const files = { 'm/config.pbtxt': ORT, 'm/1/model.onnx': ONNX, 'ens/1/config.pbtxt': ENSEMBLE };
      const dir = await writeRepo(files);
      const result = lintDir(dir, ['.'], { rules: [versionDirs] });
      const f = result.results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === RULE);
      expect(f.map((d) => [d.file.slice(dir.length + 1), d.messageId, d.severity, d.range.start.line])).toEqual([['ens/1/config.pbtxt', 'configInVersionDir', 'error', 1]]);
      expect(f[0]!.message).toContain('move this file one level up, to ens/config.pbtxt');
      // Linted whole, no file is taken for a model named '1'.
      expect(result.results.map((r) => r.filePath.slice(dir.length + 1)).sort()).toEqual(['ens/1/config.pbtxt', 'ens/config.pbtxt', 'm/config.pbtxt']);
      // The staged file alone (pre-commit) gives the same finding.
      const staged = lintDir(dir, ['ens/1/config.pbtxt'], { rules: [versionDirs] });
      expect(staged.results.flatMap((r) => r.diagnostics).filter((d) => d.messageId === 'configInVersionDir')).toHaveLength(1);
    });

    it('beside the model\'s own config it is a stray copy (a warning); a model named 1 with versions of its own is a model', async () => {
      const dir = await writeRepo({ 'repo/ens/config.pbtxt': ENSEMBLE, 'repo/ens/1/config.pbtxt': ENSEMBLE, 'repo/m/config.pbtxt': ORT, 'repo/m/1/model.onnx': ONNX });
      const f = lintDir(dir, ['repo'], { rules: [versionDirs] }).results.flatMap((r) => r.diagnostics).filter((d) => d.messageId === 'configInVersionDir');
      expect(f.map((d) => [d.file.slice(dir.length + 1), d.severity])).toEqual([['repo/ens/1/config.pbtxt', 'warning']]);
      // A model named 1, its config beside its own version directory: linted as model 1.
      const named = await writeRepo({ 'repo/1/config.pbtxt': ORT, 'repo/1/1/model.onnx': ONNX });
      const r = lintDir(named, ['repo/1/config.pbtxt'], { rules: [versionDirs] });
      expect(r.results.map((x) => x.filePath.slice(named.length + 1))).toEqual(['repo/1/config.pbtxt']);
      expect(r.results.flatMap((x) => x.diagnostics)).toEqual([]);
    });
  });
});

// Lint under the server's command line: what auto-complete, --backend-config and several
// --model-repository paths change in Triton's verdict, from the settings file and from the flags.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { parseBackendConfig } from '../../src/triton/server-options.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const errorsOf = (dir: string, paths: string[], options: Parameters<typeof lintSync>[1] = {}) =>
  lintSync(paths, { cwd: dir, rules: RULES, ...options }).results.flatMap((r) => r.diagnostics.map((d) => ({ ...d, file: d.file.slice(dir.length + 1) })));

/** A TensorRT model whose config leaves dims and data_type to the backend (qa autofill_noplatform_success). */
const PARTIAL_PLAN =
  'platform: "tensorrt_plan"\nmax_batch_size: 8\ninput [ { name: "INPUT0" } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n';

describe("auto-complete on (Triton's default) and off", () => {
  it('what a backend fills in is not an error with auto-complete on; it is with --disable-auto-complete-config', async () => {
    const dir = await writeRepo({ 'plan/config.pbtxt': PARTIAL_PLAN, 'plan/1/model.plan': 'engine' });
    const on = errorsOf(dir, ['.']).filter((d) => d.ruleId === 'io-dims');
    expect(on.map((d) => [d.messageId, d.severity])).toEqual([
      ['noDataTypeUnlessCompleted', 'warning'],
      ['noDimsUnlessCompleted', 'warning'],
    ]);
    const off = errorsOf(dir, ['.'], { server: { autoCompleteConfig: false } }).filter((d) => d.ruleId === 'io-dims');
    expect(off.map((d) => [d.messageId, d.severity])).toEqual([
      ['noDataType', 'error'],
      ['noDims', 'error'],
    ]);
    expect(off[0]!.message).toContain("must specify 'data_type' for plan");
  });

  it('an ONNX config listing no inputs is completed from the model, unless the server does not auto-complete', async () => {
    const config = 'backend: "onnxruntime"\nmax_batch_size: 8\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
    const dir = await writeRepo({ 'classifier/config.pbtxt': config, 'classifier/1/model.onnx': CLASSIFIER });
    expect(errorsOf(dir, ['.']).filter((d) => d.severity === 'error')).toEqual([]);
    const off = errorsOf(dir, ['.'], { server: { autoCompleteConfig: false } }).filter((d) => d.ruleId === 'io-name');
    expect(off.map((d) => d.message)).toEqual([expect.stringContaining('configuration expects 0 inputs, model provides 1')]);
  });

  it('the settings file says it as the command line does', async () => {
    const dir = await writeRepo({
      'plan/config.pbtxt': PARTIAL_PLAN,
      'plan/1/model.plan': 'engine',
      'tritonc.config.json': '{ "server": { "strictModelConfig": true } }',
    });
    expect(
      errorsOf(dir, ['.'])
        .filter((d) => d.ruleId === 'io-dims')
        .map((d) => d.severity),
    ).toEqual(['error', 'error']);
    // The command line wins over the file.
    expect(
      errorsOf(dir, ['.'], { server: { autoCompleteConfig: true } })
        .filter((d) => d.ruleId === 'io-dims')
        .map((d) => d.severity),
    ).toEqual(['warning', 'warning']);
  });
});

describe('--backend-config', () => {
  it('default-max-batch-size is what auto-complete writes for max_batch_size 0', async () => {
    const config = 'backend: "onnxruntime"\nmax_batch_size: 0\n';
    const dir = await writeRepo({ 'classifier/config.pbtxt': config, 'classifier/1/model.onnx': CLASSIFIER });
    const message = (options = {}) => errorsOf(dir, ['.'], options).find((d) => d.ruleId === 'autocomplete-surprises')?.message;
    expect(message()).toMatch(/^max_batch_size: 0 is replaced by 4:/);
    expect(message({ server: { backendConfig: [parseBackendConfig('onnxruntime,default-max-batch-size=16')] } })).toMatch(
      /^max_batch_size: 0 is replaced by 16:/,
    );
    // Without auto-complete nothing replaces it.
    expect(message({ server: { autoCompleteConfig: false } })).toBeUndefined();
  });
});

describe("tritonserver's --flag=value spelling, in any position", () => {
  it('--backend-config=... before the path leaves the path a path (lint, resolve), and repeats', async () => {
    const config = 'backend: "onnxruntime"\nmax_batch_size: 0\n';
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': config, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const before = await cli(['lint', '--backend-config=onnxruntime,default-max-batch-size=16', 'repo', '-f', 'json'], { cwd: dir });
    expect(before.stderr).toBe('');
    expect(before.stdout).toContain('max_batch_size: 0 is replaced by 16');
    const after = await cli(['lint', 'repo', '--backend-config=onnxruntime,default-max-batch-size=16', '-f', 'json'], { cwd: dir });
    expect(after.stdout).toBe(before.stdout);
    const twice = await cli(
      ['lint', '--backend-config', 'onnxruntime,default-max-batch-size=8', '--backend-config=onnxruntime,default-max-batch-size=16', 'repo', '-f', 'json'],
      { cwd: dir },
    );
    expect(twice.stdout).toContain('max_batch_size: 0 is replaced by 16');
    const resolved = await cli(['resolve', '--backend-config=onnxruntime,default-max-batch-size=16', 'repo/classifier'], { cwd: dir });
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toContain('max_batch_size: 16');
    expect((await cli(['lint', '--rule=autocomplete-surprises=off', 'repo', '-f', 'json'], { cwd: dir })).stdout).not.toContain('is replaced by');
  });
});

describe('models without a config', () => {
  const NO_BATCH = { inputs: [['input', 'FLOAT', [1, 3, 224, 224]]], outputs: [['output', 'FLOAT', [1, 1000]]] } as typeof CLASSIFIER;

  it('a repository of ONNX models alone is linted as Triton auto-completes it, findings at the config.pbtxt Triton reads', async () => {
    const dir = await writeRepo({ 'repo/good/1/model.onnx': CLASSIFIER, 'repo/fixed/1/model.onnx': NO_BATCH, 'repo/notes/1/readme.txt': 'not a model' });
    const found = errorsOf(dir, ['repo']);
    const files = [...new Set(found.map((d) => d.file))].sort();
    // 'notes' holds no file a backend loads, so it is not taken for a model.
    expect(files.every((f) => f === 'repo/good/config.pbtxt' || f === 'repo/fixed/config.pbtxt')).toBe(true);
    const fixed = found.filter((d) => d.ruleId === 'missing-dynamic-axis');
    expect(fixed.map((d) => [d.file, d.range.start.line, d.messageId])).toEqual([['repo/fixed/config.pbtxt', 1, 'fixedBatchOfOne']]);
    // A file that does not exist cannot be edited: no fix.
    expect(found.every((d) => d.fix === undefined)).toBe(true);
    expect(found.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('with --disable-auto-complete-config each is refused, and nothing else is said of it', async () => {
    const dir = await writeRepo({ 'repo/good/1/model.onnx': CLASSIFIER, 'repo/fixed/1/model.onnx': NO_BATCH });
    const found = errorsOf(dir, ['repo'], { server: { autoCompleteConfig: false } }).filter((d) => d.ruleId !== 'instance-memory');
    expect(found.map((d) => [d.file, d.ruleId, d.severity])).toEqual([
      ['repo/fixed/config.pbtxt', 'missing-config', 'error'],
      ['repo/good/config.pbtxt', 'missing-config', 'error'],
    ]);
    expect(found[0]!.message).toContain(`failed to open text file for read ${dir}/repo/fixed/config.pbtxt: No such file or directory`);
  });

  it('an ensemble may run a model that has no config', async () => {
    const ensemble = `name: "pipe"\nplatform: "ensemble"\nmax_batch_size: 4\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n`;
    const dir = await writeRepo({ 'repo/pipe/config.pbtxt': ensemble, 'repo/pipe/1/.keep': '', 'repo/classifier/1/model.onnx': CLASSIFIER });
    expect(errorsOf(dir, ['repo']).filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('several --model-repository paths: one server', () => {
  const ENSEMBLE = `name: "pipe"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUTX" } } ] }\n`;

  it('an ensemble runs models of the other repositories, and is checked against them', async () => {
    const dir = await writeRepo({
      'ensembles/pipe/config.pbtxt': ENSEMBLE,
      'ensembles/pipe/1/.keep': '',
      'models/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'models/classifier/1/model.onnx': CLASSIFIER,
    });
    const alone = errorsOf(dir, ['ensembles']).filter((d) => d.ruleId === 'ensemble-models');
    expect(alone.map((d) => d.messageId)).toEqual(['stepModelMissing']);
    const served = errorsOf(dir, [], { server: { modelRepositories: [join(dir, 'ensembles'), join(dir, 'models')] } }).filter((d) =>
      d.ruleId.startsWith('ensemble'),
    );
    // Found now, so the mapping is checked: output_map's key is an output of the classifier, but OUTX is not an ensemble output.
    expect(served.map((d) => d.messageId)).not.toContain('stepModelMissing');
    expect(served.map((d) => d.ruleId)).toContain('ensemble-config');
  });

  it('a model name in two repositories is loaded from neither', async () => {
    const ok = ENSEMBLE.replace('"OUTX"', '"OUT"');
    const dir = await writeRepo({
      'a/pipe/config.pbtxt': ok,
      'a/pipe/1/.keep': '',
      'a/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'a/classifier/1/model.onnx': CLASSIFIER,
      'b/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'b/classifier/1/model.onnx': CLASSIFIER,
    });
    const repos = [join(dir, 'a'), join(dir, 'b')];
    const found = errorsOf(dir, [], { server: { modelRepositories: repos } }).filter((d) => d.ruleId === 'ensemble-models');
    expect(found.map((d) => d.messageId)).toEqual(['stepModelAmbiguous']);
    expect(found[0]!.message).toContain("which is not unique across the server's repositories");
    expect(errorsOf(dir, ['a']).filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('the command line', () => {
  it("takes Triton's flags, and refuses a bad one with exit 2 and Triton's message", async () => {
    const dir = await writeRepo({ 'plan/config.pbtxt': PARTIAL_PLAN, 'plan/1/model.plan': 'engine' });
    expect((await cli(['lint', '.'], { cwd: dir })).code).toBe(0);
    const strict = await cli(['lint', '.', '--disable-auto-complete-config', '--format', 'json'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(
      JSON.parse(strict.stdout)[0]
        .messages.filter((m: { severity: number }) => m.severity === 2)
        .map((m: { messageId: string }) => m.messageId),
    ).toEqual(['noDataType', 'noDims']);
    expect((await cli(['lint', '.', '--strict-model-config'], { cwd: dir })).code).toBe(1);
    expect((await cli(['lint', '.', '--strict-model-config=false'], { cwd: dir })).code).toBe(0);
    const bad = await cli(['lint', '.', '--backend-config=onnxruntime,default-max-batch-size'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--backend-config option format is '<backend name>,<setting>=<value>'. Got onnxruntime,default-max-batch-size");
    expect((await cli(['lint', '.', '--strict-model-config=maybe'], { cwd: dir })).stderr).toContain('invalid value for bool option: maybe');
  });

  it('--model-repository with no paths lints those repositories', async () => {
    const dir = await writeRepo({
      'a/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'a/classifier/1/model.onnx': CLASSIFIER,
      'b/x/config.pbtxt': 'max_batch_size: -1\n',
    });
    const r = await cli(['lint', '--model-repository', 'a', '--model-store', 'b', '--format', 'json'], { cwd: dir });
    expect(
      JSON.parse(r.stdout)
        .map((f: { filePath: string }) => f.filePath.slice(dir.length + 1))
        .sort(),
    ).toEqual(['a/classifier/config.pbtxt', 'b/x/config.pbtxt']);
    expect(r.code).toBe(1);
  });

  it('a settings file with a bad server value names the key', async () => {
    const dir = await writeRepo({ 'plan/config.pbtxt': PARTIAL_PLAN, 'plan/1/model.plan': 'engine' });
    writeFileSync(join(dir, 'tritonc.config.json'), '{ "server": { "backendConfig": ["onnxruntime"], "disableAutoComplete": true } }');
    const r = await cli(['lint', '.'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('server.backendConfig[0]');
    expect(r.stderr).toContain("unknown key 'disableAutoComplete' (did you mean 'disableAutoCompleteConfig'?)");
  });
});

describe('resolve, generate and verify take the same flags', () => {
  it("resolve: the effective config under the server's flags; the settings file's server block applies", async () => {
    const dir = await writeRepo({ 'repo/classifier/1/model.onnx': CLASSIFIER });
    const plain = await cli(['resolve', 'repo/classifier'], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('max_batch_size: 4');
    const wider = await cli(['resolve', 'repo/classifier', '--backend-config=onnxruntime,default-max-batch-size=32'], { cwd: dir });
    expect(wider.stdout).toContain('max_batch_size: 32');
    const strict = await cli(['resolve', 'repo/classifier', '--disable-auto-complete-config'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`failed to open text file for read ${dir}/repo/classifier/config.pbtxt: No such file or directory`);
    writeFileSync(join(dir, 'repo', 'tritonc.config.json'), '{ "server": { "backendConfig": ["default-max-batch-size=2"] } }');
    expect((await cli(['resolve', 'repo/classifier'], { cwd: dir })).stdout).toContain('max_batch_size: 2');
    // The command line wins.
    expect(
      (await cli(['resolve', 'repo/classifier', '--strict-model-config=false', '--backend-config=onnxruntime,default-max-batch-size=8'], { cwd: dir })).stdout,
    ).toContain('max_batch_size: 8');
  });

  it("generate: the server's default-max-batch-size is the default, recorded so that --check reproduces it", async () => {
    const dir = await writeRepo({ 'repo/classifier/1/model.onnx': CLASSIFIER });
    const w = await cli(['generate', 'repo/classifier', '--backend-config=onnxruntime,default-max-batch-size=16', '--write'], { cwd: dir });
    expect(w.code).toBe(0);
    const text = readFileSync(join(dir, 'repo/classifier/config.pbtxt'), 'utf8');
    expect(text).toContain('max_batch_size: 16');
    expect(text).toContain('with: tritonc generate --backend-config onnxruntime,default-max-batch-size=16');
    expect((await cli(['generate', '--check', 'repo/classifier'], { cwd: dir })).code).toBe(0);
  });

  it('verify: docker passes them to tritonserver; the other runtimes refuse them', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const dry = await cli(
      [
        'verify',
        'repo/classifier',
        '--runtime',
        'docker',
        '--dry-run',
        '--format',
        'json',
        '--disable-auto-complete-config',
        '--backend-config=onnxruntime,default-max-batch-size=8',
      ],
      { cwd: dir },
    );
    expect(dry.code).toBe(0);
    const command: string[] = JSON.parse(dry.stdout).command;
    expect(command.slice(command.indexOf('tritonserver'))).toEqual(
      expect.arrayContaining(['--disable-auto-complete-config', '--backend-config=onnxruntime,default-max-batch-size=8']),
    );
    const ort = await cli(['verify', 'repo/classifier', '--disable-auto-complete-config'], { cwd: dir });
    expect([ort.code, ort.stderr]).toEqual([2, expect.stringContaining('apply to --runtime docker')]);
  });
});

describe('--backend-directory: the backends the server has', () => {
  it('lint: a backend with no library there is refused as core refuses it; the settings file says it relative to itself', async () => {
    const dir = await writeRepo({
      'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'repo/classifier/1/model.onnx': CLASSIFIER,
      'backends/python/libtriton_python.so': '',
    });
    const r = await cli(['lint', 'repo', '--backend-directory', 'backends', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const found = JSON.parse(r.stdout)[0].messages.filter((m: { ruleId: string }) => m.ruleId === 'backend-library');
    expect(found.map((m: { messageId: string; message: string }) => [m.messageId, m.message])).toEqual([
      ['noLibraryForBackend', expect.stringContaining(`no libtriton_onnxruntime.so in ${dir}/backends/onnxruntime`)],
    ]);
    // Without the flag nothing is known, so nothing is said; installed, clean.
    expect((await cli(['lint', 'repo'], { cwd: dir })).code).toBe(0);
    mkdirSync(join(dir, 'backends', 'onnxruntime'));
    writeFileSync(join(dir, 'backends', 'onnxruntime', 'libtriton_onnxruntime.so'), '');
    expect((await cli(['lint', 'repo', '--backend-directory', 'backends'], { cwd: dir })).code).toBe(0);
    rmSync(join(dir, 'backends', 'onnxruntime'), { recursive: true });
    writeFileSync(join(dir, 'repo', 'tritonc.config.json'), '{ "server": { "backendDirectory": "../backends" } }');
    expect((await cli(['lint', 'repo'], { cwd: dir })).code).toBe(1);
  });

  it('a directory that is not there is exit 2, not every model refused', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const r = await cli(['lint', 'repo', '--backend-directory', '/opt/tritonserver/backendz'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--backend-directory /opt/tritonserver/backendz: no such directory here')]);
  });

  it('verify: the local tritonserver gets it last (tritonserver takes the last one given); docker and ort refuse it', async () => {
    const dir = await writeRepo({
      'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'repo/classifier/1/model.onnx': CLASSIFIER,
      'backends/onnxruntime/libtriton_onnxruntime.so': '',
      'bin/tritonserver': '#!/bin/sh\nexit 1\n',
    });
    chmodSync(join(dir, 'bin/tritonserver'), 0o755);
    const dry = await cli(
      [
        'verify',
        'repo/classifier',
        '--runtime',
        'local',
        '--tritonserver',
        join(dir, 'bin/tritonserver'),
        '--dry-run',
        '--format',
        'json',
        '--backend-directory',
        'backends',
      ],
      { cwd: dir },
    );
    expect(dry.code).toBe(0);
    const command: string[] = JSON.parse(dry.stdout).command;
    expect(command.at(-1)).toBe(`--backend-directory=${dir}/backends`);
    for (const runtime of ['docker', 'ort']) {
      const r = await cli(['verify', 'repo/classifier', '--runtime', runtime, '--backend-directory', 'backends'], { cwd: dir });
      expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('--backend-directory applies to --runtime local')]);
    }
  });
});

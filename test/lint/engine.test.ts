import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync, lintText } from '../../src/lint/engine.js';
import { LintInputError } from '../../src/lint/errors.js';
import { DEFAULT_SETTINGS, SettingsError, type LintSettings } from '../../src/lint/settings.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, OWN_RULES, findings, lintDir, ruleIds, writeRepo } from './harness.js';

const BAD_DIMS = CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]');
const SLOW = 'max_batch_size: 8\ndynamic_batching { max_queue_delay_microseconds: 50000 }\n';
const files = (result: ReturnType<typeof lintSync>, dir: string) => result.results.map((r) => r.filePath.slice(dir.length + 1));

describe('lint engine: what gets linted', () => {
  it('a repository: every model, config.pbtxt and configs/*.pbtxt, each against its model', async () => {
    const dir = await writeRepo({
      'models/a/config.pbtxt': CLASSIFIER_CONFIG,
      'models/a/configs/h100.pbtxt': BAD_DIMS,
      'models/a/1/model.onnx': CLASSIFIER,
      'models/b/config.pbtxt': BAD_DIMS,
      'models/b/1/model.onnx': CLASSIFIER,
      'README.md': '# not a model',
    });
    const result = lintDir(dir, ['.']);
    expect(files(result, dir)).toEqual(['models/a/config.pbtxt', 'models/a/configs/h100.pbtxt', 'models/b/config.pbtxt']);
    expect(findings(result, 'batch-dim-in-dims', dir).map((f) => f.file)).toEqual(['models/a/configs/h100.pbtxt', 'models/b/config.pbtxt']);
    expect(lintDir(dir, ['models']).results).toHaveLength(3);
    expect(lintDir(join(dir, 'models'), ['b']).results).toHaveLength(1);
  });

  it('files as pre-commit passes them: configs alone, model files map to their model dir once', async () => {
    const dir = await writeRepo({
      'a/config.pbtxt': CLASSIFIER_CONFIG,
      'a/configs/t4.pbtxt': SLOW,
      'a/1/model.onnx': CLASSIFIER,
      'b/config.pbtxt': BAD_DIMS,
      'b/2/model.onnx/model.onnx': CLASSIFIER,
    });
    expect(files(lintDir(dir, ['a/configs/t4.pbtxt']), dir)).toEqual(['a/configs/t4.pbtxt']);
    const r = lintDir(dir, ['a/1/model.onnx', 'a/config.pbtxt', 'b/2/model.onnx/model.onnx']);
    expect(files(r, dir)).toEqual(['a/config.pbtxt', 'a/configs/t4.pbtxt', 'b/config.pbtxt']);
    // b's model lives in a directory named model.onnx (ORT's LoadModel opens model.onnx in it) and is still read:
    expect(findings(r, 'batch-dim-in-dims', dir).map((f) => f.file)).toEqual(['b/config.pbtxt']);
  });

  it('reads the model of the latest version the policy selects, not an older one', async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': BAD_DIMS,
      'm/1/model.onnx': new Uint8Array([1, 2, 3]),
      'm/2/model.onnx': CLASSIFIER,
    });
    expect(ruleIds(lintDir(dir))).toEqual(['batch-dim-in-dims', 'instance-memory']);
    writeFileSync(join(dir, 'm/config.pbtxt'), `${BAD_DIMS}version_policy { specific { versions: [ 1 ] } }\n`);
    expect(ruleIds(lintDir(dir))).toContain('model-unreadable');
  });

  it('a corrupt model is a finding in the model file, never a crash; a config-less model named on the command line too', async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': CLASSIFIER_CONFIG,
      'm/1/model.onnx': new Uint8Array([0x0a, 0xff, 0xff, 0xff]),
      'n/1/model.onnx': new Uint8Array([0x0a, 0x05]),
    });
    const r = lintDir(dir, ['m', 'n/1/model.onnx']);
    expect(findings(r, 'model-unreadable', dir).map((f) => f.file)).toEqual(['m/1/model.onnx', 'n/1/model.onnx']);
    expect(r.errorCount).toBe(2);
  });

  it('no model file: model rules are skipped, the rest still run', async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': `${BAD_DIMS}dynamic_batching { max_queue_delay_microseconds: 50000 }\n`.replace('dynamic_batching { }\n', ''),
    });
    expect(ruleIds(lintDir(dir))).toEqual(['instance-memory', 'queue-delay']);
  });

  it('non-ONNX models are not read as ONNX', async () => {
    const dir = await writeRepo({ 'm/config.pbtxt': BAD_DIMS.replace('onnxruntime_onnx', 'tensorrt_plan'), 'm/1/model.plan': 'engine bytes' });
    expect(ruleIds(lintDir(dir))).toEqual(['instance-memory']);
  });

  it('exit-2 input: missing paths, files that are not configs or models, nothing to lint, unreadable configs', async () => {
    const dir = await writeRepo({ 'notes.txt': 'x', 'empty/.keep': '' });
    expect(() => lintDir(dir, ['nope'])).toThrow(new LintInputError('nope: no such file or directory', 'missing'));
    expect(() => lintDir(dir, ['notes.txt'])).toThrow(/notes.txt: not a config/);
    expect(() => lintDir(dir, ['empty'])).toThrow(/no config.pbtxt, configs\/\*.pbtxt or model directory found under empty/);
    if (process.getuid?.() !== 0) {
      const d2 = await writeRepo({ 'm/config.pbtxt': CLASSIFIER_CONFIG });
      chmodSync(join(d2, 'm/config.pbtxt'), 0);
      expect(lintDir(d2).problems[0]!.message).toBe('cannot read: permission denied (EACCES)');
    }
    // A config that is not a regular file is not read: a FIFO would block the read forever.
    const d3 = await writeRepo({ 'm/1/.keep': '' });
    execFileSync('mkfifo', [join(d3, 'm/config.pbtxt')]);
    expect(lintDir(d3).problems).toEqual([{ file: join(d3, 'm/config.pbtxt'), message: 'cannot read: not a regular file (a FIFO)' }]);
  });
});

describe('lint engine: settings', () => {
  it('finds tritonc.config.json by walking up from the linted path', async () => {
    const dir = await writeRepo({
      'tritonc.config.json': JSON.stringify({ rules: { 'queue-delay': 'error' } }),
      'repo/m/config.pbtxt': SLOW,
    });
    const [f] = findings(lintDir(join(dir, 'repo'), ['m']), 'queue-delay');
    expect(f!.severity).toBe('error');
  });

  it('an explicit settings file wins; --rule levels win over both', async () => {
    const dir = await writeRepo({
      'tritonc.config.json': JSON.stringify({ rules: { 'queue-delay': 'error' } }),
      'other.json': JSON.stringify({ rules: { 'queue-delay': 'off' } }),
      'm/config.pbtxt': SLOW,
    });
    expect(findings(lintDir(dir, ['.'], { settingsFile: 'other.json' }), 'queue-delay')).toEqual([]);
    expect(findings(lintDir(dir, ['.'], { ruleLevels: { 'queue-delay': 'info' } }), 'queue-delay')[0]!.severity).toBe('info');
  });

  it('runs one after another do not share what the settings or flags made of the rules (rule sets are kept only for plain settings)', async () => {
    const dir = await writeRepo({ 'm/config.pbtxt': SLOW });
    const level = (options: Parameters<typeof lintDir>[2] = {}) => findings(lintDir(dir, ['.'], options), 'queue-delay').map((f) => f.severity);
    const quiet: LintSettings = { ...DEFAULT_SETTINGS, rules: { 'queue-delay': { level: 'off' } } };
    const before = level();
    expect(before).toHaveLength(1);
    expect(level({ ruleLevels: { 'queue-delay': 'error' } })).toEqual(['error']);
    expect(level()).toEqual(before);
    expect(level({ settings: quiet })).toEqual([]);
    expect(level()).toEqual(before);
    expect(level({ settings: quiet })).toEqual([]);
    expect(level({ settings: quiet, ruleLevels: { 'queue-delay': 'info' } })).toEqual(['info']);
    expect(level({ settings: quiet })).toEqual([]);
  });

  it('a bad settings file is an error naming the file and the key', async () => {
    const dir = await writeRepo({ 'tritonc.config.json': JSON.stringify({ rules: { 'queue-delay': 'loud' } }), 'm/config.pbtxt': SLOW });
    expect(() => lintDir(dir)).toThrow(SettingsError);
    expect(() => lintDir(dir)).toThrow(
      `${join(dir, 'tritonc.config.json')}: rules.queue-delay: expected one of "off", "info", "warn", "error", or [level, { options }]; got "loud"`,
    );
  });

  it('a configured level shifts every finding of a multi-level rule', async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': 'input { name: "images" data_type: TYPE_FP32 dims: [1,3,32,32] }\n',
      'm/1/model.onnx': { inputs: [['images', 'FLOAT', [1, 3, 32, 32]]], outputs: [['y', 'FLOAT', [1, 3]]] },
    });
    expect(findings(lintDir(dir), 'missing-dynamic-axis')[0]!.severity).toBe('warning');
    expect(findings(lintDir(dir, ['.'], { ruleLevels: { 'missing-dynamic-axis': 'warning' } }), 'missing-dynamic-axis')[0]!.severity).toBe('info');
  });
});

describe('lint engine: suppressions', () => {
  const base = 'name: "m"\nmax_batch_size: 8\n';
  it('next-line, same-line and file-wide directives, with several ids and a reason', async () => {
    const cases: [string, number][] = [
      [`${base}# tritonc-disable-next-line queue-delay -- offline batch job\ndynamic_batching { max_queue_delay_microseconds: 50000 }\n`, 0],
      [`${base}dynamic_batching { max_queue_delay_microseconds: 50000 } # tritonc-disable-line queue-delay\n`, 0],
      [`# tritonc-disable io-shape, queue-delay -- see RUNBOOK.md\n${base}dynamic_batching { max_queue_delay_microseconds: 50000 }\n`, 0],
      [`# tritonc-disable\n${base}dynamic_batching { max_queue_delay_microseconds: 50000 }\n`, 0],
      [`${base}# tritonc-disable-next-line io-shape\ndynamic_batching { max_queue_delay_microseconds: 50000 }\n`, 1],
      [`${base}# tritonc-disable-next-line queue-delay\n\ndynamic_batching { max_queue_delay_microseconds: 50000 }\n`, 1],
    ];
    for (const [text, n] of cases) expect(findings(lintText(text, { file: '/x/m/config.pbtxt', rules: OWN_RULES }), 'queue-delay'), text).toHaveLength(n);
  });

  it('a file-wide directive in the config also covers its model file', async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': `# tritonc-disable model-unreadable -- weights fetched at deploy\n${CLASSIFIER_CONFIG}`,
      'm/1/model.onnx': new Uint8Array([1, 2, 3]),
    });
    expect(findings(lintDir(dir), 'model-unreadable')).toEqual([]);
  });
});

describe('lintText', () => {
  it('lints a config in memory against a given signature', () => {
    const r = lintText(BAD_DIMS, {
      file: '/repo/classifier/config.pbtxt',
      rules: OWN_RULES,
      signature: {
        path: '/repo/classifier/1/model.onnx',
        irVersion: 8,
        producer: { name: '', version: '' },
        opsets: [],
        metadata: [],
        inputs: [{ name: 'input', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', 3, 224, 224] }],
        outputs: [{ name: 'output', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', 1000] }],
        initializers: { count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 },
        batchable: true,
        overridableInitializers: [],
        weightsInline: true,
        externalDataFiles: [],
      },
    });
    expect(ruleIds(r)).toEqual(['batch-dim-in-dims', 'instance-memory']);
    expect(r.results[0]!.filePath).toBe('/repo/classifier/config.pbtxt');
  });
});

describe('lint engine: scale', () => {
  it('lints a repository of 200 models with their ONNX files', async () => {
    const spec: Record<string, string | typeof CLASSIFIER> = {};
    for (let i = 0; i < 200; i++) {
      spec[`m${i}/config.pbtxt`] = CLASSIFIER_CONFIG.replace('classifier', `m${i}`);
      spec[`m${i}/1/model.onnx`] = CLASSIFIER;
    }
    const dir = await writeRepo(spec);
    mkdirSync(join(dir, 'm0', 'configs'));
    const r = lintDir(dir);
    expect(r.results).toHaveLength(200);
    expect(r.errorCount).toBe(0);
  });
});

describe('lint engine: a rule that throws', () => {
  it('becomes an error finding of that rule; the other rules still report', async () => {
    const { defineModelRule } = await import('../../src/lint/rule.js');
    const broken = defineModelRule({
      meta: { id: 'broken', category: 'style', defaultSeverity: 'warning', requiresModel: false, description: 'throws', prevents: [], messages: {} },
      check() {
        throw new Error('boom');
      },
    });
    const r = lintText(SLOW, { file: '/x/m/config.pbtxt', rules: [...OWN_RULES, broken] });
    expect(findings(r, 'broken')[0]!.message).toMatch(/^internal error in rule broken: boom; this is a bug in tritonc/);
    expect(findings(r, 'queue-delay')).toHaveLength(1);
  });
});

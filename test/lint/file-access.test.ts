// One lint run reads the repository once: every directory is listed and every file opened at most
// once, however many parts of the engine and rules ask about them. Counted on the real calls, by
// wrapping node:fs for the duration of the run.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { linkOutNote } from '../../src/repo/find-configs.js';
import { directoryFiles, diskTree, MODEL_DIR_LIMITS } from '../../src/repo/tree.js';
import { RULES } from '../../src/lint/rules/index.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from './harness.js';

type Counted = 'readdirSync' | 'openSync' | 'readFileSync' | 'statSync';

/** Calls per path of the given fs functions while `fn` runs. */
function countCalls(fn: () => void): Map<string, number> {
  const counts = new Map<string, number>();
  const names: Counted[] = ['readdirSync', 'openSync', 'readFileSync', 'statSync'];
  const saved = names.map((n) => [n, fs[n]] as const);
  for (const [name, real] of saved) {
    (fs as unknown as Record<string, unknown>)[name] = (path: unknown, ...rest: unknown[]) => {
      if (typeof path === 'string') counts.set(`${name} ${path}`, (counts.get(`${name} ${path}`) ?? 0) + 1);
      return (real as (...a: unknown[]) => unknown)(path, ...rest);
    };
  }
  const realpath = fs.realpathSync.native;
  fs.realpathSync.native = ((path: string, ...rest: unknown[]) => {
    counts.set(`realpath ${path}`, (counts.get(`realpath ${path}`) ?? 0) + 1);
    return (realpath as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof realpath;
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    for (const [name, real] of saved) (fs as unknown as Record<string, unknown>)[name] = real;
    fs.realpathSync.native = realpath;
    syncBuiltinESMExports();
  }
  return counts;
}

describe('file access of one lint run', () => {
  it('lists each directory and opens each file at most once, with every rule on', async () => {
    const ensemble = `name: "pipeline"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1000 ] } ]\nensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n`;
    const dir = await writeRepo({
      'models/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'models/classifier/1/model.onnx': CLASSIFIER,
      'models/pipeline/config.pbtxt': ensemble,
      'models/pipeline/1/.keep': '',
      'models/noconfig/1/model.onnx': CLASSIFIER,
    });
    let errors = -1;
    const counts = countCalls(() => {
      errors = lintSync([join(dir, 'models')], { cwd: dir, rules: RULES }).errorCount;
    });
    expect(errors).toBeGreaterThanOrEqual(0);
    const listed = [...counts].filter(([k]) => k.startsWith('readdirSync '));
    expect(listed.map(([k]) => k)).toEqual(expect.arrayContaining([`readdirSync ${join(dir, 'models')}`, `readdirSync ${join(dir, 'models', 'classifier')}`]));
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    // What a listing already tells is not asked again: no model directory, nor the config.pbtxt,
    // tritonc.config.json or model file beside it in a listed directory, is looked at on its own
    // (the model file is opened and read, not stat'ed).
    const looked = [...counts.keys()].filter((k) => k.startsWith('statSync ') && k.includes(`${join(dir, 'models')}/`));
    expect(looked).toEqual([]);
    // Only the path given is resolved: no directory under it is a link.
    expect([...counts.keys()].filter((k) => k.startsWith('realpath '))).toEqual([`realpath ${join(dir, 'models')}`]);
  });
});

describe('a lint walks only where Triton reads (issue 42)', () => {
  it('a link to / in a version directory is listed, never walked: a bounded number of listings', async () => {
    const dir = await writeRepo({ 'models/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'models/classifier/1/model.onnx': CLASSIFIER });
    fs.symlinkSync('/', join(dir, 'models', 'classifier', '1', 'root'));
    let errors = -1;
    const counts = countCalls(() => {
      errors = lintSync([join(dir, 'models')], { cwd: dir, rules: RULES }).errorCount;
    });
    expect(errors).toBe(0);
    const listed = [...counts.keys()].filter((k) => k.startsWith('readdirSync ')).map((k) => k.slice('readdirSync '.length));
    // The repository, the model, its version directory: nothing through the link.
    expect(listed.filter((p) => p.includes(`${join('classifier', '1', 'root')}`))).toEqual([]);
    expect(listed.length).toBeLessThanOrEqual(4);
  });

  it('a link out of the directory given that is no model is not searched, and is said; one to a model is followed', async () => {
    const outside = await writeRepo({
      'big/a/b/c/d/x/config.pbtxt': CLASSIFIER_CONFIG,
      'shared/linked/config.pbtxt': CLASSIFIER_CONFIG,
      'shared/linked/1/model.onnx': CLASSIFIER,
    });
    const dir = await writeRepo({ 'models/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'models/classifier/1/model.onnx': CLASSIFIER });
    fs.symlinkSync(join(outside, 'big'), join(dir, 'models', 'big'));
    fs.symlinkSync(join(outside, 'shared', 'linked'), join(dir, 'models', 'linked'));
    let result: ReturnType<typeof lintSync> | undefined;
    const counts = countCalls(() => {
      result = lintSync([dir], { cwd: dir, rules: RULES });
    });
    const listed = [...counts.keys()].filter((k) => k.startsWith('readdirSync ')).map((k) => k.slice('readdirSync '.length));
    // As a directory of the repository, big is taken as a model (the repository rules list it, and
    // the first sub-directory autofill looks in), but nothing below that is walked.
    expect(listed.filter((p) => p.includes(join('big', 'a', 'b')))).toEqual([]);
    expect(result!.results.map((r) => r.filePath).sort()).toEqual([
      join(dir, 'models', 'classifier', 'config.pbtxt'),
      join(dir, 'models', 'linked', 'config.pbtxt'),
    ]);
    expect(result!.problems).toEqual([{ file: join(dir, 'models', 'big'), message: linkOutNote(fs.realpathSync(join(outside, 'big'))), level: 'warning' }]);
  });

  it('a model file that is a directory is walked within its bounds: a link to / in it stops there', async () => {
    const dir = await writeRepo({ 'm/1/model.savedmodel/saved_model.pb': 'x', 'm/1/model.savedmodel/variables/variables.index': 'y' });
    const whole = directoryFiles(diskTree, join(dir, 'm/1/model.savedmodel'));
    expect({ ...whole, files: [...whole.files].sort() }).toEqual({
      files: [join(dir, 'm/1/model.savedmodel/saved_model.pb'), join(dir, 'm/1/model.savedmodel/variables/variables.index')].sort(),
      complete: true,
    });
    fs.symlinkSync('/', join(dir, 'm', '1', 'model.savedmodel', 'root'));
    const walked = directoryFiles(diskTree, join(dir, 'm/1/model.savedmodel'));
    expect(walked.complete).toBe(false);
    expect(walked.files.length).toBeLessThanOrEqual(MODEL_DIR_LIMITS.entries);
  });
});

// One lint run reads the repository once: every directory is listed and every file opened at most
// once, however many parts of the engine and rules ask about them. Counted on the real calls, by
// wrapping node:fs for the duration of the run.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
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

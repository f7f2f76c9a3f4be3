// lint --cache: the other models' configs and signatures kept between runs, used only while their
// files (and a model's external data) are unchanged; the findings are those of a run without it.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/workspace/disk-cache.js';
import { identityOf } from '../../src/util/file-identity.js';
import { lintSync } from '../../src/lint/engine.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';

const config = (name: string, count: number) =>
  `name: "${name}"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\ninstance_group [ { count: ${count} kind: KIND_GPU } ]\n`;

async function repo() {
  return writeRepo({
    'a/config.pbtxt': config('a', 1),
    'a/1/model.onnx': CLASSIFIER,
    'b/config.pbtxt': config('b', 1),
    'b/1/model.onnx': CLASSIFIER,
  });
}
/** A clock past the racy window of files the test just wrote, so what was read of them is kept. */
const later = () => Date.now() + 10_000;
const memory = (dir: string, cacheFile?: string) =>
  lintSync([join(dir, 'a', 'config.pbtxt')], { cwd: dir, gpuMemory: { bytes: 2 ** 20, source: 'test' }, now: later, ...(cacheFile ? { cacheFile } : {}) })
    .results.flatMap((r) => r.diagnostics)
    .filter((d) => d.ruleId === 'instance-memory')
    .map((d) => d.message);

describe('lint --cache', () => {
  it('a second run takes the other models from the cache, with the same findings', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    const plain = memory(dir);
    expect(plain.length).toBeGreaterThan(0);
    expect(memory(dir, cacheFile)).toEqual(plain);
    const kept = new DiskCache(cacheFile, '0.0.0-dev');
    expect(kept.config(join(dir, 'b', 'config.pbtxt'), identityOf)).toMatchObject({ name: 'b', instance_group: [{ count: 1 }] });
    expect(kept.signature(join(dir, 'b', '1', 'model.onnx'), identityOf)?.inputs[0]?.name).toBe('input');
    expect(memory(dir, cacheFile)).toEqual(plain);
  });

  it('an edited config of another model is read again', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    const before = memory(dir, cacheFile);
    writeFileSync(join(dir, 'b', 'config.pbtxt'), config('b', 8));
    const after = memory(dir, cacheFile);
    expect(after).toEqual(memory(dir));
    expect(after).not.toEqual(before);
  });

  it('a model file changed in place (same size, new mtime) is read again', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    memory(dir, cacheFile);
    const file = join(dir, 'b', '1', 'model.onnx');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const cache = new DiskCache(cacheFile, '0.0.0-dev');
    expect(cache.signature(file, identityOf)).toBeUndefined();
  });

  it('a cache tritonc cannot read, or another version wrote, is ignored and rewritten', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    writeFileSync(cacheFile, '{ not json');
    expect(memory(dir, cacheFile)).toEqual(memory(dir));
    expect(JSON.parse(readFileSync(cacheFile, 'utf8').split('\n')[0]!).format).toBe(5);
    expect(new DiskCache(cacheFile, '9.9.9').size).toBe(0);
  });

  it('keeps 64-bit integers and non-finite floats exactly', async () => {
    const dir = await writeRepo({});
    const cacheFile = join(dir, 'c');
    const file = join(dir, 'x.pbtxt');
    writeFileSync(file, 'x');
    const c = new DiskCache(cacheFile, 'v', later);
    c.setConfig(
      file,
      { input: [{ name: 'i', dims: [9007199254740993n, -1] }], model_warmup: [{ inputs: {} }], parameters: { k: { string_value: '$bigint' } } },
      identityOf,
    );
    expect(c.save()).toBeUndefined();
    const value = new DiskCache(cacheFile, 'v').config(file, identityOf) as { input: { dims: unknown[] }[]; parameters: unknown };
    expect(value.input[0]!.dims).toEqual([9007199254740993n, -1]);
    expect(value.parameters).toEqual({ k: { string_value: '$bigint' } });
  });

  it("a map whose one key is spelled like the cache's own markers ($bigint, $number) is kept as the map it is", async () => {
    const dir = await writeRepo({});
    const cacheFile = join(dir, 'c');
    const file = join(dir, 'x.pbtxt');
    writeFileSync(file, 'x');
    const config = {
      max_batch_size: 9007199254740993n,
      ensemble_scheduling: { step: [{ input_map: { $bigint: '12' }, output_map: { $number: 'NaN' }, model_name: 'm' }] },
      parameters: { $entries: { string_value: 'x' } },
    };
    const c = new DiskCache(cacheFile, 'v', later);
    c.setConfig(file, config as never, identityOf);
    expect(c.save()).toBeUndefined();
    expect(new DiskCache(cacheFile, 'v').config(file, identityOf)).toEqual(config);
  });

  it('the CLI writes .tritonc-cache in the current directory only when asked', async () => {
    const dir = await repo();
    await cli(['lint', join(dir, 'a')], { cwd: dir });
    expect(existsSync(join(dir, '.tritonc-cache'))).toBe(false);
    const r = await cli(['lint', '--cache', join(dir, 'a')], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, '.tritonc-cache'))).toBe(true);
    await cli(['lint', '--cache-location', join(dir, 'elsewhere.cache'), join(dir, 'a')], { cwd: dir });
    expect(existsSync(join(dir, 'elsewhere.cache'))).toBe(true);
  });
});

describe('lint --cache: an entry is used only when it is true and whole', () => {
  const lintAll = (dir: string, cacheFile?: string) => {
    const r = lintSync([dir], { cwd: dir, now: later, ...(cacheFile ? { cacheFile } : {}) });
    return { errors: r.errorCount, ids: r.results.flatMap((x) => x.diagnostics.map((d) => `${d.ruleId}:${d.message}`)).sort() };
  };

  it('a model file rewritten in place (same size, same inode) with its modification time put back is read again', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    const model = join(dir, 'b', '1', 'model.onnx');
    expect(lintAll(dir, cacheFile).errors).toBe(0);
    const before = statSync(model, { bigint: true });
    // Rename the input in place: the same bytes but one, written into the same inode.
    const bytes = readFileSync(model);
    const at = bytes.indexOf('input');
    expect(at).toBeGreaterThan(0);
    const fd = openSync(model, 'r+');
    writeSync(fd, Buffer.from('X'), 0, 1, at + 4);
    closeSync(fd);
    // touch -d puts the modification time back to the nanosecond; the change time it cannot.
    execFileSync('touch', ['-d', `@${before.mtimeNs / 1_000_000_000n}.${String(before.mtimeNs % 1_000_000_000n).padStart(9, '0')}`, model]);
    const after = statSync(model, { bigint: true });
    expect([after.ino, after.size, after.mtimeNs]).toEqual([before.ino, before.size, before.mtimeNs]);
    const plain = lintAll(dir);
    expect(plain.errors).toBeGreaterThan(0);
    expect(lintAll(dir, cacheFile)).toEqual(plain);
  });

  it('nothing read from a file changed within the racy window is kept, signatures and configs included', async () => {
    const dir = await repo();
    const cacheFile = join(dir, 'c');
    const c = new DiskCache(cacheFile, 'v', Date.now);
    const config = join(dir, 'b', 'config.pbtxt');
    c.setConfig(config, { name: 'b' }, identityOf);
    expect(c.config(config, identityOf)).toBeUndefined();
    const aged = new DiskCache(cacheFile, 'v', later);
    aged.setConfig(config, { name: 'b' }, identityOf);
    expect(aged.config(config, identityOf)).toEqual({ name: 'b' });
  });

  it('damaged entries (a signature {}, a config 5, a config of the wrong shape, a summary of the wrong shape) are dropped and rebuilt, never an error', async () => {
    const dir = await repo();
    const cacheFile = join(dir, '.tritonc-cache');
    const plain = lintAll(dir);
    expect(lintAll(dir, cacheFile)).toEqual(plain);
    const [header, summaries, signatures, configs] = readFileSync(cacheFile, 'utf8').split('\n') as [string, string, string, string];
    const damage = (section: string, f: (e: Record<string, unknown>) => unknown) =>
      JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(section) as Record<string, Record<string, unknown>>).map(([k, e]) => [k, f(e)])));
    const cases: [string, string, string, string][] = [
      [damage(summaries, (e) => e), damage(signatures, (e) => ({ ...e, json: '{}' })), configs, 'a signature {}'],
      // No summaries: the configs are what the run takes from the cache.
      ['{}', signatures, damage(configs, () => 5), 'a config 5'],
      ['{}', signatures, damage(configs, (e) => ({ ...e, json: '{"input":5}' })), 'a config whose input is 5'],
      ['{}', signatures, damage(configs, (e) => ({ ...e, json: '{"name":"b","instance_group":[{"count":"lots"}]}' })), 'an instance count that is text'],
      [damage(summaries, (e) => ({ ...e, value: { model: true, steps: 7 } })), signatures, configs, 'a summary whose steps are a number'],
      [
        damage(summaries, (e) => ({ ...e, value: { model: true, placement: { instance_group: 5 } } })),
        signatures,
        configs,
        'a summary whose placement is wrong',
      ],
      [damage(summaries, () => null), damage(signatures, () => []), damage(configs, () => 'x'), 'entries that are not objects'],
    ];
    for (const [s1, s2, s3, what] of cases) {
      const text = `${[header, s1, s2, s3].join('\n')}\n`;
      writeFileSync(cacheFile, text);
      expect(lintAll(dir, cacheFile), what).toEqual(plain);
      expect(readFileSync(cacheFile, 'utf8'), what).not.toBe(text);
      expect(lintAll(dir, cacheFile), what).toEqual(plain);
    }
    // Through the CLI: exit 0, nothing on stderr.
    writeFileSync(cacheFile, `${[header, summaries, damage(signatures, (e) => ({ ...e, json: '{}' })), damage(configs, () => 5)].join('\n')}\n`);
    const r = await cli(['lint', '--cache', '.'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

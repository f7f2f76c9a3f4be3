// lint --cache: the other models' configs and signatures kept between runs, used only while their
// files (and a model's external data) are unchanged; the findings are those of a run without it.
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
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
    'a/config.pbtxt': config('a', 1), 'a/1/model.onnx': CLASSIFIER,
    'b/config.pbtxt': config('b', 1), 'b/1/model.onnx': CLASSIFIER,
  });
}
const memory = (dir: string, cacheFile?: string) =>
  lintSync([join(dir, 'a', 'config.pbtxt')], { cwd: dir, gpuMemory: { bytes: 2 ** 20, source: 'test' }, ...(cacheFile ? { cacheFile } : {}) })
    .results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === 'instance-memory').map((d) => d.message);

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
    expect(JSON.parse(readFileSync(cacheFile, 'utf8').split('\n')[0]!).format).toBe(4);
    expect(new DiskCache(cacheFile, '9.9.9').size).toBe(0);
  });

  it('keeps 64-bit integers and non-finite floats exactly', async () => {
    const dir = await writeRepo({});
    const cacheFile = join(dir, 'c');
    const file = join(dir, 'x.pbtxt');
    writeFileSync(file, 'x');
    const c = new DiskCache(cacheFile, 'v');
    c.setConfig(file, { input: [{ name: 'i', dims: [9007199254740993n, -1] }], model_warmup: [{ inputs: {} }], parameters: { k: { string_value: '$bigint' } } } as never, identityOf);
    expect(c.save()).toBeUndefined();
    const value = new DiskCache(cacheFile, 'v').config(file, identityOf) as { input: { dims: unknown[] }[]; parameters: unknown };
    expect(value.input[0]!.dims).toEqual([9007199254740993n, -1]);
    expect(value.parameters).toEqual({ k: { string_value: '$bigint' } });
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

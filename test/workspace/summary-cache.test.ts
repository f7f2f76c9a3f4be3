// lint --cache keeps each model directory's summary with the identity of every path it was made
// from. A lint of one config then reads none of the other models, and still finds what a lint
// without the cache finds after any change to them: edited in place, a model re-exported, a version
// added, a file removed, external data that appears, a directory that stops being a model.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintSync, type LintOptions } from '../../src/lint/engine.js';
import { DiskCache } from '../../src/workspace/disk-cache.js';
import { writeOnnx, writeRepo, type OnnxSpec } from '../lint/harness.js';

const spec = (floats: number, externalBytes?: number): OnnxSpec => ({
  inputs: [['input', 'FLOAT', ['batch', 3, 224, 224]]],
  outputs: [['output', 'FLOAT', ['batch', 10]]],
  initializers: [{ name: 'w', floats }],
  ...(externalBytes ? { externalBytes } : {}),
});
const config = (name: string, count: number, extra = '') =>
  `name: "${name}"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 10 ] } ]\ninstance_group [ { count: ${count} kind: KIND_GPU } ]\n${extra}`;
const ensemble = (steps: string[]) =>
  `name: "pipe"\nplatform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 10 ] } ]\nensemble_scheduling { ${steps.map((m) => `step [ { model_name: "${m}" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ]`).join(' ')} }\n`;

/** Every path under `dir` (and `dir`) with its modification time. */
function times(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (p: string): void => {
    const st = fs.statSync(p);
    out.set(p, st.mtimeMs);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
  return out;
}

/**
 * Dates `secondsAgo` back every path under `dir` that is new or changed since `before` (every path
 * without it): older than the window in which a summary is not kept, each change at its own time.
 * What did not change keeps its identity, so the summaries made from it stay usable.
 */
function age(dir: string, secondsAgo: number, before?: Map<string, number>): void {
  const when = new Date(Date.now() - secondsAgo * 1000);
  for (const [p, mtime] of times(dir)) if (!before || before.get(p) !== mtime) fs.utimesSync(p, when, when);
}

/** The findings of linting `target`, as text, without the file paths' temporary prefix. */
function findingsOf(dir: string, target: string, options: LintOptions = {}): string[] {
  // A clock past the racy window (ages cannot move a change time back): what was read is kept.
  return lintSync([join(dir, target)], { cwd: dir, gpuMemory: { bytes: 1000, source: 'test' }, now: () => Date.now() + 10_000, ...options })
    .results.flatMap((r) => r.diagnostics.map((d) => `${d.ruleId} ${d.range.start.line}:${d.range.start.column} ${d.message}`))
    .sort();
}

/** The config files opened while `fn` runs. */
function configsRead(fn: () => void): string[] {
  const read: string[] = [];
  const names = ['openSync', 'readFileSync'] as const;
  const saved = names.map((n) => [n, fs[n]] as const);
  for (const [name, real] of saved) {
    (fs as unknown as Record<string, unknown>)[name] = (path: unknown, ...rest: unknown[]) => {
      if (typeof path === 'string' && path.endsWith('.pbtxt')) read.push(path);
      return (real as (...a: unknown[]) => unknown)(path, ...rest);
    };
  }
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    for (const [name, real] of saved) (fs as unknown as Record<string, unknown>)[name] = real;
    syncBuiltinESMExports();
  }
  return read;
}

async function repository(): Promise<string> {
  const dir = await writeRepo({
    'models/a/config.pbtxt': config('a', 1),
    'models/a/1/model.onnx': spec(100),
    'models/b/config.pbtxt': config('b', 2),
    'models/b/1/model.onnx': spec(200),
    'models/c/config.pbtxt': config('c', 1),
    'models/c/1/model.onnx': spec(300),
    'models/pipe/config.pbtxt': ensemble(['a', 'b']),
    'models/pipe/1/.keep': '',
    // No per-instance overhead: the findings show the weights to the byte, so a stale size would show.
    'tritonc.config.json': JSON.stringify({ rules: { 'instance-memory': ['warn', { instanceOverhead: 0 }] } }),
  });
  age(dir, 3600);
  return dir;
}

describe('lint --cache: model summaries', () => {
  it('a second lint of one config reads no other model, and finds what a lint without the cache finds', async () => {
    const dir = await repository();
    const cacheFile = join(dir, 'cache');
    const plain = findingsOf(dir, 'models/a/config.pbtxt');
    expect(plain.some((f) => f.startsWith('instance-memory'))).toBe(true);
    expect(findingsOf(dir, 'models/a/config.pbtxt', { cacheFile })).toEqual(plain);
    let second: string[] = [];
    const read = configsRead(() => (second = findingsOf(dir, 'models/a/config.pbtxt', { cacheFile })));
    expect(second).toEqual(plain);
    expect(read).toEqual([join(dir, 'models/a/config.pbtxt')]);
  });

  it('reads again only the model that changed', async () => {
    const dir = await repository();
    const cacheFile = join(dir, 'cache');
    findingsOf(dir, 'models/a/config.pbtxt', { cacheFile });
    const before = times(join(dir, 'models'));
    const b = join(dir, 'models/b/config.pbtxt');
    fs.writeFileSync(b, fs.readFileSync(b, 'utf8').replace('count: 2 ', 'count: 5 '));
    age(join(dir, 'models'), 1000, before);
    let cached: string[] = [];
    const read = configsRead(() => (cached = findingsOf(dir, 'models/a/config.pbtxt', { cacheFile })));
    expect(cached).toEqual(findingsOf(dir, 'models/a/config.pbtxt'));
    expect(cached.join('\n')).toContain('b: 5 x 800 B');
    expect(read.sort()).toEqual([join(dir, 'models/a/config.pbtxt'), b]);
  });

  it('keeps no summary made from a path changed within the last two seconds, nor from one it cannot identify', async () => {
    const dir = await repository();
    const cache = new DiskCache(join(dir, 'cache'), 'v');
    const now = Date.now();
    // Identities: device:inode:size:mtime:ctime, times in nanoseconds.
    const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
    const old = `1:2:3:${ns(now - 60_000)}:${ns(now - 60_000)}`;
    cache.setSummary('/m', { model: true }, ['/m', '/m/config.pbtxt'], (p) => (p === '/m' ? old : `1:4:5:${ns(now - 500)}:${ns(now - 500)}`), now);
    // A modification time put back (touch -d) leaves the change time: still racy.
    cache.setSummary('/m', { model: true }, ['/m', '/m/config.pbtxt'], (p) => (p === '/m' ? old : `1:4:5:${ns(now - 60_000)}:${ns(now - 500)}`), now);
    expect(cache.summary('/m', () => old)).toBeUndefined();
    expect(cache.summary('/m', () => old)).toBeUndefined();
    cache.setSummary('/m', { model: true }, ['/m', '/m/config.pbtxt'], (p) => (p === '/m' ? old : undefined), now);
    expect(cache.summary('/m', () => old)).toBeUndefined();
    cache.setSummary('/m', { model: true, weightBytes: 7 }, ['/m', '/m/gone'], (p) => (p === '/m' ? old : null), now);
    expect(cache.summary('/m', (p) => (p === '/m' ? old : null))).toEqual({ model: true, weightBytes: 7 });
    // The path that was not there is now: the summary is stale.
    expect(cache.summary('/m', () => old)).toBeUndefined();
  });

  it('after any sequence of changes to the other models, the findings are those of a lint without the cache', async () => {
    type Change = (dir: string, step: number) => Promise<void> | void;
    const models = ['b', 'c'];
    const changes: Record<string, (m: string) => Change> = {
      // In place, the same size: only the modification time tells.
      editInPlace: (m) => (dir) => {
        const f = join(dir, 'models', m, 'config.pbtxt');
        if (!fs.existsSync(f)) return;
        const text = fs.readFileSync(f, 'utf8');
        fs.writeFileSync(f, text.includes('count: 1 ') ? text.replace('count: 1 ', 'count: 3 ') : text.replace(/count: \d /, 'count: 1 '));
      },
      reexport: (m) => async (dir, step) => {
        const tmp = join(dir, 'models', m, '1', 'new.onnx');
        await writeOnnx(tmp, spec(50 + 100 * (step % 5)));
        fs.renameSync(tmp, join(dir, 'models', m, '1', 'model.onnx'));
      },
      newVersion: (m) => async (dir, step) => {
        await writeOnnx(join(dir, 'models', m, String(2 + step), 'model.onnx'), spec(400 + step));
      },
      removeModelFile: (m) => (dir) => {
        for (const v of fs.readdirSync(join(dir, 'models', m), { withFileTypes: true }))
          if (v.isDirectory()) fs.rmSync(join(dir, 'models', m, v.name, 'model.onnx'), { force: true });
      },
      externalWeights: (m) => async (dir) => {
        await writeOnnx(join(dir, 'models', m, '1', 'model.onnx'), spec(10, 4000));
      },
      externalDataAppears: (m) => (dir) => {
        fs.writeFileSync(join(dir, 'models', m, '1', 'weights.bin'), Buffer.alloc(4000));
      },
      removeConfig: (m) => (dir) => {
        fs.rmSync(join(dir, 'models', m, 'config.pbtxt'), { force: true });
      },
      restoreConfig: (m) => (dir) => {
        fs.writeFileSync(join(dir, 'models', m, 'config.pbtxt'), config(m, 2));
      },
      breakConfig: (m) => (dir) => {
        fs.writeFileSync(join(dir, 'models', m, 'config.pbtxt'), `${config(m, 1)}instance_group [ {\n`);
      },
      ensembleSteps: (m) => (dir) => {
        fs.writeFileSync(join(dir, 'models', 'pipe', 'config.pbtxt'), ensemble(['a', m]));
      },
    };
    const change = fc.tuple(fc.constantFrom(...Object.keys(changes)), fc.constantFrom(...models));
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (steps) => {
        const dir = await repository();
        const cacheFile = join(dir, 'cache');
        findingsOf(dir, 'models/a/config.pbtxt', { cacheFile });
        for (const [i, [name, model]] of steps.entries()) {
          const before = times(join(dir, 'models'));
          await changes[name]!(model)(dir, i);
          age(join(dir, 'models'), 3000 - i * 10, before);
          for (const target of ['models/a/config.pbtxt', 'models/pipe/config.pbtxt']) {
            expect(
              findingsOf(dir, target, { cacheFile }),
              `${target} after ${steps
                .slice(0, i + 1)
                .map((s) => s.join(' '))
                .join(', ')}`,
            ).toEqual(findingsOf(dir, target));
          }
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 25 },
    );
  });

  it('a damaged or hand-edited cache file is never an error: what cannot be read is read again, and the file rewritten', async () => {
    const dir = await repository();
    const cacheFile = join(dir, 'cache');
    const plain = findingsOf(dir, 'models/a/config.pbtxt');
    findingsOf(dir, 'models/a/config.pbtxt', { cacheFile });
    const [header, summaries] = fs.readFileSync(cacheFile, 'utf8').split('\n');
    const b = join(dir, 'models', 'b');
    const entries = JSON.parse(summaries!) as Record<string, { deps: unknown[]; value?: unknown }>;
    const damaged = [
      `${header}\n{"cut short\n{}\n[1, 2]\n`,
      `${header}\n${JSON.stringify({ ...entries, [b]: { deps: entries[b]!.deps.slice(1) } })}\n"text"\n{}\n`,
      `${header}\n${JSON.stringify({ ...entries, [b]: { deps: entries[b]!.deps, value: 'not a summary' } })}\n{}\n{}\n`,
      `${header}\n${JSON.stringify({ ...entries, [b]: { deps: 7 } })}\n{"x": {"id": 1}}\n{"y": null}\n`,
    ];
    for (const text of damaged) {
      fs.writeFileSync(cacheFile, text);
      expect(findingsOf(dir, 'models/a/config.pbtxt', { cacheFile })).toEqual(plain);
      expect(fs.readFileSync(cacheFile, 'utf8')).not.toBe(text);
      expect(findingsOf(dir, 'models/a/config.pbtxt', { cacheFile })).toEqual(plain);
    }
  });

  it('the same repository linted whole and by one config writes summaries the next run uses', async () => {
    const dir = await repository();
    const cacheFile = join(dir, 'cache');
    lintSync([join(dir, 'models')], { cwd: dir, cacheFile, now: () => Date.now() + 10_000 });
    const cache = new DiskCache(cacheFile, '0.0.0-dev');
    const id = (p: string) => {
      const st = fs.statSync(p, { bigint: true });
      return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    };
    const kept = cache.summary(join(dir, 'models', 'b'), (p) => (fs.existsSync(p) ? id(p) : null));
    expect(kept).toMatchObject({ model: true, placement: { name: 'b', instance_group: [{ count: 2, kind: 'KIND_GPU' }] }, weightBytes: 800 });
    expect(dirname(cacheFile)).toBe(dir);
  });
});

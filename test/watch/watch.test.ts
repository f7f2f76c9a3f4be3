// watch with real file changes in a temporary repository.
import { cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type FixtureName } from '../../fixtures/onnx/index.js';
import { startWatch, type WatchHandle } from '../../src/watch/watch.js';
import type { RunReport } from '../../src/watch/session.js';
import { cli, tempDir } from '../support/cli.js';

let models: string;
beforeAll(async () => {
  models = tempDir();
  for (const n of ['classifier', 'fixed-batch', 'dynamic-batch'] as FixtureName[]) await buildFixture(n, models);
});

const handles: WatchHandle[] = [];
afterEach(async () => {
  while (handles.length) await handles.pop()!.close();
});

function repoWith(names: FixtureName[]): string {
  const dir = tempDir();
  for (const n of names) {
    mkdirSync(join(dir, n, '1'), { recursive: true });
    cpSync(join(models, n, 'model.onnx'), join(dir, n, '1', 'model.onnx'));
  }
  return dir;
}

/** Starts watching and returns a function that waits for the next report matching a predicate. */
async function watching(repo: string, generate = false, now?: () => number) {
  const reports: RunReport[] = [];
  const waiters: { pred: (r: RunReport) => boolean; resolve: (r: RunReport) => void }[] = [];
  const h = startWatch({
    repo,
    cwd: repo,
    generate,
    debounceMs: 30,
    ...(now ? { now } : {}),
    onReport: (r) => {
      reports.push(r);
      for (const w of [...waiters])
        if (w.pred(r)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(r);
        }
    },
    onError: (e) => {
      throw e;
    },
  });
  handles.push(h);
  await h.ready;
  // A bound on a hang, not a measure: a loaded machine may take seconds for a report.
  const next = (pred: (r: RunReport) => boolean, ms = 60_000): Promise<RunReport> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching report within ${ms} ms; got ${reports.length}: ${JSON.stringify(reports.map((r) => [r.event, r.changed, ids(r)]))}`)),
        ms,
      );
      waiters.push({ pred, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  return { reports, next, handle: h };
}

const ids = (r: RunReport): string[] => r.result.results.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId));
const errorsIn = (r: RunReport, file: string): string[] =>
  r.result.results.filter((f) => f.filePath.endsWith(file)).flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId));

describe('tritonc watch', () => {
  it('reports a new error in an edited config, then clean once it is fixed', async () => {
    const repo = repoWith(['classifier']);
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    const w = await watching(repo);
    expect(ids(w.reports[0]!)).toEqual([]);
    const path = join(repo, 'classifier/config.pbtxt');
    const good = readFileSync(path, 'utf8');
    writeFileSync(path, good.replace('dims: [ 3, 224, 224 ]', 'dims: [ 3, 224, 224, 1 ]'));
    const broken = await w.next((r) => r.event === 'change' && errorsIn(r, 'classifier/config.pbtxt').length > 0);
    expect(errorsIn(broken, 'classifier/config.pbtxt')).toContain('io-shape');
    // An editor's atomic save: write a temp file, rename it over the config.
    writeFileSync(`${path}.tmp-save`, good);
    renameSync(`${path}.tmp-save`, path);
    const fixed = await w.next((r) => r.event === 'change' && errorsIn(r, 'classifier/config.pbtxt').length === 0);
    expect(ids(fixed)).toEqual([]);
  });

  it('reports missing-dynamic-axis when model.onnx is replaced by a fixed-batch export', async () => {
    const repo = repoWith(['classifier']);
    writeFileSync(join(repo, 'classifier/config.pbtxt'), 'name: "classifier"\nbackend: "onnxruntime"\nmax_batch_size: 8\n');
    const w = await watching(repo);
    expect(ids(w.reports[0]!)).toEqual([]);
    cpSync(join(models, 'fixed-batch', 'model.onnx'), join(repo, 'classifier/1/model.onnx'));
    const r = await w.next((x) => x.event === 'change' && ids(x).includes('missing-dynamic-axis'));
    expect(r.changed).toContain('classifier/1/model.onnx');
  });

  it('follows models being added and removed', async () => {
    const repo = repoWith(['classifier']);
    await cli(['generate', '.', '--write'], { cwd: repo });
    const w = await watching(repo);
    mkdirSync(join(repo, 'second', '1'), { recursive: true });
    cpSync(join(models, 'dynamic-batch', 'model.onnx'), join(repo, 'second/1/model.onnx'));
    writeFileSync(join(repo, 'second/config.pbtxt'), 'name: "second"\nbackend: "onnxruntime"\nmax_batch_size: -1\n');
    const added = await w.next((r) => errorsIn(r, 'second/config.pbtxt').length > 0);
    expect(errorsIn(added, 'second/config.pbtxt').length).toBeGreaterThan(0);
    rmSync(join(repo, 'second'), { recursive: true });
    const removed = await w.next((r) => r.event === 'change' && !r.result.results.some((f) => f.filePath.includes('/second/')));
    expect(ids(removed)).toEqual([]);
  });

  it('does not report a model file that is still being written as corrupt', async () => {
    const repo = repoWith(['classifier']);
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    const path = join(repo, 'classifier/1/model.onnx');
    // The watch's clock reads the moment the model file was last written: every look at it comes
    // right after a write, however long the machine takes to get there (a real clock would let a
    // loaded machine pass the watch's 2 s window while the writer is still at work).
    const w = await watching(repo, false, () => statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    const bytes = readFileSync(join(models, 'classifier', 'model.onnx'));
    // A slow writer: the first half now, the rest a while later.
    const fd = openSync(path, 'w');
    writeSync(fd, bytes, 0, bytes.length >> 1);
    const waiting = await w.next((r) => r.waiting.length > 0);
    expect(waiting.waiting).toEqual(['classifier/1/model.onnx']);
    expect(ids(waiting)).not.toContain('model-unreadable');
    await new Promise((r) => setTimeout(r, 300));
    writeSync(fd, bytes, bytes.length >> 1, bytes.length - (bytes.length >> 1), bytes.length >> 1);
    closeSync(fd);
    const done = await w.next((r) => r.waiting.length === 0 && r.changed.includes('classifier/1/model.onnx'));
    expect(ids(done)).toEqual([]);
    expect(w.reports.every((r) => !ids(r).includes('model-unreadable'))).toBe(true);
  });

  it('two model files truncated moments apart: both are reported unreadable once neither is being written', async () => {
    const repo = tempDir();
    for (const m of ['a', 'b']) {
      mkdirSync(join(repo, m, '1'), { recursive: true });
      cpSync(join(models, 'classifier', 'model.onnx'), join(repo, m, '1', 'model.onnx'));
      await cli(['generate', m, '--write'], { cwd: repo });
    }
    const w = await watching(repo);
    writeFileSync(join(repo, 'a/1/model.onnx'), readFileSync(join(models, 'classifier', 'model.onnx')).subarray(0, 100));
    await new Promise((r) => setTimeout(r, 120));
    writeFileSync(join(repo, 'b/1/model.onnx'), readFileSync(join(models, 'classifier', 'model.onnx')).subarray(0, 100));
    const last = await w.next((r) => r.waiting.length === 0 && ids(r).filter((id) => id === 'model-unreadable').length >= 2);
    const unreadable = (f: string): boolean =>
      last.result.results.some((r) => r.diagnostics.some((d) => d.ruleId === 'model-unreadable' && d.file.endsWith(f)));
    expect([unreadable('a/1/model.onnx'), unreadable('b/1/model.onnx')]).toEqual([true, true]);
  });

  it('a config that is a FIFO: the report says it cannot be read, and the watch goes on', async () => {
    const repo = repoWith(['classifier', 'dynamic-batch']);
    await cli(['generate', '.', '--write'], { cwd: repo });
    rmSync(join(repo, 'dynamic-batch', 'config.pbtxt'));
    execFileSync('mkfifo', [join(repo, 'dynamic-batch', 'config.pbtxt')]);
    const w = await watching(repo);
    const initial = w.reports[0]!;
    expect(initial.result.problems).toEqual([{ file: join(repo, 'dynamic-batch', 'config.pbtxt'), message: 'cannot read: not a regular file (a FIFO)' }]);
    writeFileSync(
      join(repo, 'classifier', 'config.pbtxt'),
      readFileSync(join(repo, 'classifier', 'config.pbtxt'), 'utf8').replace('max_batch_size: 4', 'max_batch_size: -1'),
    );
    expect(ids(await w.next((r) => r.changed.includes('classifier/config.pbtxt')))).toContain('max-batch-size');
  });

  it("--generate rewrites tritonc's own config when model.onnx changes, and never a hand-edited one", async () => {
    const repo = repoWith(['classifier', 'dynamic-batch']);
    await cli(['generate', '.', '--write'], { cwd: repo });
    const handEdited = join(repo, 'dynamic-batch/config.pbtxt');
    writeFileSync(handEdited, readFileSync(handEdited, 'utf8').replace('max_batch_size: 4', 'max_batch_size: 2'));
    const before = readFileSync(handEdited, 'utf8');
    const w = await watching(repo, true);
    cpSync(join(models, 'dynamic-batch', 'model.onnx'), join(repo, 'classifier/1/model.onnx'));
    const regenerated = await w.next((r) => r.notes.some((n) => n.startsWith('regenerated classifier/config.pbtxt')));
    expect(ids(regenerated)).toEqual([]);
    expect(readFileSync(join(repo, 'classifier/config.pbtxt'), 'utf8')).toContain('dims: [ 3, 32, 32 ]');
    cpSync(join(models, 'classifier', 'model.onnx'), join(repo, 'dynamic-batch/1/model.onnx'));
    const refused = await w.next((r) => r.notes.some((n) => n.startsWith('not regenerating dynamic-batch/config.pbtxt')));
    expect(refused.notes.join('\n')).toContain('edited by hand');
    expect(readFileSync(handEdited, 'utf8')).toBe(before);
  });

  it('--generate writes no config through a link: a dangling config.pbtxt link is said, its target not created', async () => {
    const repo = repoWith(['classifier']);
    const away = join(tempDir(), 'bash_profile');
    symlinkSync(away, join(repo, 'classifier/config.pbtxt'));
    const w = await watching(repo, true);
    cpSync(join(models, 'dynamic-batch', 'model.onnx'), join(repo, 'classifier/1/model.onnx'));
    const refused = await w.next((r) => r.notes.some((n) => n.startsWith('not regenerating classifier/config.pbtxt')));
    expect(refused.notes.join('\n')).toContain(`cannot write it: it is a symbolic link to ${away}`);
    expect(existsSync(away)).toBe(false);
  });

  it('OpenVINO: --generate rewrites the config when model.xml changes; a half-written model.xml waits', async () => {
    const OV = fileURLToPath(new URL('../../fixtures/models/openvino/', import.meta.url));
    const repo = tempDir();
    cpSync(join(OV, 'openvino_int8_int8_int8', '1'), join(repo, 'ov', '1'), { recursive: true });
    expect((await cli(['generate', 'ov', '--write'], { cwd: repo })).code).toBe(0);
    const w = await watching(repo, true);
    const xml = join(repo, 'ov/1/model.xml');
    const other = readFileSync(join(OV, 'openvino_fixed_batch', '1', 'model.xml'));
    // A slow writer: half the IR now (it does not parse yet), the rest a moment later.
    const fd = openSync(xml, 'w');
    writeSync(fd, other, 0, other.length >> 1);
    const waiting = await w.next((r) => r.waiting.length > 0);
    expect(waiting.waiting).toEqual(['ov/1/model.xml']);
    expect(ids(waiting)).not.toContain('model-unreadable');
    writeSync(fd, other, other.length >> 1, other.length - (other.length >> 1), other.length >> 1);
    closeSync(fd);
    cpSync(join(OV, 'openvino_fixed_batch', '1', 'model.bin'), join(repo, 'ov/1/model.bin'));
    const regenerated = await w.next((r) => r.notes.some((n) => n.startsWith('regenerated ov/config.pbtxt')));
    expect(regenerated.waiting).toEqual([]);
    expect(readFileSync(join(repo, 'ov/config.pbtxt'), 'utf8')).not.toContain('TYPE_INT8');
  });

  it("keeps memory bounded: the cache holds only the repository's files after many edits", async () => {
    const repo = repoWith(['classifier']);
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    const w = await watching(repo);
    const path = join(repo, 'classifier/config.pbtxt');
    const text = readFileSync(path, 'utf8');
    for (let i = 0; i < 200; i++) {
      writeFileSync(path, `${text}# edit ${i}\n`);
      w.handle.session.change([{ event: 'change', path }]);
    }
    expect(w.handle.session.cachedFiles).toBeLessThanOrEqual(2);
  });
});

describe('tritonc watch looks only where Triton reads (issue 42)', () => {
  it("editors' swap, backup, lock and temp files are no change; the edit they surround is", async () => {
    const repo = repoWith(['classifier']);
    await cli(['generate', 'classifier', '--write'], { cwd: repo });
    const w = await watching(repo);
    const dir = join(repo, 'classifier');
    const path = join(dir, 'config.pbtxt');
    const text = readFileSync(path, 'utf8');
    // vim's save (:w with backupcopy=no): its write test, swap files, a backup, then the new file.
    writeFileSync(join(dir, '4913'), '');
    rmSync(join(dir, '4913'));
    writeFileSync(join(dir, '.config.pbtxt.swp'), 'swap');
    writeFileSync(join(dir, '.config.pbtxt.swx'), 'swap');
    renameSync(path, `${path}~`);
    writeFileSync(path, `${text}# edited\n`);
    // emacs' lock and autosave, and temp files of other tools.
    writeFileSync(join(dir, '.#config.pbtxt'), 'lock');
    writeFileSync(join(dir, '#config.pbtxt#'), 'autosave');
    writeFileSync(join(dir, '1', 'upload.tmp'), 'partial');
    await w.next((r) => r.event === 'change' && r.changed.includes('classifier/config.pbtxt'));
    // One more save, after every event above: every report until it names only the config.
    writeFileSync(path, `${text}# edited again\n`);
    await w.next((r) => r.event === 'change' && r.changed.includes('classifier/config.pbtxt') && readFileSync(path, 'utf8').includes('again'));
    const changed = w.reports.filter((r) => r.event === 'change').flatMap((r) => r.changed);
    expect(changed.filter((c) => c !== 'classifier/config.pbtxt')).toEqual([]);
  });

  it('a link to a tree outside the repository in a version directory is watched no deeper than a model file', async () => {
    const repo = repoWith(['classifier']);
    const outside = tempDir();
    mkdirSync(join(outside, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(outside, 'a', 'b', 'c', 'deep.txt'), '');
    symlinkSync(outside, join(repo, 'classifier', '1', 'data'));
    const w = await watching(repo);
    const watched = w.handle
      .watchedDirectories()
      .map((d) => relative(repo, d))
      .filter((d) => !d.startsWith('..'));
    // classifier/1/data is the deepest (a model file that is a directory is read by its backend).
    expect(watched.filter((d) => d.split(sep).length > 3)).toEqual([]);
    expect(watched).toContain(join('classifier', '1'));
  });
});

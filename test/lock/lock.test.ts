// tritonc.lock.json: written from the model files, read back, refused with a clear error when it
// cannot be used; `tritonc lock` and `lock --check` as CI runs them.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLock } from '../../src/workspace/lock-build.js';
import { LOCK_FILE_NAME, LockError, parseLock, serializeLock } from '../../src/workspace/lock.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const LFS_POINTER = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 37392\n';

describe('the lock file', () => {
  it('records every version of every model that has a model file, sorted, and reads back the same', async () => {
    const dir = await writeRepo({
      'repo/zeta/config.pbtxt': CLASSIFIER_CONFIG.replace('classifier', 'zeta'),
      'repo/zeta/1/model.onnx': CLASSIFIER,
      'repo/zeta/10/model.onnx': CLASSIFIER,
      'repo/zeta/2/model.onnx': { ...CLASSIFIER, initializers: [{ name: 'w', floats: 256 }] },
      'repo/alpha/config.pbtxt': 'platform: "tensorrt_plan"\n',
      'repo/alpha/3/model.plan': 'engine bytes',
      'repo/pipe/config.pbtxt': 'platform: "ensemble"\n',
      'repo/pipe/1/.keep': '',
    });
    const built = buildLock(new Workspace(), join(dir, 'repo'));
    expect(built.problems).toEqual([]);
    const text = serializeLock(built.lock);
    expect(Object.keys(built.lock.models).sort()).toEqual(['alpha', 'zeta']);
    // Sorted by name, versions by number; the ensemble has no model file.
    expect([...text.matchAll(/^ {4}"(\w+)": \{$/gm)].map((m) => m[1])).toEqual(['alpha', 'zeta']);
    expect([...text.matchAll(/^ {8}"(\d+)": \{$/gm)].map((m) => m[1])).toEqual(['3', '1', '2', '10']);
    expect(built.lock.models.alpha!.versions['3']).toEqual({ file: '3/model.plan', size: 12, weightBytes: 12 });
    expect(built.lock.models.zeta!.versions['2']!.weightBytes).toBe(1024);
    expect(built.lock.models.zeta!.versions['1']!.signature!.inputs).toEqual([
      { name: 'input', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', 3, 224, 224] },
    ]);
    expect(text).toContain('"shape": ["batch", 3, 224, 224]');
    expect(serializeLock(parseLock(text, 'x'))).toBe(text);
  });

  it('a checkout without some weights, or with LFS pointers, keeps what the lock says of them', async () => {
    const dir = await writeRepo({
      'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG,
      'repo/classifier/1/model.onnx': CLASSIFIER,
      'repo/classifier/2/model.onnx': CLASSIFIER,
    });
    const repo = join(dir, 'repo');
    writeFileSync(join(repo, LOCK_FILE_NAME), serializeLock(buildLock(new Workspace(), repo).lock));
    rmSync(join(repo, 'classifier', '1'), { recursive: true });
    writeFileSync(join(repo, 'classifier', '2', 'model.onnx'), LFS_POINTER);
    const again = buildLock(new Workspace(), repo);
    expect(Object.keys(again.lock.models.classifier!.versions)).toEqual(['1', '2']);
    expect(again.kept).toEqual([
      'classifier/1: no 1/model.onnx in this checkout; kept what the lock says',
      'classifier/2: 2/model.onnx is a Git LFS pointer; kept what the lock says',
    ]);
  });

  it('refuses a lock it cannot use, saying where and what to do', () => {
    const bad = (text: string): string => {
      try {
        parseLock(text, 'repo/tritonc.lock.json');
      } catch (e) {
        expect(e).toBeInstanceOf(LockError);
        return (e as Error).message;
      }
      throw new Error('parsed');
    };
    expect(bad('{\n  "lockfileVersion": 1,\n  "models": {\n}')).toMatch(
      /^repo\/tritonc.lock.json: not valid JSON at line 4, column 2: .*; regenerate it with tritonc lock$/,
    );
    expect(bad('{ "lockfileVersion": 1, "models": { "m": { "versions": { "1": { "file": "1/model.onnx", "size": -3, "weightBytes": 0 } } } } }')).toContain(
      'models.m.versions.1.size: ',
    );
    expect(bad('{ "lockfileVersion": 2, "models": {} }')).toContain('lockfileVersion: ');
    // A model named __proto__ is checked like any other (z.record would skip it unread).
    expect(bad('{ "lockfileVersion": 1, "models": { "__proto__": { "versions": { "1": { "file": "", "size": 0, "weightBytes": 0 } } } } }')).toContain(
      'models.__proto__.versions.1.file: ',
    );
    expect(bad('{ "lockfileVersion": 1, "models": { "m": { "versions": { "__proto__": { "file": "a", "size": 0, "weightBytes": 0 } } } } }')).toContain(
      'models.m.versions.__proto__: "__proto__" is not a version number; ',
    );
  });
});

describe('tritonc lock', () => {
  it('writes the lock, --check passes, and fails once a model changes (exit 1, with the difference)', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const missing = await cli(['lock', 'repo', '--check'], { cwd: dir });
    expect([missing.code, missing.stdout]).toEqual([1, 'repo/tritonc.lock.json does not exist\n']);
    const w = await cli(['lock', 'repo'], { cwd: dir });
    expect([w.code, w.stdout]).toEqual([0, 'wrote repo/tritonc.lock.json (1 model, 1 version)\n']);
    const written = readFileSync(join(dir, 'repo', LOCK_FILE_NAME), 'utf8');
    expect((await cli(['lock', 'repo', '--check'], { cwd: dir })).code).toBe(0);
    // Writing again changes nothing.
    expect((await cli(['lock', 'repo'], { cwd: dir })).stdout).toBe('repo/tritonc.lock.json is up to date (1 model, 1 version)\n');

    await writeRepo({ 'repo/classifier/1/model.onnx': { ...CLASSIFIER, outputs: [['logits', 'FLOAT', ['batch', 1000]]] } }, dir);
    const stale = await cli(['lock', 'repo', '--check'], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('+                 "name": "logits",');
    expect(stale.stderr).toBe('tritonc lock: refresh it with tritonc lock repo, and commit it\n');
    // The file was not touched by --check.
    expect(readFileSync(join(dir, 'repo', LOCK_FILE_NAME), 'utf8')).toBe(written);
    // lint with the weights present says the lock is stale, and how to refresh it.
    const lint = await cli(['lint', 'repo', '--format', 'json'], { cwd: dir });
    const messages = JSON.parse(lint.stdout)[0].messages.filter((m: { ruleId: string }) => m.ruleId === 'lock-mismatch');
    expect(messages.map((m: { message: string }) => m.message)).toEqual([
      expect.stringContaining(
        "tritonc.lock.json no longer matches version 1 of 'classifier': its inputs or outputs differ from the lock; refresh it with tritonc lock",
      ),
    ]);
  });

  it('bad input is exit 2 with the reason', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': new Uint8Array([0x08, 0x07, 0xff]) });
    const unreadable = await cli(['lock', 'repo'], { cwd: dir });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('cannot lock repo:\n  classifier/1/model.onnx: ');
    expect((await cli(['lock', 'repo/classifier'], { cwd: dir })).stderr).toContain(
      'is a model directory; give the repository that holds it: tritonc lock repo',
    );
    expect((await cli(['lock', 'nowhere'], { cwd: dir })).code).toBe(2);
    writeFileSync(join(dir, 'repo', LOCK_FILE_NAME), '{ "lockfileVersion": 1, "models": { "other": { "versions": {} } } }');
    const foreign = await cli(['lock', 'repo', '--check'], { cwd: dir });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('none of which is a model of');
    const lint = await cli(['lint', 'repo', '--configs-only'], { cwd: dir });
    expect([lint.code, lint.stderr]).toEqual([2, expect.stringContaining('a lock of another repository?')]);
  });
});

describe('lint --configs-only', () => {
  it('a checkout of configs alone: no version errors; the model checks run against the lock, or a note says they did not', async () => {
    const config = CLASSIFIER_CONFIG.replace('TYPE_FP32 dims: [ 1000 ]', 'TYPE_FP16 dims: [ 1000 ]');
    const dir = await writeRepo({
      'repo/classifier/config.pbtxt': config,
      'repo/classifier/1/model.onnx': CLASSIFIER,
      'repo/other/config.pbtxt': CLASSIFIER_CONFIG.replace('classifier', 'other'),
    });
    const repo = join(dir, 'repo');
    const rules = (flags: string[] = []) =>
      cli(['lint', 'repo', '--format', 'json', ...flags], { cwd: dir }).then((r) =>
        JSON.parse(r.stdout)
          .flatMap((f: { filePath: string; messages: { ruleId: string; messageId: string }[] }) =>
            f.messages.map((m) => `${f.filePath.slice(repo.length + 1)} ${m.ruleId}/${m.messageId}`),
          )
          .sort(),
      );
    // Triton's view: 'other' has no version.
    expect(await rules()).toContain('other/config.pbtxt version-dirs/noNumericVersion');

    await cli(['lock', 'repo'], { cwd: dir });
    rmSync(join(repo, 'classifier', '1'), { recursive: true });
    const found = await rules(['--configs-only']);
    expect(found).toContain('classifier/config.pbtxt io-datatype/dataTypeMismatch');
    expect(found).toContain('other/config.pbtxt unchecked-model/notHere');
    expect(found.filter((f: string) => f.includes('version-dirs'))).toEqual([]);
    // The settings file says it too.
    writeFileSync(join(repo, 'tritonc.config.json'), '{ "configsOnly": true }');
    expect(await rules()).toEqual(found);
  });

  it("models named like Object.prototype's keys are locked, read back and checked like any other", async () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty'];
    // Each config's output TYPE_FP16 where the model's is FLOAT: a finding only the lock can give.
    const files = Object.fromEntries(
      names.flatMap((n) => [
        [
          `repo/${n}/config.pbtxt`,
          CLASSIFIER_CONFIG.replace('"classifier"', JSON.stringify(n)).replace('TYPE_FP32 dims: [ 1000 ]', 'TYPE_FP16 dims: [ 1000 ]'),
        ],
        [`repo/${n}/1/model.onnx`, CLASSIFIER],
      ]),
    );
    const dir = await writeRepo(files);
    const repo = join(dir, 'repo');
    const w = await cli(['lock', 'repo'], { cwd: dir });
    expect([w.code, w.stdout, w.stderr]).toEqual([0, 'wrote repo/tritonc.lock.json (3 models, 3 versions)\n', '']);
    const text = readFileSync(join(repo, LOCK_FILE_NAME), 'utf8');
    expect([...text.matchAll(/^ {4}"(\w+)": \{$/gm)].map((m) => m[1])).toEqual(names);
    const read = parseLock(text, 'x');
    expect(names.map((n) => Object.getOwnPropertyDescriptor(read.models, n)?.value.versions['1'].file)).toEqual([
      '1/model.onnx',
      '1/model.onnx',
      '1/model.onnx',
    ]);
    expect(serializeLock(read)).toBe(text);
    expect((await cli(['lock', 'repo', '--check'], { cwd: dir })).code).toBe(0);
    for (const n of names) rmSync(join(repo, n, '1'), { recursive: true });
    const lint = await cli(['lint', 'repo', '--configs-only', '--format', 'json'], { cwd: dir });
    expect(lint.stderr).toBe('');
    const found = (JSON.parse(lint.stdout) as { filePath: string; messages: { ruleId: string; messageId: string }[] }[]).flatMap((f) =>
      f.messages.map((m) => `${f.filePath.slice(repo.length + 1)} ${m.ruleId}/${m.messageId}`),
    );
    for (const n of names) expect(found).toContain(`${n}/config.pbtxt io-datatype/dataTypeMismatch`);
    expect(found.filter((f) => /unchecked-model|version-dirs|lock-mismatch/.test(f))).toEqual([]);
  });

  it('an LFS pointer is an error by default and a note under --configs-only', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': CLASSIFIER_CONFIG, 'repo/classifier/1/model.onnx': LFS_POINTER });
    const def = await cli(['lint', 'repo', '--format', 'json'], { cwd: dir });
    const messages = (r: { stdout: string }) =>
      JSON.parse(r.stdout)
        .flatMap((f: { messages: { ruleId: string; messageId: string; severity: number }[] }) => f.messages)
        .filter((m: { ruleId: string }) => m.ruleId === 'model-unreadable');
    expect(def.code).toBe(1);
    expect(messages(def).map((m: { messageId: string; severity: number }) => [m.messageId, m.severity])).toEqual([['lfsPointer', 2]]);
    const only = await cli(['lint', 'repo', '--configs-only', '--format', 'json'], { cwd: dir });
    expect(only.code).toBe(0);
    expect(messages(only).map((m: { messageId: string; severity: number }) => [m.messageId, m.severity])).toEqual([['lfsPointerElsewhere', 1]]);
  });
});

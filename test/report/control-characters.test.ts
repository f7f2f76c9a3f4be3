// File names and object keys are text from outside: an escape sequence in one must not reach the
// terminal (it could clear the screen, retitle the window or hide a finding), and a newline must not
// split the report's file header. Shown escaped in every human format; machine formats keep the name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { startHostileS3, type HostileS3 } from '../../fixtures/remote/hostile-s3.mjs';
import { tempDir } from '../support/temp.js';

const ESC = '\u001b';
const NAMES = [`clear${ESC}[2Jscreen`, `title${ESC}]0;pwned${String.fromCharCode(7)}x`, 'two\nlines'];
// A finding in each: the config names the model as the directory is named, with an input the model lacks.
const config = (name: string) => CLASSIFIER_CONFIG.replace('name: "classifier"', `name: ${JSON.stringify(name)}`).replace('name: "input"', 'name: "inptu"');

let store: HostileS3 | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** Every line the stylish report prints for a file: its header, then indented findings. */
const headers = (stdout: string) => stdout.split('\n').filter((l) => l && !l.startsWith(' ') && !/problems? \(|infos? \(/.test(l));

describe('control characters in names', () => {
  it('local model directories: stylish and plain output escape them; JSON keeps the name', async () => {
    const files: Record<string, unknown> = {};
    for (const n of NAMES) Object.assign(files, { [`${n}/config.pbtxt`]: config(n), [`${n}/1/model.onnx`]: CLASSIFIER });
    const repo = await writeRepo(files as never);
    const r = await cli(['lint', '.'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain(ESC);
    expect(r.stdout).not.toContain(String.fromCharCode(7));
    expect(headers(r.stdout).sort()).toEqual(['clear\\x1b[2Jscreen/config.pbtxt', 'title\\x1b]0;pwned\\x07x/config.pbtxt', 'two\\nlines/config.pbtxt'].sort());
    const json = await cli(['lint', '.', '-f', 'json'], { cwd: repo });
    expect((JSON.parse(json.stdout) as { filePath: string }[]).map((f) => f.filePath).sort()).toEqual(NAMES.map((n) => join(repo, n, 'config.pbtxt')).sort());
  });

  it('object keys of a remote repository: the same', async () => {
    const model = await writeRepo({ 'm/1/model.onnx': CLASSIFIER });
    const objects: Record<string, Uint8Array> = {};
    for (const n of NAMES) {
      objects[`repo/${n}/config.pbtxt`] = Buffer.from(config(n));
      objects[`repo/${n}/1/model.onnx`] = readFileSync(join(model, 'm', '1', 'model.onnx'));
    }
    store = await startHostileS3(objects, 'honest');
    const r = await cli(['lint', `s3://${store.url}/models/repo`], { cwd: tempDir(), env: { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain(ESC);
    expect(headers(r.stdout)).toHaveLength(3);
    expect(r.stdout).toContain(`s3://${store.url}/models/repo/two\\nlines/config.pbtxt`);
  });
});

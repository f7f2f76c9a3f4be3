// lint --fix and --fix-dry-run, as ESLint's: every fix applied in passes, each checked to parse and to
// change the config only where its finding is; written atomically with --fix, never with --fix-dry-run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { fixProblem, fixSync } from '../../src/lint/fix.js';
import { valueDifferences } from '../../src/config/value-diff.js';
import { defineModelRule } from '../../src/lint/rule.js';
import { RULES } from '../../src/lint/rules/index.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, writeRepo } from './harness.js';

// Three findings with fixes that are certainly right, and a comment to keep: the name in the wrong
// case, the model's data type, and a batch axis in dims; and a did-you-mean that is only a suggestion,
// never applied: a suppression of a rule that does not exist (a typo of a real one).
const BROKEN = `# the tutorial's classifier
name: "Classifier"
backend: "onnxruntime"  # the backend
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP16 dims: [ 1, 3, 224, 224 ] } ]  # tritonc-disable-line queue-dealy
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
`;
const FIXED = BROKEN.replace('"Classifier"', '"classifier"').replace('TYPE_FP16', 'TYPE_FP32').replace('[ 1, 3, 224, 224 ]', '[ 3, 224, 224 ]');

describe('tritonc lint --fix', () => {
  it('applies every fix, keeps the comments, writes the file, and reports what remains', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': BROKEN, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const file = join(dir, 'repo/classifier/config.pbtxt');
    const before = await cli(['lint', 'repo', '--format', 'json'], { cwd: dir });
    const fixable = JSON.parse(before.stdout)[0]
      .messages.filter((m: { fix?: unknown }) => m.fix)
      .map((m: { ruleId: string }) => m.ruleId)
      .sort();
    expect(fixable).toEqual(['batch-dim-in-dims', 'io-datatype', 'name-matches-directory']);

    const r = await cli(['lint', 'repo', '--fix', '--format', 'json'], { cwd: dir });
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(FIXED);
    const report = JSON.parse(r.stdout);
    expect(report[0].output).toBe(text);
    expect(report[0].messages.filter((m: { fix?: unknown }) => m.fix)).toEqual([]);
  });

  it('--fix-dry-run writes nothing, carries the fixed text, and reports the files as they are (their errors, exit 1)', async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': BROKEN, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const file = join(dir, 'repo/classifier/config.pbtxt');
    const r = await cli(['lint', 'repo', '--fix-dry-run', '--format', 'json'], { cwd: dir });
    expect(readFileSync(file, 'utf8')).toBe(BROKEN);
    const report = JSON.parse(r.stdout);
    expect(report[0].output).toBe(FIXED);
    // Nothing was written: the errors on disk are reported as errors, and the exit code says so.
    expect(
      report[0].messages
        .filter((m: { level: string }) => m.level === 'error')
        .map((m: { ruleId: string }) => m.ruleId)
        .sort(),
    ).toEqual(['batch-dim-in-dims', 'io-datatype', 'name-matches-directory']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--fix would apply 3 fixes in 1 file (repo/classifier/config.pbtxt), leaving 0 errors and 1 warning; nothing was written');
    const stylish = await cli(['lint', 'repo', '--fix-dry-run'], { cwd: dir });
    expect(stylish.stdout).toContain('3 errors');
    expect(stylish.code).toBe(1);
    expect((await cli(['lint', 'repo', '--fix', '--fix-dry-run'], { cwd: dir })).code).toBe(2);
  });

  it('refuses a fix that would change the config beyond its finding, and says why', async () => {
    // A rule whose fix of max_batch_size also rewrites the name: tritonc must not apply it.
    const greedy = defineModelRule({
      meta: {
        id: 'greedy',
        category: 'style',
        defaultSeverity: 'warning',
        requiresModel: false,
        description: 'test',
        prevents: [],
        messages: { m: 'set max_batch_size to 4' },
      },
      check(ctx) {
        if (ctx.config.max_batch_size === 4) return;
        const edit = ctx.edits.replaceValue(['max_batch_size'], '4');
        const also = ctx.edits.replaceValue(['name'], '"other"');
        ctx.report({ path: ['max_batch_size'], messageId: 'm', fix: { description: 'set it', edits: [edit, also] } });
      },
    });
    const dir = await writeRepo({
      'repo/classifier/config.pbtxt': 'name: "classifier"\nbackend: "onnxruntime"\nmax_batch_size: 8\n',
      'repo/classifier/1/model.onnx': CLASSIFIER,
    });
    const run = fixSync([join(dir, 'repo')], { cwd: dir, rules: [greedy] });
    expect(run.files).toEqual([]);
    expect(run.refused.map((r) => r.reason)).toEqual(['it would also change name, beyond the finding']);
  });
});

describe('the meaning check', () => {
  const at = (path: Diagnostic['path'], start: number, end: number, text: string): Diagnostic => ({
    ruleId: 'x',
    severity: 'warning',
    message: 'm',
    file: 'c.pbtxt',
    path,
    range: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } },
    fix: {
      description: 'd',
      edits: [{ range: { start: { line: 1, column: start + 1, offset: start }, end: { line: 1, column: end + 1, offset: end } }, text }],
    },
  });
  it("allows a change at the finding's path, refuses one elsewhere, one that does not parse, and a value change for a finding with no path", () => {
    const text = 'max_batch_size: 8 name: "m"';
    expect(fixProblem(text, at(['max_batch_size'], 16, 17, '4'))).toBeUndefined();
    expect(fixProblem(text, at(['max_batch_size'], 24, 27, '"n"'))).toBe('it would also change name, beyond the finding');
    expect(fixProblem(text, at(['max_batch_size'], 16, 17, '{'))).toMatch(/^the result does not parse/);
    expect(fixProblem(text, at([], 16, 17, '4'))).toBe('it would also change max_batch_size, beyond the finding');
    // A comment may go whatever the path.
    expect(fixProblem(`${text} # x`, at([], 28, 31, ''))).toBeUndefined();
    expect(valueDifferences({ a: [1, 2], b: 1 }, { a: [1, 3], c: 1 })).toEqual([['a', 1], ['b'], ['c']]);
  });

  it('an element removed or inserted changes the list there, not every element after it', () => {
    expect(valueDifferences({ dims: [-1, 3, 224, 224] }, { dims: [3, 224, 224] })).toEqual([['dims', 0]]);
    expect(valueDifferences([1, 2, 3, 4], [1, 4])).toEqual([[1], [2]]);
    expect(valueDifferences([1, 2], [1, 9, 2])).toEqual([[1]]);
    expect(valueDifferences([{ n: 'a' }, { n: 'b' }], [{ n: 'b' }])).toEqual([[0]]);
  });

  it('batch-dim-in-dims, the commonest finding, is fixed by lint --fix (removing dims[0])', async () => {
    const config =
      'name: "m"\nbackend: "onnxruntime"\nmax_batch_size: 32\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
    const dir = await writeRepo({ 'repo/m/config.pbtxt': config, 'repo/m/1/model.onnx': CLASSIFIER });
    const r = await cli(['lint', '--fix', 'repo'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'repo/m/config.pbtxt'), 'utf8')).toBe(config.replace('[ -1, 3, 224, 224 ]', '[ 3, 224, 224 ]'));
  });

  it("every fix tritonc's rules make on the fixtures passes it (none is refused)", async () => {
    const dir = await writeRepo({ 'repo/classifier/config.pbtxt': BROKEN, 'repo/classifier/1/model.onnx': CLASSIFIER });
    const run = fixSync([join(dir, 'repo')], { cwd: dir, rules: RULES });
    expect(run.refused).toEqual([]);
    expect(run.files.map((f) => f.applied.map((d) => d.ruleId).sort())).toEqual([['batch-dim-in-dims', 'io-datatype', 'name-matches-directory']]);
  });
});

// The GitHub Action (action.yml) run as a workflow runner runs a composite action's steps
// (test/support/actions-runner.ts): on the example repository, on a broken one, and on hostile inputs;
// its SARIF validated against the SARIF 2.1.0 schema of the OASIS standard. The upload to code
// scanning (github/codeql-action/upload-sarif) cannot run here: the test checks what it would be given.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { expressionsIn, readAction, runComposite, type ActionRun } from '../support/actions-runner.js';
import { tempDir } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ACTION = readAction(join(ROOT, 'action.yml'));
// The built CLI, as the action's `tritonc` input takes an installed one (no npm registry here).
const TRITONC = join(ROOT, 'bin', 'tritonc.js');
const SARIF_SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/schemas/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));

type Json = Record<string, any>;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli.cjs'))) throw new Error('dist/cli.cjs is missing: run npm run build (npm ci does it)');
});

function run(workspace: string, inputs: Record<string, string>): ActionRun {
  return runComposite(ACTION, { actionPath: ROOT, workspace, inputs: { tritonc: TRITONC, ...inputs } });
}

const step = (r: ActionRun, name: string) => r.steps.find((s) => s.step.name === name);

/** The SARIF the lint step wrote, checked against the schema. */
function sarifOf(r: ActionRun): Json {
  const file = r.outputs['sarif-file']!;
  expect(file).toBeTruthy();
  const log = JSON.parse(readFileSync(file, 'utf8')) as Json;
  const result = new Validator(SARIF_SCHEMA, '4', false).validate(log);
  expect(result.errors).toEqual([]);
  return log;
}

const results = (log: Json) =>
  (log.runs[0].results as Json[]).map((x) => [
    x.ruleId,
    x.level,
    x.locations[0].physicalLocation.artifactLocation.uri,
    x.locations[0].physicalLocation.region.startLine,
  ]);

/** A checkout holding a copy of the example repository, its config changed by `edit`. */
function checkout(edit: (config: string) => string = (c) => c): string {
  const dir = tempDir('tritonc-action-');
  cpSync(join(ROOT, 'model_repository'), join(dir, 'model_repository'), { recursive: true });
  const config = join(dir, 'model_repository', 'classifier', 'config.pbtxt');
  writeFileSync(config, edit(readFileSync(config, 'utf8')));
  return dir;
}

describe('action.yml', () => {
  it('is composite; its scripts hold no expression, every input reaches them through env', () => {
    expect(ACTION.runs.using).toBe('composite');
    const used = new Set<string>();
    for (const s of ACTION.runs.steps) {
      if (s.run !== undefined) {
        expect(s.shell, s.name).toBe('bash');
        expect(s.run, s.name).not.toContain('${{');
      }
      for (const v of [...Object.values(s.env ?? {}), ...Object.values(s.with ?? {}), s.if ?? '']) {
        for (const e of expressionsIn(String(v))) if (e.startsWith('inputs.')) used.add(e.slice('inputs.'.length));
        if (s.if) for (const m of s.if.matchAll(/inputs\.([a-z-]+)/g)) used.add(m[1]!);
      }
    }
    // Every input is used, and the server's flags, configs-only and fail-on are among them.
    expect([...used].sort()).toEqual(Object.keys(ACTION.inputs).sort());
    for (const input of [
      'model-repository',
      'disable-auto-complete-config',
      'strict-model-config',
      'backend-config',
      'backend-directory',
      'configs-only',
      'fail-on',
    ])
      expect(ACTION.inputs).toHaveProperty(input);
    const upload = ACTION.runs.steps.find((s) => s.uses !== undefined)!;
    expect(upload.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
  });

  it('the example repository: two infos, the job passes, SARIF 2.1.0 with them, two notices on the pull request', () => {
    const r = run(ROOT, { paths: 'model_repository' });
    expect(r.success, JSON.stringify(r.steps.map((s) => [s.step.name, s.code, s.stderr]))).toBe(true);
    const log = sarifOf(r);
    expect(results(log)).toEqual([
      ['instance-memory', 'note', 'model_repository/classifier/config.pbtxt', 3],
      ['fp16-accuracy', 'note', 'model_repository/classifier/config.pbtxt', 32],
    ]);
    expect(log.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe(pathToFileURL(ROOT).href);
    expect(r.outputs).toMatchObject({ 'exit-code': '0', errors: '0', warnings: '0', infos: '2' });
    const lint = step(r, 'Lint')!;
    expect(lint.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      expect.stringMatching(/^::notice file=model_repository\/classifier\/config\.pbtxt,line=3,.*title=tritonc\(instance-memory\)::estimated GPU memory/),
      expect.stringMatching(/^::notice file=model_repository\/classifier\/config\.pbtxt,line=32,.*title=tritonc\(fp16-accuracy\)::precision_mode FP16/),
    ]);
    expect(lint.summary).toContain('| 0 | 0 | 2 |');
    // What upload-sarif would be given: the file the lint wrote, under the category.
    expect(step(r, 'Upload to code scanning')!.with).toEqual({ sarif_file: r.outputs['sarif-file'], category: 'tritonc' });
    // fail-on: info fails the same run.
    const strict = run(ROOT, { paths: 'model_repository', 'fail-on': 'info' });
    expect(strict.success).toBe(false);
    expect(step(strict, 'Fail on findings')!.stderr).toContain('2 finding(s) at or above fail-on: info');
  });

  it('a broken repository: the error in SARIF and on the pull request, the job fails unless fail-on: none', () => {
    const dir = checkout((c) => c.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'));
    const r = run(dir, { paths: 'model_repository' });
    expect(r.success).toBe(false);
    expect(results(sarifOf(r))).toContainEqual(['batch-dim-in-dims', 'error', 'model_repository/classifier/config.pbtxt', 10]);
    expect(r.outputs).toMatchObject({ 'exit-code': '1', errors: '1' });
    expect(step(r, 'Lint')!.stdout).toMatch(
      /^::error file=model_repository\/classifier\/config\.pbtxt,line=10,endLine=10,col=\d+,endColumn=\d+,title=tritonc\(batch-dim-in-dims\)::dims \[1,3,224,224\] include the batch axis/m,
    );
    const gate = step(r, 'Fail on findings')!;
    expect(gate.code).toBe(1);
    expect(gate.stderr).toContain('1 finding(s) at or above fail-on: error (1 errors, 0 warnings, 2 infos)');
    expect(run(dir, { paths: 'model_repository', 'fail-on': 'none' }).success).toBe(true);
    // A warning alone fails the job from fail-on: warning only.
    const warned = checkout((c) => c.replace('max_queue_delay_microseconds: 5000', 'max_queue_delay_microseconds: 50000'));
    const lenient = run(warned, { paths: 'model_repository' });
    expect(lenient.outputs).toMatchObject({ 'exit-code': '0', errors: '0', warnings: '1' });
    expect(lenient.success).toBe(true);
    expect(step(lenient, 'Lint')!.stdout).toMatch(/^::warning file=model_repository\/classifier\/config\.pbtxt,line=\d+,.*title=tritonc\(queue-delay\)::/m);
    expect(run(warned, { paths: 'model_repository', 'fail-on': 'warning' }).success).toBe(false);
  });

  it("the server's flags and --configs-only reach tritonc", () => {
    // Without config.pbtxt, the ONNX model is auto-completed; a server started with
    // --disable-auto-complete-config refuses it.
    const dir = checkout();
    const bare = join(dir, 'models');
    cpSync(join(dir, 'model_repository', 'classifier', '1'), join(bare, 'bare', '1'), { recursive: true });
    expect(run(dir, { paths: 'models' }).outputs.errors).toBe('0');
    for (const flag of [{ 'disable-auto-complete-config': 'true' }, { 'strict-model-config': 'true' }] as Record<string, string>[]) {
      const strict = run(dir, { paths: 'models', ...flag });
      expect(strict.success).toBe(false);
      expect(results(sarifOf(strict)).filter((x) => x[1] === 'error')).toEqual([['missing-config', 'error', 'models/bare/config.pbtxt', 1]]);
    }
    // The repositories one server serves, without paths: both linted, the server's flag applied to both.
    const both = run(dir, { paths: '', 'model-repository': 'model_repository\n  models  \n\n', 'disable-auto-complete-config': 'true' });
    expect(new Set(results(sarifOf(both)).map((x) => String(x[2]).split('/')[0]))).toEqual(new Set(['model_repository', 'models']));
    expect(results(sarifOf(both))).toContainEqual(['missing-config', 'error', 'models/bare/config.pbtxt', 1]);
    // A --backend-config Triton would refuse is tritonc's exit 2: the job fails, saying so.
    const bad = run(dir, { paths: 'models', 'backend-config': 'no-equals-sign' });
    expect(bad.success).toBe(false);
    expect(bad.outputs['exit-code']).toBe('2');
    expect(step(bad, 'Lint')!.stderr).toContain('--backend-config');
    // The server's backend libraries: the example's onnxruntime is refused where its library is not.
    const backends = join(dir, 'backends');
    mkdirSync(backends);
    const noLibrary = run(dir, { paths: 'model_repository', 'backend-directory': backends });
    expect(noLibrary.success).toBe(false);
    expect(results(sarifOf(noLibrary))).toContainEqual(['backend-library', 'error', 'model_repository/classifier/config.pbtxt', 4]);
    mkdirSync(join(backends, 'onnxruntime'));
    writeFileSync(join(backends, 'onnxruntime', 'libtriton_onnxruntime.so'), '');
    expect(run(dir, { paths: 'model_repository', 'backend-directory': backends }).success).toBe(true);
    // A checkout without the weights: an error, unless configs-only says they come from elsewhere.
    const configsOnly = checkout();
    rmSync(join(configsOnly, 'model_repository', 'classifier', '1'), { recursive: true });
    expect(run(configsOnly, { paths: 'model_repository' }).outputs['exit-code']).toBe('1');
    expect(run(configsOnly, { paths: 'model_repository', 'configs-only': 'true' }).outputs['exit-code']).toBe('0');
  });

  it("without a tritonc given, it installs the action's version (or the one asked) from npm, scripts off, and runs it", () => {
    // npm stands in here (no registry): it records its arguments and does what npm install --prefix
    // DIR does for a package with a bin (npm's docs, "folders": executables are linked into
    // DIR/node_modules/.bin), with the built CLI as the package.
    const bin = tempDir('tritonc-npm-');
    const log = join(bin, 'npm.log');
    writeFileSync(
      join(bin, 'npm'),
      `#!/bin/bash\nprintf '%s\\n' "$@" > ${JSON.stringify(log)}\nprefix=$3\nmkdir -p "$prefix/node_modules/.bin"\nln -s ${JSON.stringify(TRITONC)} "$prefix/node_modules/.bin/tritonc"\n`,
    );
    chmodSync(join(bin, 'npm'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const r = runComposite(ACTION, { actionPath: ROOT, workspace: ROOT, inputs: { paths: 'model_repository' }, env });
    expect(r.success, JSON.stringify(r.steps.map((s) => [s.step.name, s.code, s.stderr]))).toBe(true);
    const args = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(args).toEqual([
      'install',
      '--prefix',
      expect.stringMatching(/\/tritonc-install\.\w+$/),
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `tritonc@${version}`,
    ]);
    expect(r.outputs.infos).toBe('2');
    runComposite(ACTION, { actionPath: ROOT, workspace: ROOT, inputs: { paths: 'model_repository', version: 'latest' }, env });
    expect(readFileSync(log, 'utf8').trimEnd().split('\n').at(-1)).toBe('tritonc@latest');
  });

  it('hostile inputs stay data: no command runs, no flag is taken from a path, bad values are refused by name', () => {
    const dir = checkout();
    const before = readFileSync(join(dir, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8');
    const r = run(dir, { paths: '$(touch pwned-1)\n`touch pwned-2`\n--fix\nmodel_repository; touch pwned-3' });
    expect(r.success).toBe(false);
    expect(r.outputs['exit-code']).toBe('2');
    expect(step(r, 'Lint')!.stderr).toContain('$(touch pwned-1)');
    const flag = run(dir, { paths: 'model_repository', 'backend-config': 'onnxruntime,default-max-batch-size=8"; touch pwned-4; echo "' });
    expect(flag.outputs['exit-code']).toBe('2');
    expect(step(flag, 'Lint')!.stderr).toContain('default-max-batch-size takes a whole number');
    expect(readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
    expect(readFileSync(join(dir, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8')).toBe(before);
    // A path --fix is the path ./--fix: a fixable error stays in the file.
    const fixable = checkout((c) => c.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'));
    const broken = readFileSync(join(fixable, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8');
    const asFlag = run(fixable, { paths: '--fix\nmodel_repository' });
    expect(step(asFlag, 'Lint')!.stderr).toContain('./--fix');
    expect(readFileSync(join(fixable, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8')).toBe(broken);
    for (const [input, value] of [
      ['fail-on', 'error; touch pwned-5'],
      ['configs-only', 'yes'],
      ['disable-auto-complete-config', '1'],
      ['upload-sarif', 'True'],
    ] as const) {
      const bad = run(dir, { paths: 'model_repository', [input]: value });
      expect(bad.success).toBe(false);
      expect(step(bad, 'Lint')!.stdout).toContain(`::error title=tritonc action::input ${input}:`);
    }
    const missing = run(dir, { tritonc: 'no/such/tritonc' });
    expect(step(missing, 'Set up tritonc')!.stdout).toContain("::error title=tritonc action::input tritonc: 'no/such/tritonc' is not an executable file");
    // A version that is not one (npm would take a URL or a file) is refused before npm runs.
    const version = runComposite(ACTION, { actionPath: ROOT, workspace: dir, inputs: { version: 'file:../evil' } });
    expect(version.success).toBe(false);
    expect(step(version, 'Set up tritonc')!.stdout).toContain("::error title=tritonc action::input version: 'file:../evil' is not a version");
    expect(readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
  });
});

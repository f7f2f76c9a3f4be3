import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, runBin, tempDir } from '../support/cli.js';
import { CLASSIFIER, writeRepo, type RepoFiles } from '../lint/harness.js';

// A model every rule is happy with, and the same model with one error (the batch axis in dims) and
// one warning (a 50 ms queue delay).
const CLEAN = `name: "classifier"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { max_queue_delay_microseconds: 2000 }
instance_group [ { count: 1 kind: KIND_GPU } ]
`;
const BROKEN = CLEAN.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]').replace('2000', '50000');
const WARNING_ONLY = CLEAN.replace('2000', '50000');
const OFF = ['--rule', 'instance-memory=off'];

const repo = (config: string, extra: RepoFiles = {}) =>
  writeRepo({ 'models/classifier/config.pbtxt': config, 'models/classifier/1/model.onnx': CLASSIFIER, ...extra });

const errorsOf = (stdout: string, rule: string) =>
  (JSON.parse(stdout) as { messages: { ruleId: string }[] }[]).flatMap((f) => f.messages).filter((m) => m.ruleId === rule);

describe('tritonc lint', () => {
  it('a model directory without a config: the model Triton would auto-complete from is read, as when named', async () => {
    const dir = await writeRepo({ 'm/1/model.onnx': '' });
    const byDir = await cli(['lint', 'm', '--format', 'json'], { cwd: dir });
    const byFile = await cli(['lint', 'm/1/model.onnx', '--format', 'json'], { cwd: dir });
    expect(byDir.code).toBe(1);
    expect(byDir.stdout).toBe(byFile.stdout);
    expect(errorsOf(byDir.stdout, 'model-unreadable')).toHaveLength(1);
  });

  it('exit 0 and no output for a clean repository (stylish)', async () => {
    const dir = await repo(CLEAN);
    const r = await cli(['lint', ...OFF], { cwd: dir });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exit 1 on errors, stylish report with positions, rule ids and a summary', async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', 'models', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('models/classifier/config.pbtxt\n');
    expect(r.stdout).toMatch(
      / {2}4:54 {2}error +dims \[1,3,224,224\] include the batch axis; with max_batch_size: 8 Triton expects dims \[3,224,224\].* {2}batch-dim-in-dims\n/,
    );
    expect(r.stdout).toContain('queue-delay');
    expect(r.stdout).toMatch(/\u2716 \d+ problems \(\d+ errors?, \d+ warnings?\)/);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('warnings alone exit 0, unless there are more than --max-warnings', async () => {
    const dir = await repo(WARNING_ONLY);
    expect((await cli(['lint', ...OFF], { cwd: dir })).code).toBe(0);
    const r = await cli(['lint', '--max-warnings', '0', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tritonc found too many warnings (maximum: 0).\n');
    expect((await cli(['lint', '--max-warnings', '1', ...OFF], { cwd: dir })).code).toBe(0);
  });

  it('--quiet reports errors only', async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', '--quiet', '--format', 'json', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    const levels = (JSON.parse(r.stdout) as { messages: { level: string }[] }[]).flatMap((f) => f.messages.map((m) => m.level));
    expect(new Set(levels)).toEqual(new Set(['error']));
  });

  it("--format json is ESLint's shape", async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', '-f', 'json', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    const [file] = JSON.parse(r.stdout);
    expect(file.filePath).toBe(join(dir, 'models/classifier/config.pbtxt'));
    expect(errorsOf(r.stdout, 'batch-dim-in-dims')).toEqual([
      {
        ruleId: 'batch-dim-in-dims',
        messageId: 'includesBatchAxis',
        severity: 2,
        level: 'error',
        message: expect.stringContaining('include the batch axis'),
        line: 4,
        column: 54,
        endLine: 4,
        endColumn: 55,
        fix: { range: [expect.any(Number), expect.any(Number)], text: 'dims: [ 3, 224, 224 ]' },
      },
    ]);
  });

  it('--format sarif -o FILE writes a SARIF 2.1.0 log', async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', '--format', 'sarif', '-o', 'out/tritonc.sarif', ...OFF], { cwd: await mkdirp(dir, 'out') });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    const log = JSON.parse(readFileSync(join(dir, 'out/tritonc.sarif'), 'utf8'));
    expect(log.version).toBe('2.1.0');
    const result = log.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'batch-dim-in-dims');
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe('models/classifier/config.pbtxt');
  });

  it('--format github, and the default under GitHub Actions', async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', ...OFF], { cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir } });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      '::error file=models/classifier/config.pbtxt,line=4,endLine=4,col=54,endColumn=55,title=tritonc(batch-dim-in-dims)::dims [1,3,224,224] include the batch axis',
    );
    expect(r.stdout).toContain('::warning file=models/classifier/config.pbtxt,line=6');
    expect((await cli(['lint', '--format', 'github', ...OFF], { cwd: dir })).stdout).toMatch(/^::error /);
  });

  it('colours stylish output with FORCE_COLOR or --color, never with --no-color', async () => {
    const dir = await repo(BROKEN);
    expect((await cli(['lint', ...OFF], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).toContain('\u001b[31m');
    expect((await cli(['lint', '--color', ...OFF], { cwd: dir })).stdout).toContain('\u001b[31m');
    expect((await cli(['lint', '--no-color', ...OFF], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });

  it('--rule and --gpu-memory', async () => {
    const dir = await repo(WARNING_ONLY);
    expect((await cli(['lint', '--rule', 'queue-delay=error', ...OFF], { cwd: dir })).code).toBe(1);
    const mem = await cli(['lint', '--gpu-memory', '200MiB', '-f', 'json'], { cwd: dir });
    expect(mem.code).toBe(1);
    expect(errorsOf(mem.stdout, 'instance-memory')[0]).toMatchObject({ level: 'error' });
    expect((await cli(['lint', '--gpu-memory', 'T4', '--rule', 'queue-delay=off'], { cwd: dir })).code).toBe(0);
  });

  it('pre-commit style: config and model file names map to their model', async () => {
    const dir = await repo(BROKEN);
    const r = await cli(['lint', '-f', 'json', 'models/classifier/1/model.onnx', 'models/classifier/config.pbtxt', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

  it('a corrupt model is a lint error in the model file (exit 1), not a crash', async () => {
    const dir = await writeRepo({ 'models/classifier/config.pbtxt': CLEAN, 'models/classifier/1/model.onnx': 'version https://git-lfs.github.com/spec/v1\n' });
    const r = await cli(['lint', '-f', 'json', ...OFF], { cwd: dir });
    expect(r.code).toBe(1);
    expect(errorsOf(r.stdout, 'model-unreadable')[0]).toMatchObject({
      line: 1,
      messageId: 'lfsPointerUnsized',
      message: expect.stringContaining('run git lfs pull'),
    });
  });

  it('exit 2: missing paths, bad flags, bad settings, nothing to lint', async () => {
    const dir = await repo(CLEAN, { 'bad/tritonc.config.json': '{"rules": {"queue-delay": "loud"}}', 'bad/m/config.pbtxt': '' });
    expect(await cli(['lint', 'nope'], { cwd: dir })).toMatchObject({ code: 2, stderr: 'tritonc lint: nope: no such file or directory\n' });
    expect((await cli(['lint', '--rule', 'queue-dealy=off'], { cwd: dir })).stderr).toBe(
      "tritonc lint: --rule queue-dealy=off: unknown rule 'queue-dealy' (did you mean 'queue-delay'?)\n",
    );
    expect((await cli(['lint', '--gpu-memory', 'lots'], { cwd: dir })).code).toBe(2);
    expect((await cli(['lint', '--format', 'xml'], { cwd: dir })).code).toBe(2);
    expect((await cli(['lint', '--max-warnings', 'x'], { cwd: dir })).code).toBe(2);
    const bad = await cli(['lint', 'bad'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`tritonc lint: settings: ${join(dir, 'bad/tritonc.config.json')}: rules.queue-delay: expected one of`);
    expect((await cli(['lint', '--config', 'missing.json'], { cwd: dir })).stderr).toContain('missing.json: cannot read the settings file: no such file');
    expect((await cli(['lint', 'models/classifier/1'], { cwd: dir })).code).toBe(2);
  });

  // The bundle the test command builds first (npm test, npm run test:heavy): rebuilding it here would
  // remove dist/ under the other files' real processes, which run beside this one.
  describe('as a real process', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    it('bin/tritonc.js lint: exit codes, output, no stack traces', async () => {
      expect(existsSync(join(root, 'dist/cli.cjs'))).toBe(true);
      const dir = await repo(BROKEN);
      const r = runBin(['lint', '-f', 'json', 'models'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(errorsOf(r.stdout, 'batch-dim-in-dims')).toHaveLength(1);
      const clean = await repo(CLEAN);
      expect(runBin(['lint', ...OFF], { cwd: clean })).toMatchObject({ code: 0, stdout: '' });
      const missing = runBin(['lint', 'nope'], { cwd: clean });
      expect(missing.code).toBe(2);
      expect(missing.stderr).not.toMatch(/\n\s+at /);
    });

    it('the bundle makes no Unicode-property pattern or segmenter at load (scripts/build.mjs), and help still measures text', () => {
      const bundle = readFileSync(join(root, 'dist/cli.cjs'), 'latin1');
      // A pattern or segmenter made where a module is defined (`var x=new RegExp("...\\p{...")`), not inside a function.
      expect(bundle.match(/var [\w$]+=(new RegExp\("[^"]*\\\\p\{|new Intl\.Segmenter)/g) ?? []).toEqual([]);
      expect(bundle).toContain('RGI_Emoji');
      const help = runBin(['lint', '--help'], { cwd: root });
      expect(help.code).toBe(0);
      // Columns laid out by string-width: the description beside the flag, the type at the line's end.
      expect(help.stdout).toMatch(/^ +--cache {10,}Keep model signatures .*\n {30,}.* +\[boolean\]$/m);
    });

    it("loads only lint's code (src/cli/commands.ts): not node:http, node:https, node:crypto (the KServe client, tune, deploy), node:child_process, node:zlib or node:assert (yargs)", () => {
      // Preloaded into the process: at exit, the built-in modules it loaded (process.moduleLoadList).
      const probe = join(tempDir('tritonc-modules-'), 'probe.cjs');
      writeFileSync(
        probe,
        "process.on('exit', () => require('fs').writeSync(2, '\\nMODULES ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ') + '\\n'));\n",
      );
      const r = runBin(['lint', 'model_repository/classifier'], { cwd: root, env: { NODE_OPTIONS: `--require ${probe}` } });
      expect(r.code, r.stderr).toBe(0);
      const loaded = /MODULES (.*)/.exec(r.stderr)![1]!.split(' ');
      expect(loaded).toContain('fs');
      expect(loaded.filter((m) => ['http', 'https', 'crypto', 'tls', 'child_process', 'zlib', 'assert'].includes(m))).toEqual([]);
    });
  });
});

async function mkdirp(dir: string, sub: string): Promise<string> {
  await writeRepo({ [`${sub}/.keep`]: '' }, dir);
  return dir;
}

// No command writes through a symbolic link (util/atomic-write.ts): a repository can ship
// `m/config.pbtxt -> ~/.bash_profile`, dangling until a write creates it, or a model directory that
// is a link out of the repository. Each writing command, given such a link where it would write,
// exits 2 naming the link and where it leads, and the file the link leads to is neither created nor
// changed. (tune plan's --out, lock's file and client's --out were refused before; their tests are
// test/tune/tune-cli.test.ts, test/cli/own-files.test.ts and test/cli/client.test.ts.)
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const PRECIOUS = '# a file outside the repository\nexport PATH=$HOME/bin:$PATH\n';
const UGLY =
  'name:"classifier"\nbackend:"onnxruntime"\nmax_batch_size:8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
// An input typed other than the model's: lint --fix has a fix for it (io-datatype; a misspelt backend
// is only a suggestion, which --fix never applies).
const FIXABLE = UGLY.replace('name: "input" data_type: TYPE_FP32', 'name: "input" data_type: TYPE_INT32');

/** A directory outside the repository: `live`, a file there, and `absent`, a path with nothing at it. */
function outside(content = PRECIOUS): { dir: string; live: string; absent: string } {
  const dir = tempDir('tritonc-outside-');
  writeFileSync(join(dir, 'victim'), content);
  return { dir, live: join(dir, 'victim'), absent: join(dir, 'created') };
}

/** What each case checks: exit 2, the link and its target named, the target as it was. */
function refused(r: { code: number; stderr: string }, target: string, before: string | undefined): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(`is a symbolic link to ${target}`);
  expect(r.stderr).toContain('tritonc writes nothing through a link');
  if (before === undefined) expect(existsSync(target)).toBe(false);
  else expect(readFileSync(target, 'utf8')).toBe(before);
}

describe.each([
  ['dangling', (o: ReturnType<typeof outside>) => o.absent],
  ['live', (o: ReturnType<typeof outside>) => o.live],
] as const)('a %s link where a command writes', (kind, pick) => {
  const before = (o: ReturnType<typeof outside>) => (kind === 'live' ? readFileSync(o.live, 'utf8') : undefined);

  it('generate --write: a config.pbtxt that is a link', async () => {
    const repo = await writeRepo({ 'm/1/model.onnx': CLASSIFIER });
    const o = outside();
    symlinkSync(pick(o), join(repo, 'm', 'config.pbtxt'));
    // --force: a live link's file is no config tritonc wrote, which generate would otherwise not replace.
    const r = await cli(['generate', '.', '--write', '--force'], { cwd: repo });
    refused(r, pick(o), before(o));
    expect(r.stderr).toContain('cannot write m/config.pbtxt');
  });

  it('lint --output-file: the report file is a link', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const o = outside();
    symlinkSync(pick(o), join(repo, 'report.json'));
    refused(await cli(['lint', '.', '--format', 'json', '--output-file', 'report.json'], { cwd: repo }), pick(o), before(o));
  });

  it('fill --output: the destination is a link', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'template.pbtxt'), 'name: "m"\nmax_batch_size: ${triton_max_batch_size}\n');
    const o = outside();
    symlinkSync(pick(o), join(dir, 'out.pbtxt'));
    refused(await cli(['fill', 'template.pbtxt', 'triton_max_batch_size:8', '--output', 'out.pbtxt'], { cwd: dir }), pick(o), before(o));
  });

  it('tune pick --plot: the SVG file is a link', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    expect((await cli(['tune', 'plan', 'classifier', '--out', 'plan', '--delays', '0', '--instances', '1'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'plan', 'classifier_d0_i1', 'perf.csv'), PERF_CSV);
    const o = outside();
    symlinkSync(pick(o), join(repo, 'tune.svg'));
    refused(await cli(['tune', 'pick', 'plan', '--latency-budget', '20ms', '--plot', 'tune.svg'], { cwd: repo }), pick(o), before(o));
  });
});

describe('a live link to a config outside the repository', () => {
  it('fmt --write leaves the file it leads to as it was', async () => {
    const repo = await writeRepo({ 'classifier/1/model.onnx': CLASSIFIER });
    const o = outside(UGLY);
    symlinkSync(o.live, join(repo, 'classifier', 'config.pbtxt'));
    const r = await cli(['fmt', '--write', '.'], { cwd: repo });
    refused(r, o.live, UGLY);
  });

  it('lint --fix leaves the file it leads to as it was', async () => {
    const repo = await writeRepo({ 'classifier/1/model.onnx': CLASSIFIER });
    const o = outside(FIXABLE);
    symlinkSync(o.live, join(repo, 'classifier', 'config.pbtxt'));
    refused(await cli(['lint', '.', '--fix'], { cwd: repo }), o.live, FIXABLE);
  });

  it('tune pick --write leaves the file it leads to as it was', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    expect((await cli(['tune', 'plan', 'classifier', '--out', 'plan', '--delays', '1ms', '--instances', '2'], { cwd: repo })).code).toBe(0);
    writeFileSync(join(repo, 'plan', 'classifier_d1000_i2', 'perf.csv'), PERF_CSV);
    const o = outside(CLASSIFIER_CONFIG);
    const config = join(repo, 'classifier', 'config.pbtxt');
    rmSync(config);
    symlinkSync(o.live, config);
    refused(await cli(['tune', 'pick', 'plan', '--latency-budget', '20ms', '--write', 'classifier'], { cwd: repo }), o.live, CLASSIFIER_CONFIG);
  });
});

describe('a model directory that is a link out of the repository given', () => {
  /** repo/m -> <outside>/m, a model directory with the classifier and `config` as its config.pbtxt (none when undefined). */
  async function linkedModel(config?: string) {
    const repo = await writeRepo({ 'other/config.pbtxt': CLASSIFIER_CONFIG.replace('"classifier"', '"other"'), 'other/1/model.onnx': CLASSIFIER });
    const away = await writeRepo({ 'm/1/model.onnx': CLASSIFIER, ...(config === undefined ? {} : { 'm/config.pbtxt': config }) });
    symlinkSync(join(away, 'm'), join(repo, 'm'));
    return { repo, away: join(away, 'm'), config: join(away, 'm', 'config.pbtxt') };
  }

  it('generate --write of the repository creates no config through it; named itself, the model directory is written', async () => {
    const { repo, away, config } = await linkedModel();
    const r = await cli(['generate', '.', '--write'], { cwd: repo });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${join(repo, 'm')}, a directory on its path, is a symbolic link to ${away}`);
    expect(existsSync(config)).toBe(false);
    // The user named the link: that is where they asked to write.
    const named = await cli(['generate', 'm', '--write'], { cwd: repo });
    expect(named.code, named.stderr).toBe(0);
    expect(existsSync(config)).toBe(true);
  });

  it('fmt --write and lint --fix of the repository leave the config behind it as it was', async () => {
    const { repo, config } = await linkedModel(FIXABLE.replace('"classifier"', '"m"'));
    const fmt = await cli(['fmt', '--write', '.'], { cwd: repo });
    expect(fmt.code, fmt.stderr).toBe(2);
    expect(fmt.stderr).toContain('a directory on its path, is a symbolic link');
    const fix = await cli(['lint', '.', '--fix'], { cwd: repo });
    expect(fix.code, fix.stderr).toBe(2);
    expect(fix.stderr).toContain('a directory on its path, is a symbolic link');
    expect(readFileSync(config, 'utf8')).toBe(FIXABLE.replace('"classifier"', '"m"'));
  });
});

// perf_analyzer's CSV (src/report_writer.cc's columns), one concurrency: enough for pick to choose.
const PERF_CSV =
  'Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n' +
  '1,100,200,300,100,50,8000,20,10,5400,7200,8100,9000\n';

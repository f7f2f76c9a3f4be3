// tritonc tune plan and pick as a user runs them: plan a real model directory (an ONNX classifier),
// lay perf_analyzer's CSVs in the variants as run.sh would (written in perf_analyzer's documented form,
// src/report_writer.cc), pick within a budget, plot, and write the winner back.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, lstatSync, openSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const CONFIG = `# The classifier, as the team wrote it
name: "classifier"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching {
  max_queue_delay_microseconds: 5000 # five ms, a guess
}
`;
const HEADER =
  'Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency';
/** A perf_analyzer CSV: rows [concurrency, infer/sec, queue us, compute us, p99 us], written in throughput order. */
const perfCsv = (rows: [number, number, number, number, number][]) =>
  `${HEADER}\n${[...rows]
    .sort((a, b) => a[1] - b[1])
    .map(([c, t, q, comp, p99]) => `${c},${t},200,300,${q},50,${comp},20,10,${Math.round(p99 * 0.6)},${Math.round(p99 * 0.8)},${Math.round(p99 * 0.9)},${p99}`)
    .join('\n')}\n`;

async function planned() {
  const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
  const out = join(repo, 'plan');
  const r = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', out, '--delays', '0,1ms', '--instances', '1,2', '--preferred', 'keep'], {
    cwd: repo,
  });
  return { repo, out, r };
}

describe('tritonc tune plan', () => {
  it('writes one loadable variant per combination, comments kept, the model directory linked, the perf_analyzer command beside it', async () => {
    const { out, r } = await planned();
    expect(r.code, r.stderr).toBe(0);
    const variants = readdirSync(out)
      .filter((n) => n.startsWith('classifier_'))
      .sort();
    expect(variants).toEqual(['classifier_d0_i1', 'classifier_d0_i2', 'classifier_d1000_i1', 'classifier_d1000_i2']);
    const config = readFileSync(join(out, 'classifier_d1000_i2', 'config.pbtxt'), 'utf8');
    expect(config).toContain('# The classifier, as the team wrote it');
    expect(config).toContain('name: "classifier_d1000_i2"');
    expect(config).toContain('max_queue_delay_microseconds: 1000 # five ms, a guess');
    expect(config).toContain('instance_group [ { count: 2 } ]');
    expect(lstatSync(join(out, 'classifier_d1000_i2', '1')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(out, 'classifier_d0_i1', 'perf_analyzer.sh'), 'utf8')).toContain(
      'perf_analyzer -m classifier_d0_i1 -u localhost:8001 -i grpc --concurrency-range=1:16:2 --measurement-interval=5000 -f perf.csv --percentile=99',
    );
    const run = readFileSync(join(out, 'run.sh'), 'utf8');
    expect(run).toContain('/v2/repository/models/$2/load');
    expect(run).toContain('measure classifier_d1000_i2 classifier_d1000_i2');
    expect(spawnSync('bash', ['-n', join(out, 'run.sh')]).status).toBe(0);
    // The variants lint clean as a repository of their own.
    expect((await cli(['lint', out], { cwd: out })).code).toBe(0);
  });

  it('run.sh: a variant perf_analyzer fails on is unloaded all the same, left without perf.csv, and named at the end (exit 1); the others are measured', async () => {
    const { repo, out } = await planned();
    // Stand-ins for curl (records what it is asked) and perf_analyzer (fails on one variant, as the
    // real one does when it finds no stable measurement).
    const bin = join(repo, 'bin');
    mkdirSync(bin);
    const log = join(repo, 'calls.log');
    writeFileSync(join(bin, 'curl'), `#!/bin/sh\nprintf '%s\\n' "curl $*" >> '${log}'\n`, { mode: 0o755 });
    writeFileSync(
      join(bin, 'perf_analyzer'),
      `#!/bin/sh\nprintf '%s\\n' "perf_analyzer $2" >> '${log}'\n[ "$2" = classifier_d0_i2 ] && { echo 'Request concurrency: 1'; echo 'Failed to obtain stable measurement within 10 measurement windows for concurrency 1. Please try to increase the --measurement-interval.' >&2; echo 'Failed to obtain stable measurement.' >&2; exit 2; }\nprintf 'Concurrency,Inferences/Second,p99 latency\\n1,100,5000\\n' > perf.csv\n`,
      { mode: 0o755 },
    );
    // A perf.csv from an earlier run of the variant that fails now must not be read as this run's.
    writeFileSync(join(out, 'classifier_d0_i2', 'perf.csv'), 'stale');
    const run = spawnSync('bash', [join(out, 'run.sh')], { env: { PATH: `${bin}:/usr/bin:/bin` }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('perf_analyzer failed on: classifier_d0_i2 (its output is above); the other variants were measured');
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.replace(/ -sSf -X POST http:\/\/localhost:8000\/v2\/repository\/models\//, ' '));
    expect(calls).toEqual(
      ['classifier_d0_i1', 'classifier_d0_i2', 'classifier_d1000_i1', 'classifier_d1000_i2'].flatMap((v) => [
        `curl ${v}/load`,
        `perf_analyzer ${v}`,
        `curl ${v}/unload`,
      ]),
    );
    expect(['classifier_d0_i1', 'classifier_d0_i2', 'classifier_d1000_i1', 'classifier_d1000_i2'].map((v) => existsSync(join(out, v, 'perf.csv')))).toEqual([
      true,
      false,
      true,
      true,
    ]);
    // perf_analyzer's output is kept beside, and pick says why the variant is left out.
    expect(readFileSync(join(out, 'classifier_d0_i2', 'perf_analyzer.log'), 'utf8')).toContain(
      'Failed to obtain stable measurement within 10 measurement windows for concurrency 1.',
    );
    const picked = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(picked.stderr).toContain(
      'classifier_d0_i2: perf_analyzer found no stable measurement at concurrency 1 (its perf_analyzer.log) and wrote no perf.csv: left out',
    );
  });

  it('--stability-percentage goes to perf_analyzer; a value that is not a whole percentage is refused', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const r = await cli(
      ['tune', 'plan', join(repo, 'classifier'), '--out', join(repo, 'plan'), '--delays', '0', '--instances', '1', '--stability-percentage', '50'],
      { cwd: repo },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, 'plan', 'classifier_d0_i1', 'perf_analyzer.sh'), 'utf8')).toContain('--percentile=99 --stability-percentage=50');
    const bad = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', join(repo, 'plan2'), '--stability-percentage', '10;x'], { cwd: repo });
    expect([bad.code, bad.stderr.trim()]).toEqual([2, expect.stringContaining('--stability-percentage: "10;x" is not a whole percentage of 1 or more')]);
  });

  it('refuses an output directory that holds something, and a model Triton would not load; writes nothing', async () => {
    const { repo, out } = await planned();
    const again = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', out], { cwd: repo });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists and is not empty');
    await writeRepo({ 'broken/config.pbtxt': 'backend: "onnxruntime"\nmax_batch_size: -1\n', 'broken/1/model.onnx': CLASSIFIER }, repo);
    const broken = await cli(['tune', 'plan', join(repo, 'broken'), '--out', join(repo, 'p2')], { cwd: repo });
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("'max_batch_size' must be non-negative value for broken");
    expect(broken.stderr).toContain('Triton would not load');
    expect(existsSync(join(repo, 'p2'))).toBe(false);
    expect((await cli(['tune', 'plan', join(repo, 'classifier'), '--out', join(repo, 'p3'), '--delays', 'soon'], { cwd: repo })).stderr).toContain(
      '"soon" is not a duration',
    );
  });

  it('writes into an empty directory it is given, never through a link there, and leaves no temporary directory', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    mkdirSync(join(repo, 'given'));
    const ok = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', join(repo, 'given')], { cwd: repo });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readdirSync(join(repo, 'given'))).toContain('run.sh');
    mkdirSync(join(repo, 'target'));
    symlinkSync(join(repo, 'target'), join(repo, 'link'));
    const linked = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', join(repo, 'link')], { cwd: repo });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(readdirSync(join(repo, 'target'))).toEqual([]);
    expect(readdirSync(repo).filter((n) => n.includes('tritonc-'))).toEqual([]);
  });
});

describe('tritonc tune pick', () => {
  async function measured() {
    const p = await planned();
    // d0_i1 queues (compute-bound at 1 instance); d1000_i2 batches and keeps up.
    writeFileSync(
      join(p.out, 'classifier_d0_i1', 'perf.csv'),
      perfCsv([
        [1, 100, 100, 8000, 9000],
        [3, 250, 6000, 8500, 16000],
        [5, 260, 15000, 9000, 30000],
      ]),
    );
    writeFileSync(
      join(p.out, 'classifier_d0_i2', 'perf.csv'),
      perfCsv([
        [1, 110, 100, 8000, 8800],
        [3, 300, 2000, 8000, 12000],
        [5, 380, 9000, 8500, 21000],
      ]),
    );
    writeFileSync(
      join(p.out, 'classifier_d1000_i1', 'perf.csv'),
      perfCsv([
        [1, 90, 900, 8000, 10000],
        [3, 280, 3000, 8000, 14000],
        [5, 330, 12000, 8000, 25000],
      ]),
    );
    writeFileSync(
      join(p.out, 'classifier_d1000_i2', 'perf.csv'),
      perfCsv([
        [1, 95, 900, 8000, 9900],
        [3, 320, 1500, 8200, 11000],
        [5, 450, 9000, 8400, 19000],
      ]),
    );
    return p;
  }

  it('a measurement file past 64 MiB is refused from its size, before it is read (a sparse file here)', async () => {
    const { out, repo } = await measured();
    const huge = join(out, 'classifier_d0_i2', 'perf.csv');
    const fd = openSync(huge, 'w');
    ftruncateSync(fd, 64 * 1024 * 1024 + 1);
    closeSync(fd);
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${67108865} bytes, more than the ${67108864} it may be`);
  });

  it('ranks the variants by throughput within the budget and explains the winner', async () => {
    const { out, repo } = await measured();
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Best: classifier_d1000_i2');
    expect(r.stdout).toMatch(/requests wait 9\.00 ms in the queue for 8\.47 ms of compute/);
    const json = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--format', 'json'], { cwd: repo });
    const parsed = JSON.parse(json.stdout);
    expect(parsed.best).toEqual({ variant: 'classifier_d1000_i2', concurrency: 5, throughput: 450, latency: 19 });
    expect(parsed.variants.map((v: { variant: string }) => v.variant)).toEqual([
      'classifier_d1000_i2',
      'classifier_d0_i2',
      'classifier_d1000_i1',
      'classifier_d0_i1',
    ]);
    expect(parsed.variants[1]).toMatchObject({ concurrency: 3, throughput: 300, withinBudget: true });
  });

  it('a level perf_analyzer called unstable (its perf_analyzer.log, as run.sh keeps it) is never picked, and is named', async () => {
    const { out, repo } = await measured();
    // perf_analyzer 2.51's words (src/inference_profiler.cc); a later version that goes on reports the row all the same.
    writeFileSync(
      join(out, 'classifier_d1000_i2', 'perf_analyzer.log'),
      'Request concurrency: 3\nFailed to obtain stable measurement within 10 measurement windows for concurrency 3. Please try to increase the --measurement-interval.\nRequest concurrency: 5\nFailed to obtain stable measurement within 10 measurement windows for concurrency 5. Please try to increase the --measurement-interval.\n',
    );
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(parsed.best).toEqual({ variant: 'classifier_d0_i2', concurrency: 3, throughput: 300, latency: 12 });
    expect(parsed.variants.find((v: { variant: string }) => v.variant === 'classifier_d1000_i2')).toMatchObject({
      concurrency: 1,
      throughput: 95,
      unstable: [3, 5],
    });
    const text = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(text.stdout).toContain('Unstable (perf_analyzer found no stable measurement; not counted): classifier_d1000_i2 at concurrency 3, 5');
  });

  it('no variant within the budget: exit 1, naming the closest', async () => {
    const { out, repo } = await measured();
    const r = await cli(['tune', 'pick', out, '--latency-budget', '5ms'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no variant stays within 5ms at p99; the closest is classifier_d0_i2, whose lowest p99 is 8.80 ms');
  });

  it('--plot draws every variant, the budget and the chosen point in an SVG that parses', async () => {
    const { out, repo } = await measured();
    const svg = join(repo, 'tune.svg');
    expect((await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--plot', svg], { cwd: repo })).code).toBe(0);
    const py = spawnSync(
      'python3',
      [
        '-c',
        'import sys, xml.etree.ElementTree as ET\nr = ET.parse(sys.argv[1]).getroot()\nns = "{http://www.w3.org/2000/svg}"\nprint("\\n".join(g.get("data-variant") for g in r.iter(ns + "g")))\nprint("chosen" if any(c.get("class") == "chosen" for c in r.iter(ns + "circle")) else "")\nprint("budget" if any(l.get("class") == "budget" for l in r.iter(ns + "line")) else "")',
        svg,
      ],
      { encoding: 'utf8' },
    );
    if (py.error && process.env.CI !== 'true') return;
    expect(py.status, py.stderr).toBe(0);
    expect(py.stdout.trim().split('\n').sort()).toEqual([
      'budget',
      'chosen',
      'classifier_d0_i1',
      'classifier_d0_i2',
      'classifier_d1000_i1',
      'classifier_d1000_i2',
    ]);
  });

  it('--plot escapes names: a variant named with <, & and quotes is text in the SVG, not markup', async () => {
    const name = `a<b>&"c'`;
    const repo = await writeRepo({
      [`${name}/config.pbtxt`]: CONFIG.replace('name: "classifier"', `name: ${JSON.stringify(name)}`),
      [`${name}/1/model.onnx`]: CLASSIFIER,
    });
    const out = join(repo, 'plan');
    expect((await cli(['tune', 'plan', join(repo, name), '--out', out, '--delays', '0', '--instances', '1', '--preferred', 'keep'], { cwd: repo })).code).toBe(
      0,
    );
    writeFileSync(
      join(out, `${name}_d0_i1`, 'perf.csv'),
      perfCsv([
        [1, 100, 100, 8000, 9000],
        [3, 250, 600, 8500, 16000],
      ]),
    );
    const svg = join(repo, 'tune.svg');
    expect((await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--plot', svg], { cwd: repo })).code).toBe(0);
    const py = spawnSync(
      'python3',
      [
        '-c',
        'import sys, xml.etree.ElementTree as ET\nr = ET.parse(sys.argv[1]).getroot()\nprint("\\n".join(g.get("data-variant") for g in r.iter("{http://www.w3.org/2000/svg}g")))',
        svg,
      ],
      { encoding: 'utf8' },
    );
    if (py.error && process.env.CI !== 'true') return;
    expect(py.status, py.stderr).toBe(0);
    expect(py.stdout.trim()).toBe(`${name}_d0_i1`);
  });

  it("--write applies the winner to the model's config: comments kept, atomic, the diff printed; the second time changes nothing", async () => {
    const { out, repo } = await measured();
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--write', join(repo, 'classifier')], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const after = readFileSync(join(repo, 'classifier', 'config.pbtxt'), 'utf8');
    expect(after).toContain('max_queue_delay_microseconds: 1000 # five ms, a guess');
    expect(after).toContain('instance_group [ { count: 2 } ]');
    expect(after).toContain('name: "classifier"');
    expect(r.stdout).toMatch(/-\s*max_queue_delay_microseconds: 5000/);
    // Round trip: the model now has the winner's settings.
    const winner = readFileSync(join(out, 'classifier_d1000_i2', 'config.pbtxt'), 'utf8');
    expect(after).toBe(winner.replace('name: "classifier_d1000_i2"', 'name: "classifier"'));
    const again = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--write', join(repo, 'classifier')], { cwd: repo });
    expect(again.stdout).toContain('already has the settings');
    expect((await cli(['lint', join(repo, 'classifier')], { cwd: repo })).code).toBe(0);
  });

  it("reads Model Analyzer's export: results/metrics-model-inference.csv and the variants' configs in output_model_repository", async () => {
    // model_analyzer result/result_table_manager.py: the default columns; latency in ms, rounded to 0.1.
    const csv =
      'Model,Batch,Concurrency,Model Config Path,Instance Group,Max Batch Size,Satisfies Constraints,Throughput (infer/sec),p99 Latency (ms)\n' +
      'classifier,1,8,classifier_config_1,2:GPU,8,Yes,410.0,18.2\nclassifier,1,4,classifier_config_1,2:GPU,8,Yes,300.0,9.1\n' +
      'classifier,1,8,classifier_config_default,1:GPU,8,No,380.0,25.4\nclassifier,1,4,classifier_config_default,1:GPU,8,Yes,250.0,12.0\n\n';
    const variant = (count: number, delay: number) =>
      `name: "classifier"\nbackend: "onnxruntime"\nmax_batch_size: 8\ndynamic_batching { max_queue_delay_microseconds: ${delay} }\ninstance_group [ { count: ${count} kind: KIND_GPU } ]\n`;
    const dir = await writeRepo({
      'results/metrics-model-inference.csv': csv,
      'output_model_repository/classifier_config_1/config.pbtxt': variant(2, 100),
      'output_model_repository/classifier_config_default/config.pbtxt': variant(1, 0),
    });
    const r = await cli(['tune', 'pick', dir, '--latency-budget', '20ms', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(parsed.best).toEqual({ variant: 'classifier_config_1', concurrency: 8, throughput: 410, latency: 18.2 });
    expect(parsed.variants[1]).toMatchObject({ variant: 'classifier_config_default', concurrency: 4, settings: { instances: 1, delayUs: 0 } });
    // No server-side columns in Model Analyzer's summary: said, not guessed.
    expect(parsed.explanation.join(' ')).toContain('no server-side columns');
  });

  it('150,000 rows pick without overflowing the stack; a 20 MB cell is cut in the error', async () => {
    const { out, repo } = await measured();
    // perf_analyzer writes one row per load level; a CSV of 150,000 (from a long request-rate sweep) must still pick.
    const rows: [number, number, number, number, number][] = Array.from({ length: 150_000 }, (_, i) => [i + 1, 100 + i / 1000, 100, 8000, 9000 + i / 100]);
    writeFileSync(join(out, 'classifier_d0_i1', 'perf.csv'), perfCsv(rows));
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--format', 'json'], { cwd: repo });
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(JSON.parse(r.stdout).variants.find((v: { variant: string }) => v.variant === 'classifier_d0_i1')).toBeDefined();
    writeFileSync(join(out, 'classifier_d0_i2', 'perf.csv'), `${HEADER}\n1,${'x'.repeat(20 * 1024 * 1024)},1,1,1,1,1,1,1,1,1,1,1\n`);
    const bad = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"Inferences\/Second" is "x{80}\.\.\." \(20,971,520 characters\), not a number/);
    expect(bad.stderr.length).toBeLessThan(1000);
  });

  it('a malformed perf.csv is exit 2 naming the file, line and column', async () => {
    const { out, repo } = await measured();
    writeFileSync(join(out, 'classifier_d0_i1', 'perf.csv'), `${HEADER}\n1,lots,1,1,1,1,1,1,1,1,1,1,1\n`);
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/classifier_d0_i1\/perf\.csv:2:3: "Inferences\/Second" is "lots", not a number/);
  });
});

describe('tritonc tune plan | head', () => {
  it('a reader that stops early ends the output quietly: no EPIPE stack trace, the plan written', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const out = join(repo, 'plan');
    const r = spawnSync('bash', ['-c', `node ${JSON.stringify(BIN)} tune plan classifier --out plan --delays 0,1ms,2ms --instances 1,2,3 | head -1`], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(r.stdout).toMatch(/^wrote 18 variants of classifier/);
    expect(r.stderr).not.toContain('EPIPE');
    expect(readdirSync(out).filter((n) => n.startsWith('classifier_'))).toHaveLength(18);
  });
});

describe("tune and tritonc generate's header", () => {
  it('a generated config stays one generate --check accepts: every variant of the plan, and the model after pick --write', async () => {
    const repo = await writeRepo({ 'classifier/1/model.onnx': CLASSIFIER });
    const model = join(repo, 'classifier');
    const gen = await cli(['generate', model, '--max-batch-size', '8', '--max-queue-delay', '5ms', '--instances', '2', '--kind', 'cpu', '--write'], {
      cwd: repo,
    });
    expect(gen.code, gen.stderr).toBe(0);
    const out = join(repo, 'plan');
    const plan = await cli(['tune', 'plan', model, '--out', out, '--delays', '0,1ms', '--instances', '1,2', '--preferred', 'keep', '--preferred', '4,8'], {
      cwd: repo,
    });
    expect(plan.code, plan.stderr).toBe(0);
    const variants = readdirSync(out)
      .filter((n) => n.startsWith('classifier_'))
      .sort();
    expect(variants).toHaveLength(8);
    for (const v of variants) {
      const check = await cli(['generate', '--check', join(out, v)], { cwd: repo });
      expect([v, check.code, check.stdout]).toEqual([v, 0, '']);
    }
    expect(readFileSync(join(out, 'classifier_d1000_i1_p4-8', 'config.pbtxt'), 'utf8').split('\n')[0]).toBe(
      '# Generated by tritonc from 1/model.onnx with: tritonc generate --name classifier_d1000_i1_p4-8 --max-batch-size 8 --preferred-batch-size 4,8 --max-queue-delay 1ms --instances 1 --kind cpu',
    );
    // The winner: 1 ms, one instance, preferred 4 and 8.
    const winner = 'classifier_d1000_i1_p4-8';
    for (const v of variants) writeFileSync(join(out, v, 'perf.csv'), perfCsv(v === winner ? [[1, 500, 100, 1000, 2000]] : [[1, 100, 100, 1000, 2000]]));
    const picked = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--write', model], { cwd: repo });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain('tritonc generate --check accepts it');
    const written = readFileSync(join(model, 'config.pbtxt'), 'utf8');
    expect(written).toContain('max_queue_delay_microseconds: 1000');
    expect(written).toContain('preferred_batch_size: [ 4, 8 ]');
    expect(written).toContain('count: 1');
    const check = await cli(['generate', '--check', model], { cwd: repo });
    expect([check.code, check.stdout, check.stderr]).toEqual([0, '', '']);
  });

  it('a config edited by hand since it was generated keeps its header (generate --check already disagreed), and says so', async () => {
    const repo = await writeRepo({ 'classifier/1/model.onnx': CLASSIFIER });
    const model = join(repo, 'classifier');
    expect((await cli(['generate', model, '--max-batch-size', '8', '--write'], { cwd: repo })).code).toBe(0);
    const file = join(model, 'config.pbtxt');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# a note of ours\n`);
    const out = join(repo, 'plan');
    expect((await cli(['tune', 'plan', model, '--out', out, '--delays', '0,1ms', '--instances', '1', '--preferred', 'keep'], { cwd: repo })).code).toBe(0);
    for (const v of ['classifier_d0_i1', 'classifier_d1000_i1'])
      writeFileSync(join(out, v, 'perf.csv'), perfCsv(v === 'classifier_d1000_i1' ? [[1, 500, 100, 1000, 2000]] : [[1, 100, 100, 1000, 2000]]));
    const picked = await cli(['tune', 'pick', out, '--latency-budget', '20ms', '--write', model], { cwd: repo });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain(
      'keeps its tritonc generate header, which tritonc generate --check already disagreed with (it was edited by hand since tritonc generated it)',
    );
    expect(readFileSync(file, 'utf8')).toContain('# a note of ours');
  });
});

describe('tritonc tune run: what it refuses before it starts anything', () => {
  it('a --server that is not http://host:port, a missing perf_analyzer, a bad --max-trials: exit 2, nothing started', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const model = join(repo, 'classifier');
    const bad = await cli(
      [
        'tune',
        'run',
        model,
        '--runtime',
        'server',
        '--server',
        'http://localhost:8000/x;touch PWNED',
        '--latency-budget',
        '20ms',
        '--perf-analyzer',
        '/bin/true',
      ],
      { cwd: repo },
    );
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('is not http://host:port')]);
    const none = await cli(['tune', 'run', model, '--latency-budget', '20ms', '--perf-analyzer', join(repo, 'nope')], { cwd: repo });
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('--perf-analyzer')]);
    const trials = await cli(['tune', 'run', model, '--latency-budget', '20ms', '--perf-analyzer', '/bin/true', '--max-trials', '3 -x'], { cwd: repo });
    expect([trials.code, trials.stderr]).toEqual([2, expect.stringContaining('--max-trials: "3 -x" is not a whole number')]);
    expect(existsSync(join(repo, 'PWNED'))).toBe(false);
  });

  it('a plan whose tune-plan.json names a variant outside it is refused (exit 2)', async () => {
    const { repo, out } = await planned();
    const file = join(out, 'tune-plan.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.variants[0].name = '../classifier';
    writeFileSync(file, JSON.stringify(json));
    const r = await cli(['tune', 'run', out, '--latency-budget', '20ms', '--perf-analyzer', '/bin/true'], { cwd: repo });
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('"../classifier" is not a variant directory\'s name')]);
  });
});

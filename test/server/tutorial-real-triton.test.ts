// The tutorial's path walked as a user walks it (docs/tutorial.md), on the real tritonserver 2.51.0
// with Triton's own ONNX Runtime backend (r24.10, CPU): the classifier torch exported with a dynamic
// batch axis (fixtures/models/torch-onnx, scripts/model-exports/torch-onnx/export.py) is inspected,
// given the tutorial's config by generate, linted, verified by loading it for real and against ONNX
// Runtime, called by a generated Python client from concurrent threads (the server's statistics show
// it batched them), and the export the tutorial warns about (the batch axis on the input only) is
// caught before it is served; tune run measures its batching settings on the running server with the
// real perf_analyzer 2.51 and writes the winner back under a header generate --check accepts. Each step is the command docs/tutorial.md prints. The suite skips with
// one line where the venv or the backend is missing (a fresh clone); under CI=true it runs.
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { pythonClientRuns, runPython } from '../support/python-client.js';
import { readOnceCounted, realBackendsRun, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs = realBackendsRun('the tutorial walk-through', ['onnxruntime']) && pythonClientRuns('the tutorial walk-through');
const TRITONSERVER = join(ROOT, 'scripts', 'real-triton', 'tritonserver');
const EXPORTS = join(ROOT, 'fixtures', 'models', 'torch-onnx');

/** The tutorial's settings for the classifier, adapted to a CPU host (docs/tutorial.md step 2). */
const TUTORIAL_FLAGS = ['--max-batch-size', '32', '--preferred-batch-size', '8,16,32', '--max-queue-delay', '5ms', '--instances', '2', '--kind', 'cpu'];
const PERF_ANALYZER = join(ROOT, 'scripts', 'real-triton', 'perf_analyzer');
/** docs/tutorial.md step 6: a short load test, for a busy 2-core machine. */
const TUNE_FLAGS = [
  '--delays',
  '0,5ms',
  '--instances',
  '2',
  '--concurrency-range',
  '1:4:3',
  '--measurement-interval',
  '500',
  '--percentile',
  'p50',
  '--stability-percentage',
  '50',
];

describe.runIf(runs)('the tutorial, from the export to the client, on the real ONNX Runtime backend', () => {
  // Made when the suite runs: a describe's body runs even where the suite is skipped, and its hooks do not.
  let work = '';
  let repo = '';
  let model = '';
  let server: RealTriton | undefined;
  beforeAll(() => {
    work = tempDir('tritonc-tutorial-');
    repo = join(work, 'model_repository');
    model = join(repo, 'classifier');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('1. the export: inspect says the model batches (a dynamic first dim on every input and output)', async () => {
    mkdirSync(repo, { recursive: true });
    cpSync(join(EXPORTS, 'tutorial_classifier'), model, { recursive: true });
    const r = await cli(['inspect', model, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const inspected = JSON.parse(r.stdout) as {
      batchable: boolean;
      inputs: { name: string; shape: unknown[] }[];
      outputs: { name: string; shape: unknown[] }[];
    };
    expect(inspected.batchable).toBe(true);
    expect(inspected.inputs.map((t) => [t.name, t.shape])).toEqual([['input', ['batch_size', 3, 224, 224]]]);
    expect(inspected.outputs.map((t) => [t.name, t.shape])).toEqual([['output', ['batch_size', 1000]]]);
  });

  it("2. generate writes the tutorial's config, and generate --check accepts it", async () => {
    const written = await cli(['generate', model, ...TUTORIAL_FLAGS, '--write']);
    expect(written.code, written.stderr).toBe(0);
    const config = readFileSync(join(model, 'config.pbtxt'), 'utf8');
    expect(config).toContain('max_batch_size: 32');
    expect(config).toMatch(/preferred_batch_size: \[ 8, 16, 32 \]\s+max_queue_delay_microseconds: 5000/);
    expect(config).toMatch(/count: 2\s+kind: KIND_CPU/);
    expect(config).toMatch(/dims: \[ 3, 224, 224 \]/);
    const checked = await cli(['generate', model, ...TUTORIAL_FLAGS, '--check']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });

  it('3. lint finds no error or warning (the preferred batch sizes are an info: measure them)', async () => {
    const r = await cli(['lint', repo, '--format', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const findings = (JSON.parse(r.stdout) as { messages: { ruleId: string; level: string }[] }[]).flatMap((f) => f.messages);
    expect(findings.map((f) => [f.ruleId, f.level])).toEqual([['preferred-batch-size', 'info']]);
  });

  it("4. verify loads it on tritonserver and compares every output with ONNX Runtime on the team's own images", async () => {
    // The team's data: a batch of 4 images as numpy saves it.
    await runPython(
      work,
      `import json, numpy
numpy.save("images.npy", numpy.random.default_rng(7).random((4, 3, 224, 224), dtype=numpy.float32))
print(json.dumps(True))
`,
    );
    const r = await cli(
      [
        'verify',
        model,
        '--runtime',
        'local',
        '--tritonserver',
        TRITONSERVER,
        '--reference',
        'ort',
        '--input',
        'input=images.npy',
        '--format',
        'json',
        '--timeout',
        '90s',
      ],
      { cwd: work },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      load: { ok: boolean; detail: string };
      runs: { batchSize: number; ok: boolean }[];
      problems: unknown[];
      reference: {
        batchSize: number;
        inputs: { name: string; from: string }[];
        outputs: { name: string; ok: boolean; undecided?: boolean; largestReference: number }[];
      };
    };
    expect(report.load.detail).toContain('platform onnxruntime_onnx');
    expect(report.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [32, true],
    ]);
    expect(report.problems).toEqual([]);
    expect(report.reference.batchSize).toBe(4);
    expect(report.reference.inputs).toEqual([{ name: 'input', from: 'images.npy' }]);
    expect(report.reference.outputs.map((o) => [o.name, o.ok, o.undecided ?? false])).toEqual([['output', true, false]]);
  }, 120_000);

  it('5. the generated Python client calls the served model from 16 threads, and the server batches them', async () => {
    const clients = join(work, 'clients');
    const made = await cli(['client', repo, '--lang', 'python', '--out', clients]);
    expect(made.code, made.stderr).toBe(0);
    server = await startRealTriton(repo, ['--load-model=classifier']);
    const out = await runPython(
      work,
      `import json, sys
from concurrent.futures import ThreadPoolExecutor
import numpy
from clients import classifier

c = classifier.connect(sys.argv[1], timeout_s=30.0, retries=2)
def one(i):
    x = numpy.random.default_rng(i).random((1, 3, 224, 224), dtype=numpy.float32)
    return c.infer({"input": x})["output"].shape
with ThreadPoolExecutor(16) as pool:
    shapes = list(pool.map(one, range(64)))
print(json.dumps({"shapes": sorted({tuple(s) for s in shapes})}))
`,
      [server.url],
      120_000,
    );
    expect(out.shapes).toEqual([[1, 1000]]);
    const url = server.url;
    const stats = async () =>
      (
        (await (await fetch(`${url}/v2/models/classifier/stats`)).json()) as {
          model_stats: { inference_count: number; execution_count: number; batch_stats: { batch_size: number }[] }[];
        }
      ).model_stats[0]!;
    const s = await readOnceCounted(stats, (x) => x.inference_count >= 64);
    expect(s.inference_count).toBe(64);
    // Dynamic batching at work: fewer executions than requests, some of more than one request.
    expect(s.execution_count).toBeLessThan(64);
    expect(Math.max(...s.batch_stats.map((b) => b.batch_size))).toBeGreaterThan(1);
  }, 180_000);

  it('6. tune run measures the preferred batch sizes and queue delays on the running server with the real perf_analyzer, puts the served config back, and --write keeps generate --check passing', async () => {
    const before = await (await fetch(`${server!.url}/v2/models/classifier/config`)).json();
    const r = await cli([
      'tune',
      'run',
      model,
      '--runtime',
      'server',
      '--server',
      server!.url,
      '--perf-analyzer',
      PERF_ANALYZER,
      ...TUNE_FLAGS,
      '--latency-budget',
      '2s',
      '--write',
      '--format',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { best: { variant: string }; variants: { variant: string }[] };
    // The default plan varies the preferred batch sizes (the config's own, and none) and, here, the delay.
    expect(result.variants.map((v) => v.variant).sort()).toEqual([
      'classifier_d0_i2',
      'classifier_d0_i2_pnone',
      'classifier_d5000_i2',
      'classifier_d5000_i2_pnone',
    ]);
    expect(r.stderr).toContain("'classifier' was put back with the config it served before");
    expect(await (await fetch(`${server!.url}/v2/models/classifier/config`)).json()).toEqual(before);
    // The winner is written under a header that records it: generate --check (without flags) accepts the file.
    const checked = await cli(['generate', repo, '--check']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(readFileSync(join(model, 'config.pbtxt'), 'utf8').split('\n')[0]).toMatch(
      /^# Generated by tritonc from 1\/model\.onnx with: tritonc generate --max-batch-size 32 .*--max-queue-delay (0us|5ms) --instances 2 --kind cpu$/,
    );
    // The client of step 5 stays current: tuning changes how the model is served, not its inputs and outputs.
    const client = await cli(['client', repo, '--lang', 'python', '--out', join(work, 'clients'), '--check']);
    expect(client.code, client.stdout + client.stderr).toBe(0);
  }, 240_000);

  it('the export the tutorial warns about (the batch axis on the input only) is caught before it is served', async () => {
    const bad = join(work, 'bad', 'classifier');
    cpSync(join(EXPORTS, 'input_only_dynamic'), bad, { recursive: true });
    const inspected = await cli(['inspect', bad, '--format', 'json']);
    expect((JSON.parse(inspected.stdout) as { batchable: boolean }).batchable).toBe(false);
    const generated = await cli(['generate', bad, ...TUTORIAL_FLAGS]);
    // Asked for batches of 32, the model cannot batch: generate refuses rather than write a config Triton refuses.
    expect(generated.code).not.toBe(0);
    expect(generated.stderr).toContain('cannot batch, but max_batch_size 32 asks Triton to send it batches');
    expect(generated.stderr).toContain("output 'output' has shape [1,1000] (first dim 1 is fixed)");
    // The fix names every input and output (the output alone would leave the mistake in place), and the forward that hard-codes the batch.
    expect(generated.stderr).toContain(
      "re-export with a dynamic batch axis on dim 0 of every input and output, torch.onnx.export(..., dynamic_axes={'input': {0: 'batch'}, 'output': {0: 'batch'}})",
    );
    expect(generated.stderr).toContain("the model's forward hard-codes the example's batch (a reshape or view to (1, ...)): keep it symbolic (x.flatten(1))");
    // Without the tutorial's flags it writes a config that serves one request at a time, and says why.
    const plain = await cli(['generate', bad]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('max_batch_size: 0');
    expect(plain.stderr).toContain(
      "re-export with the batch axis on every input and output, torch.onnx.export(..., dynamic_axes={'input': {0: 'batch'}, 'output': {0: 'batch'}})",
    );
    const linted = await cli(['lint', bad, '--format', 'json']);
    const ids = (JSON.parse(linted.stdout) as { messages: { ruleId: string; messageId: string }[] }[]).flatMap((f) =>
      f.messages.map((m) => `${m.ruleId}/${m.messageId}`),
    );
    expect(ids).toContain('missing-dynamic-axis/partialBatchAxis');
  });
});

// verify --reference ort with the user's own inputs, for real: the real tritonserver 2.51.0 with
// Triton's own ONNX Runtime backend serves the tutorial's classifier (fixtures/models/torch-onnx,
// exported by torch) and two drifted copies made by scripts/model-exports/torch-onnx/drift.py with
// the real onnx and numpy: every weight rounded to float16 and back (what an FP16 engine does), and
// the same on a copy whose outputs are around 1e-5 (the model). The inputs are real numpy
// files (.npy, .npz stored and deflated, big-endian, JSON), and the numbers the report gives are
// checked against the same models computed by numpy in float64 (drift.py's expected.json), not
// against ONNX Runtime. The suite skips with one line where the venvs or the backend are missing; under
// CI=true it runs.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { realBackendsRun, startRealTriton, TUTORIAL_CPU_CONFIG, type RealTriton } from '../support/real-triton.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const runs =
  realBackendsRun('verify --reference ort with user inputs on the real ONNX Runtime backend', ['onnxruntime']) &&
  exportersRun('verify --reference ort with user inputs');
const CLASSIFIER = join(ROOT, 'fixtures', 'models', 'torch-onnx', 'tutorial_classifier', '1', 'model.onnx');

interface Accuracy {
  name: string;
  ok: boolean;
  undecided?: boolean;
  maxAbsError: number;
  maxRelError: number;
  largestReference: number;
  mismatched: number;
  elements: number;
}
interface Report {
  outcome: string;
  exitCode: number;
  reference?: { batchSize: number; atol: number; rtol: number; inputs: { name: string; from: string }[]; outputs: Accuracy[] };
  problems: { kind: string; message: string }[];
  error?: string;
}

describe.runIf(runs)('verify --reference ort --input/--inputs against the real server', () => {
  let server: RealTriton | undefined;
  let dir = '';
  let repo = '';
  let expected: { classifier: { largest: number }; drift: { maxAbsError: number }; tiny: { largest: number }; tiny_drift: { maxAbsError: number } };
  const model = (name: string): string => join(repo, name);
  const verify = async (name: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string; report: Report }> => {
    const r = await cli(
      ['verify', model(name), '--runtime', 'server', '--server', server!.url, '--reference', 'ort', '--timeout', '90s', '--format', 'json', ...args],
      { cwd: dir },
    );
    return { ...r, report: JSON.parse(r.stdout || '{}') as Report };
  };

  beforeAll(async () => {
    dir = tempDir('tritonc-reference-inputs-');
    repo = join(dir, 'models');
    execFileSync(EXPORTS_PYTHON, [join(ROOT, 'scripts', 'model-exports', 'torch-onnx', 'drift.py'), CLASSIFIER, dir]);
    expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as typeof expected;
    for (const [name, file] of [
      ['classifier', CLASSIFIER],
      ['drift', join(dir, 'drift.onnx')],
      ['tiny_drift', join(dir, 'tiny_drift.onnx')],
    ] as const) {
      mkdirSync(join(repo, name, '1'), { recursive: true });
      copyFileSync(file, join(repo, name, '1', 'model.onnx'));
      writeFileSync(join(repo, name, 'config.pbtxt'), TUTORIAL_CPU_CONFIG.replace('name: "classifier"', `name: "${name}"`));
    }
    server = await startRealTriton(repo);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('sends the numpy batch of 4 to both sides; every file form gives the same numbers', async () => {
    const npy = await verify('classifier', ['--input', 'input=x.npy']);
    expect(npy.code, npy.stderr).toBe(0);
    const ref = npy.report.reference!;
    expect(ref.batchSize).toBe(4);
    expect(ref.inputs).toEqual([{ name: 'input', from: 'x.npy' }]);
    expect(ref.outputs).toHaveLength(1);
    const out = ref.outputs[0]!;
    // Triton's ONNX Runtime backend and onnxruntime-node on the same model and inputs: the same numbers.
    expect(out).toMatchObject({ name: 'output', ok: true, mismatched: 0, elements: 4000 });
    expect(out.maxAbsError).toBeLessThan(1e-6);
    // The largest |output| as numpy computes the graph in float64.
    expect(out.largestReference).toBeCloseTo(expected.classifier.largest, 5);
    for (const args of [
      ['--inputs', 'x.npz'],
      ['--inputs', 'xc.npz'],
      ['--input', 'input=xbe.npy'],
    ]) {
      const r = await verify('classifier', args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.report.reference!.batchSize).toBe(4);
      expect(r.report.reference!.outputs[0]!.largestReference).toBe(out.largestReference);
    }
    // One item without the batch dim (an .npy and a JSON of the same image) is sent as a batch of 1.
    const one = await verify('classifier', ['--input', 'input=x1.npy']);
    const json = await verify('classifier', ['--inputs', 'x.json']);
    expect([one.code, json.code]).toEqual([0, 0]);
    expect(one.report.reference!.batchSize).toBe(1);
    expect(json.report.reference!.inputs).toEqual([{ name: 'input', from: 'x.json[input]' }]);
    expect(json.report.reference!.outputs[0]!.largestReference).toBe(one.report.reference!.outputs[0]!.largestReference);
  }, 180_000);

  it('FP16-rounded weights fail under the default tolerance (exit 1) with the error numpy measures, and pass under the FP16 one', async () => {
    const tight = await verify('drift', ['--inputs', 'x.npz', '--reference-model', CLASSIFIER]);
    expect(tight.code, tight.stderr).toBe(1);
    const out = tight.report.reference!.outputs[0]!;
    expect(out.ok).toBe(false);
    expect(out.undecided).toBeUndefined();
    expect(out.maxAbsError).toBeCloseTo(expected.drift.maxAbsError, 6);
    expect(out.mismatched).toBeGreaterThan(0);
    expect(tight.report.problems.map((p) => p.kind)).toEqual(['accuracy']);
    const fp16 = await verify('drift', ['--inputs', 'x.npz', '--reference-model', CLASSIFIER, '--rtol', '1e-2', '--atol', '1e-3']);
    expect(fp16.code, fp16.stderr).toBe(0);
    expect(fp16.report.reference!.outputs[0]!.maxAbsError).toBe(out.maxAbsError);
  }, 180_000);

  it('outputs around 1e-5 under the default atol: the comparison decided nothing (exit 2, with the atol that decides); under that atol a real failure', async () => {
    const tinyRef = join(dir, 'tiny.onnx');
    const loose = await verify('tiny_drift', ['--input', 'input=x.npy', '--reference-model', tinyRef]);
    expect(loose.code, loose.stderr).toBe(2);
    const out = loose.report.reference!.outputs[0]!;
    expect(out).toMatchObject({ ok: false, undecided: true, mismatched: 0 });
    expect(out.largestReference).toBeCloseTo(expected.tiny.largest, 10);
    expect(out.maxAbsError).toBeCloseTo(expected.tiny_drift.maxAbsError, 12);
    expect(loose.report.outcome).toBe('cannot-run');
    // Exit 2 from the comparison still puts the server back: the model was not loaded before, and is not now.
    expect((await fetch(`${server!.url}/v2/models/tiny_drift/ready`)).status).toBe(400);
    expect(loose.stderr).toContain(
      "--reference ort: output 'output': --atol 1e-5 (with --rtol 1e-5) reaches every |reference| value (largest 6.80e-6), so an output of zeros would pass as well: the comparison decided nothing (max abs error 6.23e-8,",
    );
    expect(loose.stderr).toContain('pass --atol 1e-9 (a thousandth of the largest |reference|, to a power of ten)');
    // The text report says it too.
    const text = await cli(
      [
        'verify',
        model('tiny_drift'),
        '--runtime',
        'server',
        '--server',
        server!.url,
        '--reference',
        'ort',
        '--input',
        'input=x.npy',
        '--reference-model',
        tinyRef,
      ],
      { cwd: dir },
    );
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(
      '  against ONNX Runtime (CPU) on tiny.onnx (batch 4, inputs input from x.npy; atol 1e-5, rtol 1e-5):\n    output  UNDECIDED  max abs error 6.23e-8, max rel error',
    );
    expect(text.stdout).toContain('largest |reference| 6.80e-6; the tolerance reaches every |reference|: an output of zeros would pass too\n');
    expect(text.stdout).toContain("tiny_drift: could not verify: the tolerance decided nothing on output 'output' (exit 2)\n");
    expect(text.stderr).toContain('the comparison decided nothing');
    // Under the atol it proposes, the same drift is a real failure: a few percent of the outputs' size.
    const decided = await verify('tiny_drift', ['--input', 'input=x.npy', '--reference-model', tinyRef, '--atol', '1e-9']);
    expect(decided.code, decided.stderr).toBe(1);
    const d = decided.report.reference!.outputs[0]!;
    expect(d).toMatchObject({ ok: false });
    expect(d.undecided).toBeUndefined();
    expect(d.maxAbsError / d.largestReference).toBeGreaterThan(0.005);
    // An atol above every output of the real classifier decides nothing either.
    const wide = await verify('classifier', ['--input', 'input=x.npy', '--atol', '1']);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain("output 'output': --atol 1 (with --rtol 1e-5) reaches every |reference| value (largest 0.680)");
  }, 180_000);

  it('a file of another dtype or too large a batch is exit 2 before the model is loaded, naming the file and the fix', async () => {
    const f64 = await verify('classifier', ['--input', 'input=x64.npy']);
    expect(f64.code).toBe(2);
    expect(f64.stderr).toBe(
      "tritonc verify: input 'input' is float64 in x64.npy, the model takes FP32 (TYPE_FP32): save it as float32, e.g. np.save(path, a.astype(np.float32))\n",
    );
    const big = await verify('classifier', ['--input', 'input=x40.npy']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain("input 'input' in x40.npy is a batch of 40, and the model's max_batch_size is 32: send 1 to 32 rows (e.g. a[:32])");
    // Nothing was loaded for it.
    expect((await fetch(`${server!.url}/v2/models/classifier/ready`)).status).toBe(400);
  }, 180_000);
});

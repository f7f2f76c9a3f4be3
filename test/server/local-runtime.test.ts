// verify --runtime local with the real tritonserver 2.51.0 (scripts/real-triton/tritonserver runs the
// venv's binary with the environment NVIDIA's container gives it): a model that loads and answers, a
// config Triton refuses, a model that never gets ready (timeout), Ctrl-C, SIGTERM to the tritonc
// process, a launcher prefix; after
// each the server is gone, the user's model directory is as it was, and nothing is left in the
// temporary directory or /dev/shm. Without the venv (a fresh clone) the suite is skipped with one
// line; with CI=true it must run.
import { execFileSync, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tritonserverCommand } from '../../src/verify/local-runner.js';
import { CannotRun } from '../../src/verify/errors.js';
import { verifyModel } from '../../src/verify/verify.js';
import { BIN, cli } from '../support/cli.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { floatTensor, model as onnxModel, node, T, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';
import { PYTHON_CONFIG as CONFIG, realTritonRuns } from '../support/real-triton.js';

const runs = realTritonRuns('verify --runtime local tests');
const TRITONSERVER = join(ROOT, 'scripts', 'real-triton', 'tritonserver');

const MODEL_PY = (initialize = ''): string => `import time
import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def initialize(self, args):
        ${initialize || 'pass'}

    def execute(self, requests):
        responses = []
        for request in requests:
            x = pb_utils.get_input_tensor_by_name(request, "INPUT0").as_numpy()
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", (x + 1).astype(np.float32))]))
        return responses
`;

function model(name: string, config = CONFIG(name), py = MODEL_PY()): string {
  const dir = join(tempDir('tritonc-local-'), 'models', name);
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), config);
  writeFileSync(join(dir, '1', 'model.py'), py);
  return dir;
}

/** Every file under a directory, relative (what verify must leave as it was). */
const listing = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
const servers = (): number => {
  try {
    return execFileSync('pgrep', ['-f', 'pytriton/tritonserver/bin/tritonserver'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};
/** The command lines of the processes whose own contains `text` (a server, its Python stubs). */
const processesWith = (text: string): string[] => {
  try {
    return execFileSync('pgrep', ['-af', '--', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const leftovers = (): string[] => [
  ...readdirSync(tmpdir()).filter((n) => n.startsWith('tritonc-verify-')),
  ...(existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((n) => n.startsWith('tritonc_')) : []),
];

describe('tritonserverCommand: --tritonserver, then PATH, then /opt/tritonserver/bin; a launcher runs it by name', () => {
  it('finds it on PATH, and says what to do when there is none', () => {
    const bin = tempDir('tritonc-path-');
    writeFileSync(join(bin, 'tritonserver'), '#!/bin/sh\n');
    chmodSync(join(bin, 'tritonserver'), 0o755);
    expect(tritonserverCommand({ path: `/nonexistent:${bin}` }, '/')).toEqual({ command: join(bin, 'tritonserver'), args: [] });
    expect(tritonserverCommand({ launcher: ['apptainer', 'exec', '--nv', 'triton.sif'], path: '' }, '/')).toEqual({
      command: 'apptainer',
      args: ['exec', '--nv', 'triton.sif', 'tritonserver'],
    });
    expect(() => tritonserverCommand({ tritonserver: 'missing/tritonserver' }, bin)).toThrow(/--tritonserver missing\/tritonserver: not an executable file/);
    if (!existsSync('/opt/tritonserver/bin/tritonserver')) {
      expect(() => tritonserverCommand({ path: '/nonexistent' }, '/')).toThrow(CannotRun);
      expect(() => tritonserverCommand({ path: '/nonexistent' }, '/')).toThrow(
        /give --tritonserver PATH, put it on PATH, or run inside NVIDIA's Triton container/,
      );
    }
  });
});

describe.skipIf(!runs)('verify --runtime local with the real tritonserver 2.51', () => {
  it('loads and checks the model on a read-only copy, then stops the server and leaves nothing behind', async () => {
    const dir = model('add_one');
    const before = listing(dir);
    const running = servers();
    const r = await cli(['verify', dir, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--format', 'json', '--timeout', '90s']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ runtime: 'local', outcome: 'ok', load: { ok: true } });
    expect(report.engine).toContain('(Triton 2.51.0)');
    expect(report.runs.map((run: { batchSize: number }) => run.batchSize)).toEqual([1, 8]);
    // No __pycache__ beside model.py, no file added or removed.
    expect(listing(dir)).toEqual(before);
    expect(servers()).toBe(running);
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it('a config Triton refuses at load is exit 1 with its reason; the server is stopped', async () => {
    const dir = model('bad_batch', CONFIG('bad_batch', 'dynamic_batching { preferred_batch_size: [ 16 ] }\n'));
    const r = await cli(['verify', dir, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--format', 'json', '--timeout', '90s']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.load.ok).toBe(false);
    expect(report.problems[0].message).toContain('dynamic batching preferred size must be <= max batch size');
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it('a model that does not get ready in --timeout is exit 2, and Ctrl-C exit 130: both stop the server', async () => {
    const running = servers();
    const slow = model('slow', CONFIG('slow'), MODEL_PY('time.sleep(60)'));
    const timedOut = await cli(['verify', slow, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--timeout', '4s']);
    expect(timedOut.code).toBe(2);
    expect(timedOut.stderr).toContain("Triton did not get 'slow' ready within 4s");
    expect(servers()).toBe(running);
    const signals = new EventEmitter();
    setTimeout(() => signals.emit('SIGINT'), 2000);
    const report = await verifyModel({ modelDir: slow, runtime: 'local', tritonserverBinary: TRITONSERVER, timeoutMs: 60_000, deps: { signals } });
    expect([report.outcome, report.exitCode]).toEqual(['interrupted', 130]);
    expect(report.error).toContain('tritonserver was stopped and its copy of the model removed');
    expect(servers()).toBe(running);
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it.each([
    ['SIGTERM', 'sigterm_local', 1],
    // A signal again while tritonc stops the server (a scheduler's second SIGTERM, Ctrl-C pressed twice) does not cut the clean-up short.
    ['SIGTERM', 'sigterm_twice', 2],
    ['SIGINT', 'sigint_twice', 2],
  ] as const)(
    '%s to the tritonc process while the model loads (%s): exit 143 / 130; the tritonserver it started and its Python stub are stopped, the copy of the model and the shared memory removed',
    async (signal, name, times) => {
      const dir = model(name, CONFIG(name), MODEL_PY('time.sleep(60)'));
      const before = listing(dir);
      const child = spawn(process.execPath, [BIN, 'verify', dir, '--runtime', 'local', '--tritonserver', TRITONSERVER, '--timeout', '90s'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.resume();
      const done = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
      // The server tritonc started, by its command line: the copy it serves and its shared memory's prefix.
      let server = '';
      await until('tritonserver started', () => (server = processesWith(`--load-model=${name}`).find((l) => l.includes('--model-repository=')) ?? '') !== '');
      const copy = /--model-repository=(\S+)/.exec(server)![1]!;
      const shm = /shm-region-prefix-name=(\S+)/.exec(server)![1]!;
      // The model's initialize is running (its stub has made its shared memory) when the signal comes.
      await until('the Python stub started', () => readdirSync('/dev/shm').some((n) => n.startsWith(shm)));
      await until('the Python stub running', () => processesWith(copy).length >= 2);
      child.kill(signal);
      if (times === 2) {
        await new Promise((r) => setTimeout(r, 1000));
        child.kill(signal);
      }
      expect(await done, stderr).toEqual([signal === 'SIGTERM' ? 143 : 130, null]);
      expect(stderr).toContain(`interrupted by ${signal}`);
      expect(stderr).toContain('tritonserver was stopped and its copy of the model removed');
      expect(processesWith(copy)).toEqual([]);
      expect(existsSync(copy)).toBe(false);
      expect(readdirSync('/dev/shm').filter((n) => n.startsWith(shm))).toEqual([]);
      expect(listing(dir)).toEqual(before);
    },
    120_000,
  );

  it('--reference ort: the served outputs against ONNX Runtime on the same seeded inputs, within the tolerance or not', async () => {
    // The ONNX model the Python model stands for: OUTPUT0 = INPUT0 + 1.
    const onnx = join(tempDir('tritonc-reference-'), 'add_one.onnx');
    await writeModel(
      onnx,
      onnxModel({
        name: 'add',
        node: [node('Add', ['INPUT0', 'one'], ['OUTPUT0'])],
        initializer: [floatTensor('one', [1], [1])],
        input: [tensorInfo('INPUT0', T.FLOAT, ['batch', 4])],
        output: [tensorInfo('OUTPUT0', T.FLOAT, ['batch', 4])],
      }),
    );
    const same = await cli([
      'verify',
      model('same'),
      '--runtime',
      'local',
      '--tritonserver',
      TRITONSERVER,
      '--reference',
      'ort',
      '--reference-model',
      onnx,
      '--format',
      'json',
      '--timeout',
      '90s',
    ]);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout).reference).toMatchObject({
      against: 'ONNX Runtime (CPU)',
      atol: 1e-5,
      rtol: 1e-5,
      batchSize: 1,
      outputs: [{ name: 'OUTPUT0', ok: true, maxAbsError: 0, mismatched: 0, elements: 4 }],
    });
    // A model that adds 1.01: off by 0.01 everywhere, the known perturbation.
    const off = model('off', CONFIG('off'), MODEL_PY().replace('(x + 1)', '(x + 1.01)'));
    const perturbed = await cli([
      'verify',
      off,
      '--runtime',
      'local',
      '--tritonserver',
      TRITONSERVER,
      '--reference',
      'ort',
      '--reference-model',
      onnx,
      '--format',
      'json',
      '--timeout',
      '90s',
    ]);
    expect(perturbed.code, perturbed.stderr).toBe(1);
    const report = JSON.parse(perturbed.stdout);
    const [output] = report.reference.outputs;
    expect(output).toMatchObject({ name: 'OUTPUT0', ok: false, mismatched: 4, elements: 4 });
    expect(output.maxAbsError).toBeCloseTo(0.01, 5);
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'accuracy', tensor: 'OUTPUT0' })]);
    // Within a tolerance that allows it, it passes.
    const wide = await cli([
      'verify',
      off,
      '--runtime',
      'local',
      '--tritonserver',
      TRITONSERVER,
      '--reference',
      'ort',
      '--reference-model',
      onnx,
      '--atol',
      '0.02',
      '--timeout',
      '90s',
    ]);
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toMatch(/OUTPUT0 {2}ok {2}max abs error 0\.0100/);
  }, 180_000);

  it('runs through a --launcher prefix, as on a cluster', async () => {
    const dir = model('launched');
    const r = await cli(['verify', dir, '--runtime', 'local', '--launcher', 'env TRITONC_LAUNCHED=1', '--tritonserver', TRITONSERVER, '--timeout', '90s']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`with env TRITONC_LAUNCHED=1 ${TRITONSERVER} (Triton 2.51.0)`);
    expect(leftovers()).toEqual([]);
  }, 120_000);
});

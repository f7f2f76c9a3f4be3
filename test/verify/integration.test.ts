// verify against a real Triton. Runs only where one is available, and says why it is skipped otherwise:
//  - TRITONC_TRITON_URL=http://host:8000: a running Triton whose repository holds model_repository/classifier
//    (start it as docs/verify.md shows, with --model-control-mode=explicit for the candidate-config test);
//  - or a Docker daemon, an NVIDIA GPU (nvidia-smi) and the Triton image already pulled (or
//    TRITONC_VERIFY_PULL=1 to let the test pull it; it is several GB). TRITONC_TRITON_IMAGE picks the image.
//  - and, on the CPU, podman with the image scripts/container/setup.sh builds offline (the real
//    tritonserver 2.51.0 and its real backends on Debian 12): required under CI=true, skipped with one
//    line elsewhere when podman or the image is missing.
// See docs/verify.md ("Running the integration test on a GPU machine", "The container runtime on the CPU").
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTAINER_LABEL, DEFAULT_TRITON_IMAGE } from '../../src/verify/docker-args.js';
import { freePorts } from '../../src/verify/ports.js';
import { verifyModel } from '../../src/verify/verify.js';
import { BIN, cli, tempDir } from '../support/cli.js';
import { PYTHON_CONFIG, realTritonRuns, TUTORIAL_CPU_CONFIG } from '../support/real-triton.js';

const ROOT = join(import.meta.dirname, '..', '..');
const URL_ENV = process.env.TRITONC_TRITON_URL;
const IMAGE = process.env.TRITONC_TRITON_IMAGE ?? DEFAULT_TRITON_IMAGE;
const LOAD_TIMEOUT_MS = 15 * 60_000;

const ok = (cmd: string, args: string[]): boolean => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0;
};

/** Why the docker integration test cannot run here, or undefined when it can. */
function dockerSkipReason(): string | undefined {
  if (!ok('docker', ['version', '--format', '{{.Server.Version}}'])) return 'no Docker daemon answers here';
  if (!ok('nvidia-smi', ['-L'])) return 'no NVIDIA GPU here (nvidia-smi -L fails)';
  if (!process.env.TRITONC_VERIFY_PULL && !ok('docker', ['image', 'inspect', IMAGE]))
    return `${IMAGE} is not pulled (docker pull ${IMAGE}, or set TRITONC_VERIFY_PULL=1)`;
  return undefined;
}

const serverReason = URL_ENV ? undefined : 'TRITONC_TRITON_URL is not set';
const dockerReason = dockerSkipReason();

/** A copy of the example classifier with the batch dim written into dims (Triton refuses it). */
function brokenClassifier(): string {
  const repo = tempDir('tritonc-verify-it-');
  cpSync(join(ROOT, 'model_repository', 'classifier'), join(repo, 'classifier'), { recursive: true });
  const file = join(repo, 'classifier', 'config.pbtxt');
  writeFileSync(file, readFileSync(file, 'utf8').replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'));
  return join(repo, 'classifier');
}

describe(`verify against a running Triton${serverReason ? ` (skipped: ${serverReason})` : ''}`, () => {
  it.skipIf(serverReason !== undefined)('loads the example classifier and answers at batch 1 and 32', { timeout: LOAD_TIMEOUT_MS + 60_000 }, async () => {
    const r = await verifyModel({ modelDir: join(ROOT, 'model_repository', 'classifier'), runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
    expect(r.error).toBeUndefined();
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [32, true],
    ]);
    expect(r.configDiff?.length).toBeGreaterThan(0);
  });

  it.skipIf(serverReason !== undefined)(
    'is refused a config with the batch dim in dims (explicit model control), mapped to the rule',
    { timeout: LOAD_TIMEOUT_MS + 60_000 },
    async () => {
      const r = await verifyModel({ modelDir: brokenClassifier(), runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
      if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return; // a server without explicit control tests only the first case
      expect(r.exitCode).toBe(1);
      expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'batch-dim-in-dims' });
    },
  );

  // The points of the protocol fixture (fixtures/verify/protocol-fixture.ts), against Triton itself.
  const served = async (): Promise<unknown> => {
    const { KServeClient } = await import('../../src/verify/kserve-client.js');
    return (await new KServeClient(URL_ENV!).modelConfig('classifier').catch(() => ({ raw: undefined }))).raw;
  };

  it.skipIf(serverReason !== undefined)(
    'puts the model back: the config read back after verify is the one served before',
    { timeout: LOAD_TIMEOUT_MS + 60_000 },
    async () => {
      const before = await served();
      const candidate = brokenClassifier();
      writeFileSync(
        join(candidate, 'config.pbtxt'),
        readFileSync(join(ROOT, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8').replace(/max_batch_size: \d+/, 'max_batch_size: 2'),
      );
      const r = await verifyModel({ modelDir: candidate, runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
      if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return;
      expect(r.problems).toEqual([]);
      expect(await served()).toEqual(before);
    },
  );

  it.skipIf(serverReason !== undefined)(
    'a refusal Triton does not explain ("failed to poll") gets the lint finding as the likely reason',
    { timeout: LOAD_TIMEOUT_MS + 60_000 },
    async () => {
      const before = await served();
      const candidate = brokenClassifier();
      writeFileSync(
        join(candidate, 'config.pbtxt'),
        readFileSync(join(ROOT, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8').replace(/max_batch_size: \d+/, 'max_batch_size: -2'),
      );
      const r = await verifyModel({ modelDir: candidate, runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
      if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return;
      expect(r.exitCode).toBe(1);
      expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'max-batch-size' });
      expect(await served()).toEqual(before);
    },
  );
});

describe(`verify in a Triton container${dockerReason ? ` (skipped: ${dockerReason})` : ''}`, () => {
  it.skipIf(dockerReason !== undefined)(
    'loads the example classifier on the GPU and answers at batch 1 and 32',
    { timeout: LOAD_TIMEOUT_MS + 120_000 },
    async () => {
      const r = await verifyModel({ modelDir: join(ROOT, 'model_repository', 'classifier'), runtime: 'docker', image: IMAGE, timeoutMs: LOAD_TIMEOUT_MS });
      expect(r.error).toBeUndefined();
      expect(r.problems).toEqual([]);
      expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([
        [1, true],
        [32, true],
      ]);
    },
  );

  it.skipIf(dockerReason !== undefined)(
    "shows Triton's refusal of the batch dim in dims, mapped to the rule",
    { timeout: LOAD_TIMEOUT_MS + 120_000 },
    async () => {
      const r = await verifyModel({ modelDir: brokenClassifier(), runtime: 'docker', image: IMAGE, timeoutMs: LOAD_TIMEOUT_MS });
      expect(r.exitCode).toBe(1);
      expect(r.tritonMessages?.some((m) => m.ruleId === 'batch-dim-in-dims')).toBe(true);
    },
  );
});

// --engine podman on the CPU: the image of scripts/container/setup.sh, podman configured by
// scripts/container/containers.conf (CONTAINERS_CONF, inherited by the podman that verify runs).
const PODMAN_IMAGE = process.env.TRITONC_CONTAINER_IMAGE ?? 'localhost/tritonc-tritonserver:2.51.0-cpu';
process.env.CONTAINERS_CONF ??= join(ROOT, 'scripts', 'container', 'containers.conf');

function podmanRuns(): boolean {
  const why = !ok('podman', ['version', '--format', '{{.Server.Version}}'])
    ? 'no podman answers here'
    : !ok('podman', ['image', 'exists', PODMAN_IMAGE])
      ? `no image ${PODMAN_IMAGE}`
      : undefined;
  if (why === undefined || process.env.CI === 'true') return true;
  console.log(`tritonc: verify --runtime docker --engine podman tests skipped: ${why} (bash scripts/container/setup.sh installs podman and builds the image)`);
  return false;
}
const podman = podmanRuns();

/** The containers verify started (by its label) that still exist, running or not. */
const containers = (): string[] =>
  execFileSync('podman', ['ps', '-a', '--filter', `label=${CONTAINER_LABEL}`, '--format', '{{.Names}}'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

/** The tutorial's classifier with its CPU config, `edit` applied to the config. */
function tutorial(edit: (config: string) => string = (c) => c): string {
  const dir = join(tempDir('tritonc-podman-'), 'classifier');
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'models', 'torch-onnx', 'tutorial_classifier', '1'), join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), edit(TUTORIAL_CPU_CONFIG));
  return dir;
}
const PODMAN = ['--runtime', 'docker', '--engine', 'podman', '--image', PODMAN_IMAGE, '--gpus', 'none'];

describe.skipIf(!podman)('verify --runtime docker --engine podman: the real Triton 2.51 in a container, on the CPU', () => {
  it('loads the tutorial classifier and answers at batch 1 and 32, as ONNX Runtime does (--reference ort); the container is gone afterwards', async () => {
    const r = await cli(['verify', tutorial(), ...PODMAN, '--reference', 'ort', '--format', 'json', '--timeout', '180s']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ runtime: 'docker', outcome: 'ok', load: { ok: true }, problems: [] });
    expect(report.engine).toMatch(new RegExp(`^${PODMAN_IMAGE.replace(/[.]/g, '\\.')} \\(Podman \\d`));
    expect(report.runs.map((x: { batchSize: number; ok: boolean }) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [32, true],
    ]);
    // What Triton's auto-complete added, read back from the server in the container.
    expect(report.configDiff.map((d: { path: string }) => d.path)).toContain('instance_group[0].name');
    // The served outputs against ONNX Runtime's on the same seeded inputs: the container's real backend computes them.
    expect(report.reference).toMatchObject({ against: 'ONNX Runtime (CPU)', outputs: [{ name: 'output', ok: true, mismatched: 0, elements: 1000 }] });
    expect(containers()).toEqual([]);
  }, 240_000);

  it('a config Triton refuses is exit 1 with the same problems as --runtime local; the container is removed', async () => {
    const batchInDims = (c: string) => c.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]');
    const inContainer = await cli(['verify', tutorial(batchInDims), ...PODMAN, '--format', 'json', '--timeout', '180s']);
    expect(inContainer.code, inContainer.stderr).toBe(1);
    const report = JSON.parse(inContainer.stdout);
    expect(report.load.ok).toBe(false);
    expect(report.problems[0]).toMatchObject({ kind: 'load', ruleId: 'batch-dim-in-dims' });
    expect(containers()).toEqual([]);
    if (!realTritonRuns('the comparison with --runtime local')) return;
    const local = await cli([
      'verify',
      tutorial(batchInDims),
      '--runtime',
      'local',
      '--tritonserver',
      join(ROOT, 'scripts', 'real-triton', 'tritonserver'),
      '--format',
      'json',
      '--timeout',
      '180s',
    ]);
    expect(local.code, local.stderr).toBe(1);
    const strip = (p: { kind: string; ruleId?: string; message: string }) => ({ kind: p.kind, ruleId: p.ruleId, message: p.message });
    expect(report.problems.map(strip)).toEqual(JSON.parse(local.stdout).problems.map(strip));
  }, 360_000);

  it("the image's PyTorch and Python backends serve too (the tritonserver wheel's Python backend, Triton's r24.10 PyTorch backend with libtorch 2.5.1)", async () => {
    const repo = tempDir('tritonc-podman-');
    cpSync(join(ROOT, 'fixtures', 'models', 'pytorch', 'libtorch_float32_float32_float32'), join(repo, 'add_sub'), { recursive: true });
    // Triton's qa model (INPUT0 + INPUT1, INPUT0 - INPUT1 over 16 floats), named as the PyTorch backend names outputs.
    writeFileSync(
      join(repo, 'add_sub', 'config.pbtxt'),
      `backend: "pytorch"
max_batch_size: 8
input [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 16 ] }, { name: "INPUT1" data_type: TYPE_FP32 dims: [ 16 ] } ]
output [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 16 ] }, { name: "OUTPUT__1" data_type: TYPE_FP32 dims: [ 16 ] } ]
instance_group [ { kind: KIND_CPU } ]
`,
    );
    mkdirSync(join(repo, 'add_one', '1'), { recursive: true });
    writeFileSync(join(repo, 'add_one', 'config.pbtxt'), PYTHON_CONFIG('add_one'));
    writeFileSync(
      join(repo, 'add_one', '1', 'model.py'),
      `import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", (pb_utils.get_input_tensor_by_name(r, "INPUT0").as_numpy() + 1).astype(np.float32))]) for r in requests]
`,
    );
    for (const model of ['add_sub', 'add_one']) {
      const r = await cli(['verify', join(repo, model), ...PODMAN, '--format', 'json', '--timeout', '180s']);
      expect(r.code, `${model}: ${r.stderr}${r.stdout}`).toBe(0);
      expect(JSON.parse(r.stdout).runs.map((x: { batchSize: number; ok: boolean }) => [x.batchSize, x.ok])).toEqual([
        [1, true],
        [8, true],
      ]);
    }
    expect(containers()).toEqual([]);
  }, 240_000);

  it('an image podman cannot find or pull is exit 2, and nothing is started', async () => {
    const r = await cli(['verify', tutorial(), '--runtime', 'docker', '--engine', 'podman', '--image', 'localhost/tritonc-no-such-image:0', '--gpus', 'none']);
    expect(r.code).toBe(2);
    // podman's error line, not the "Trying to pull ..." it prints first.
    expect(r.stderr).toMatch(
      /^tritonc verify: podman cannot pull localhost\/tritonc-no-such-image:0: Error: .*\. For nvcr\.io images run podman login nvcr\.io first/,
    );
    expect(containers()).toEqual([]);
  }, 120_000);

  it("a host port taken before podman binds it is exit 2 (podman's own failure, exit 126), never the config's; the container is removed", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const [grpc, metrics] = await freePorts(2);
      const r = await verifyModel({
        modelDir: tutorial(),
        runtime: 'docker',
        engine: 'podman',
        image: PODMAN_IMAGE,
        gpus: 'none',
        timeoutMs: 120_000,
        deps: { ports: async () => [port, grpc!, metrics!] },
      });
      expect([r.exitCode, r.problems]).toEqual([2, []]);
      expect(r.error).toContain(
        `podman could not start the container for 'classifier' (exit 126, the engine's own failure, not Triton's):\n  Error: cannot listen on the TCP port: listen tcp4 127.0.0.1:${port}: bind: address already in use`,
      );
      expect(containers()).toEqual([]);
    } finally {
      taken.close();
    }
  }, 120_000);

  it('gives up at --timeout with exit 2 and removes the container', async () => {
    // 1 ms: no container starts and loads a model that soon, however quiet the machine (1 s sometimes did).
    const r = await cli(['verify', tutorial(), ...PODMAN, '--timeout', '1ms']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("Triton did not get 'classifier' ready within 1ms");
    expect(containers()).toEqual([]);
  }, 120_000);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s to tritonc while the model loads: exit %i, the container removed',
    async (signal, code) => {
      const child = spawn(process.execPath, [BIN, 'verify', tutorial(), ...PODMAN, '--timeout', '180s'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.resume();
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Once its container exists, podman has started it.
      const end = Date.now() + 60_000;
      while (!containers().some((n) => n.startsWith(`tritonc-verify-classifier-${child.pid}-`)) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 200));
      child.kill(signal);
      expect(await exited, stderr).toBe(code);
      expect(stderr).toContain(`interrupted by ${signal}; the container was removed`);
      expect(containers()).toEqual([]);
    },
    120_000,
  );
});

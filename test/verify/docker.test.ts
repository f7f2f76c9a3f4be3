// verify --runtime docker with the docker process runner injected: the exact `docker run` arguments,
// the dry run, Triton's log lines mapped to rule ids, and that the container is removed on success,
// failure, timeout and Ctrl-C. (This machine has a docker CLI but no daemon; no container ever starts.)
import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startProtocolFixture, type ProtocolFixture } from '../../fixtures/verify/protocol-fixture.js';
import { containerName, dockerRunArgs, gpuArgs, gpusArgument, parseGpus, DEFAULT_TRITON_IMAGE } from '../../src/verify/docker-args.js';
import type { ProcessResult, ProcessRunner, RunningProcess } from '../../src/verify/process-runner.js';
import { dryRunText } from '../../src/verify/report.js';
import { mapTritonLog } from '../../src/verify/triton-messages.js';
import { dryRunVerify, verifyModel } from '../../src/verify/verify.js';
import { freePorts } from '../../src/verify/ports.js';
import { cli, tempDir } from '../support/cli.js';

const CONFIG = (kind = 'KIND_GPU') => `name: "tiny"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 4, 4 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 10 ] } ]
instance_group [ { count: 1 kind: ${kind} } ]
`;

function repository(config = CONFIG(), parent = tempDir('tritonc-verify-docker-')): { repo: string; dir: string } {
  const dir = join(parent, 'tiny');
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), config);
  return { repo: parent, dir };
}

const ok = (stdout = ''): ProcessResult => ({ exitCode: 0, stdout, stderr: '', notFound: false });

/** The container process: lines it prints, and when (if ever) it exits. */
interface Script {
  lines?: string[];
  exitAfterMs?: number;
  exitCode?: number;
  onStart?: () => void;
  /** Called with each `docker ...` command run to its end (rm included). */
  onRun?: (args: readonly string[]) => void;
}

class FakeDocker implements ProcessRunner {
  calls: string[][] = [];
  killed = 0;
  constructor(
    private readonly script: Script = {},
    private readonly answers: { version?: ProcessResult; inspect?: ProcessResult; pull?: ProcessResult } = {},
  ) {}

  /** The options of each run, by its call. */
  readonly runOptions: { args: readonly string[]; group?: boolean }[] = [];

  async run(command: string, args: readonly string[], options: { group?: boolean } = {}): Promise<ProcessResult> {
    this.calls.push([command, ...args]);
    this.runOptions.push({ args, ...(options.group !== undefined ? { group: options.group } : {}) });
    this.script.onRun?.(args);
    if (args[0] === 'version') return this.answers.version ?? ok('27.3.1');
    if (args[0] === 'image') return this.answers.inspect ?? ok('sha256:abc');
    if (args[0] === 'pull') return this.answers.pull ?? ok();
    return ok();
  }

  start(command: string, args: readonly string[]): RunningProcess {
    this.calls.push([command, ...args]);
    const lines: string[] = [];
    let done = false;
    let finish: (r: { exitCode: number | undefined; notFound: boolean }) => void = () => {};
    const exited = new Promise<{ exitCode: number | undefined; notFound: boolean }>((resolve) => (finish = (r) => ((done = true), resolve(r))));
    setTimeout(() => lines.push(...(this.script.lines ?? [])), 5);
    if (this.script.exitAfterMs !== undefined) setTimeout(() => finish({ exitCode: this.script.exitCode ?? 1, notFound: false }), this.script.exitAfterMs);
    this.script.onStart?.();
    return {
      lines,
      exited,
      hasExited: () => done,
      kill: () => {
        this.killed++;
        finish({ exitCode: undefined, notFound: false });
      },
    };
  }

  removals(): string[][] {
    return this.calls.filter((c) => c[1] === 'rm');
  }
}

let fixture: ProtocolFixture | undefined;
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
});

const TRITON_FAILURE = [
  'I1130 17:34:46.031062 1 server.cc:674] ',
  "E1130 17:34:46.100000 1 model_lifecycle.cc:654] \"failed to load 'tiny' version 1: Invalid argument: model 'tiny', tensor 'input': the model expects 4 dimensions (shape [-1,3,4,4]) but the model configuration specifies 5 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,1,3,4,4])\"",
  'E1130 17:34:46.200000 1 model_repository_manager.cc:1473] "Invalid argument: unexpected inference output \'logits\', allowed outputs are: output"',
  'error: creating server: Internal - failed to load all models',
];

/** A port nothing listens on: the container never answers. */
const closedPort = async (): Promise<number> => (await freePorts(1))[0]!;

describe('docker run arguments', () => {
  const spec = {
    image: DEFAULT_TRITON_IMAGE,
    name: 'tritonc-verify-tiny-1-abc',
    repoDir: '/srv/models',
    modelName: 'tiny',
    ports: { http: 40001, grpc: 40002, metrics: 40003 },
    gpus: 'all',
  };

  it('runs a removable, labelled, read-only, loopback-only Triton loading just the model', () => {
    expect(dockerRunArgs(spec)).toEqual([
      'run',
      '--rm',
      '--name',
      'tritonc-verify-tiny-1-abc',
      '--label',
      'dev.tritonc.verify=tiny',
      '--gpus',
      'all',
      '--mount',
      'type=bind,source=/srv/models,target=/models,readonly',
      '-p',
      '127.0.0.1:40001:8000',
      '-p',
      '127.0.0.1:40002:8001',
      '-p',
      '127.0.0.1:40003:8002',
      'nvcr.io/nvidia/tritonserver:26.08-py3',
      'tritonserver',
      '--model-repository=/models',
      '--model-control-mode=explicit',
      '--load-model=tiny',
    ]);
  });

  it("passes a device list as docker's quoted CSV, and no --gpus for none or CPU-only", () => {
    expect(dockerRunArgs({ ...spec, gpus: '0,1' })).toContain('"device=0,1"');
    expect(gpusArgument('GPU-3f1c')).toBe('"device=GPU-3f1c"');
    expect(dockerRunArgs({ ...spec, gpus: 'none' })).not.toContain('--gpus');
    expect(dockerRunArgs({ ...spec, gpus: undefined })).not.toContain('--gpus');
    expect([parseGpus('all'), parseGpus('none'), parseGpus('0, 1'), parseGpus('0,1'), parseGpus('"device=0"')]).toEqual([
      'all',
      'none',
      undefined,
      '0,1',
      undefined,
    ]);
  });

  it('gives podman GPUs as CDI devices (podman 4.3 takes --gpus and ignores it), and none for none or CPU-only', () => {
    const podman = { ...spec, engine: 'podman' as const };
    expect(dockerRunArgs(podman).slice(6, 8)).toEqual(['--device', 'nvidia.com/gpu=all']);
    expect(gpuArgs('podman', '0,GPU-3f1c')).toEqual(['--device', 'nvidia.com/gpu=0', '--device', 'nvidia.com/gpu=GPU-3f1c']);
    for (const gpus of ['none', undefined]) {
      const args = dockerRunArgs({ ...podman, gpus });
      expect(args.filter((a) => a === '--gpus' || a === '--device')).toEqual([]);
    }
    expect(gpuArgs('docker', '0,1')).toEqual(['--gpus', '"device=0,1"']);
    // Everything but the GPU flags is the same command line for both engines.
    expect(dockerRunArgs({ ...podman, gpus: undefined })).toEqual(dockerRunArgs({ ...spec, gpus: undefined }));
  });

  it("quotes a repository path that would break --mount's CSV, and makes names docker accepts", () => {
    const args = dockerRunArgs({ ...spec, repoDir: '/data/a,b "x"' });
    expect(args[args.indexOf('--mount') + 1]).toBe('type=bind,"source=/data/a,b ""x""",target=/models,readonly');
    expect(containerName('my model/v2', 'ff')).toBe('tritonc-verify-my-model-v2-ff');
    expect(containerName('_x', 'ff')).toBe('tritonc-verify-x-ff');
  });

  it('finds distinct free loopback ports', async () => {
    const ports = await freePorts(3);
    expect(new Set(ports).size).toBe(3);
    for (const p of ports) expect(p).toBeGreaterThan(0);
  });
});

describe('verify --runtime docker --dry-run', () => {
  it('prints the docker command, the requests and the cleanup, and runs nothing', async () => {
    const { repo, dir } = repository();
    const d = await dryRunVerify({ modelDir: dir, runtime: 'docker', gpus: '0', deps: { ports: async () => [41000, 41001, 41002], nameSuffix: 't1' } });
    expect(d.command).toEqual([
      'docker',
      'run',
      '--rm',
      '--name',
      'tritonc-verify-tiny-t1',
      '--label',
      'dev.tritonc.verify=tiny',
      '--gpus',
      '"device=0"',
      '--mount',
      `type=bind,source=${repo},target=/models,readonly`,
      '-p',
      '127.0.0.1:41000:8000',
      '-p',
      '127.0.0.1:41001:8001',
      '-p',
      '127.0.0.1:41002:8002',
      DEFAULT_TRITON_IMAGE,
      'tritonserver',
      '--model-repository=/models',
      '--model-control-mode=explicit',
      '--load-model=tiny',
    ]);
    expect(d.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET http://127.0.0.1:41000/v2/health/ready',
      'GET http://127.0.0.1:41000/v2/models/tiny/ready',
      'GET http://127.0.0.1:41000/v2/models/tiny/config',
      'GET http://127.0.0.1:41000/v2/models/tiny',
      'POST http://127.0.0.1:41000/v2/models/tiny/infer',
      'POST http://127.0.0.1:41000/v2/models/tiny/infer',
    ]);
    expect(d.requests[5]).toMatchObject({
      body: {
        inputs: [{ name: 'input', shape: [8, 3, 4, 4], datatype: 'FP32', parameters: { binary_data_size: 1536 } }],
        outputs: [{ name: 'output', parameters: { binary_data: true } }],
      },
      binaryBytes: 1536,
    });
    expect(d.cleanup).toEqual(['docker', 'rm', '-f', 'tritonc-verify-tiny-t1']);
    const text = dryRunText(d);
    expect(text).toContain(
      `  docker run --rm --name tritonc-verify-tiny-t1 --label dev.tritonc.verify=tiny --gpus '"device=0"' --mount type=bind,source=${repo},target=/models,readonly`,
    );
    expect(text).toContain('      + 1536 bytes of binary tensor data (zeros)');
    expect(text).toContain('and always, at the end (also on failure, timeout and Ctrl-C):\n  docker rm -f tritonc-verify-tiny-t1');
  });

  it('--engine podman: the same command run by podman, GPUs as CDI devices, removed with podman rm -f', async () => {
    const { dir } = repository();
    const d = await dryRunVerify({
      modelDir: dir,
      runtime: 'docker',
      engine: 'podman',
      gpus: '0',
      deps: { ports: async () => [41000, 41001, 41002], nameSuffix: 't1' },
    });
    expect(d.command?.slice(0, 2)).toEqual(['podman', 'run']);
    expect(d.command).toContain('nvidia.com/gpu=0');
    expect(d.command).not.toContain('--gpus');
    // podman's rm -f stops first and kills after 10 s; --time 0 kills at once, as docker's does.
    expect(d.cleanup).toEqual(['podman', 'rm', '-f', '--time', '0', 'tritonc-verify-tiny-t1']);
    const text = await cli(['verify', dir, '--runtime', 'docker', '--engine', 'podman', '--gpus', 'none', '--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ {2}podman run --rm --name tritonc-verify-tiny-\S+ --label dev\.tritonc\.verify=tiny --mount /m);
    expect(text.stdout).toMatch(/^ {2}podman rm -f --time 0 tritonc-verify-tiny-/m);
  });

  it('--engine takes docker or podman, and only with --runtime docker', async () => {
    const { dir } = repository();
    const bad = await cli(['verify', dir, '--runtime', 'docker', '--engine', 'lxc', '--dry-run']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Argument: engine, Given: "lxc", Choices: "docker", "podman"');
    const ort = await cli(['verify', dir, '--runtime', 'ort', '--engine', 'podman']);
    expect(ort.code).toBe(2);
    expect(ort.stderr).toContain('--engine applies to --runtime docker');
  });

  it("the image is the target's: --triton-version 24.10 starts 24.10-py3, an image target its flavour; --image wins", async () => {
    const { dir } = repository();
    const image = async (...flags: string[]) => {
      const r = await cli(['verify', dir, '--runtime', 'docker', '--dry-run', '--format', 'json', ...flags]);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { command: string[] }).command.find((w) => w.startsWith('nvcr.io/') || w === 'my/triton:1');
    };
    expect(await image()).toBe(DEFAULT_TRITON_IMAGE);
    expect(DEFAULT_TRITON_IMAGE).toBe('nvcr.io/nvidia/tritonserver:26.08-py3');
    expect(await image('--triton-version', '24.10')).toBe('nvcr.io/nvidia/tritonserver:24.10-py3');
    expect(await image('--triton-version', '2.52.0')).toBe('nvcr.io/nvidia/tritonserver:24.11-py3');
    expect(await image('--triton-version', 'nvcr.io/nvidia/tritonserver:25.05-pyt-python-py3')).toBe('nvcr.io/nvidia/tritonserver:25.05-pyt-python-py3');
    expect(await image('--triton-version', '24.10', '--image', 'my/triton:1')).toBe('my/triton:1');
  });

  it('--image that starts with - is refused: the engine would read it as a flag of its own', async () => {
    const { dir } = repository();
    const r = await cli(['verify', dir, '--runtime', 'docker', '--image=-v/:/host', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--image takes an image reference such as nvcr.io/nvidia/tritonserver:26.07-py3; got "-v/:/host"');
  });

  it('gives CPU-only configs no GPUs', async () => {
    const { dir } = repository(CONFIG('KIND_CPU'));
    const d = await dryRunVerify({ modelDir: dir, runtime: 'docker', deps: { ports: async () => [1, 2, 3], nameSuffix: 'x' } });
    expect(d.command).not.toContain('--gpus');
  });
});

describe('verify --runtime docker (injected docker runner)', () => {
  it('waits for the model, checks it over HTTP, and removes the container', async () => {
    fixture = await startProtocolFixture({
      models: {
        tiny: {
          config: {
            name: 'tiny',
            platform: 'onnxruntime_onnx',
            backend: 'onnxruntime',
            max_batch_size: 8,
            input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 4, 4] }],
            output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [10] }],
            instance_group: [{ name: 'tiny_0', kind: 'KIND_GPU', count: 1, gpus: [0] }],
          },
          ready: true,
        },
      },
    });
    const docker = new FakeDocker();
    const { dir } = repository();
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 5000,
      deps: { runner: docker, ports: async () => [fixture!.port, 2, 3], nameSuffix: 'ok', pollMs: 10, signals: new EventEmitter() },
    });
    expect(r.problems).toEqual([]);
    expect(r.outcome).toBe('ok');
    expect(r.engine).toBe(`${DEFAULT_TRITON_IMAGE} (Docker 27.3.1)`);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [8, true],
    ]);
    expect(r.configDiff).toEqual([
      { path: 'platform', change: 'added', effective: '"onnxruntime_onnx"' },
      { path: 'instance_group[0].name', change: 'added', effective: '"tiny_0"' },
      { path: 'instance_group[0].gpus', change: 'added', effective: '[0]' },
    ]);
    expect(docker.calls.map((c) => c.slice(0, 3).join(' '))).toEqual(['docker version --format', 'docker image inspect', 'docker run --rm', 'docker rm -f']);
    expect(docker.removals()).toEqual([['docker', 'rm', '-f', 'tritonc-verify-tiny-ok']]);
    // docker rm in a process group of its own: a Ctrl-C pressed during the clean-up does not end it.
    expect(docker.runOptions.find((o) => o.args[0] === 'rm')?.group).toBe(true);
    expect(docker.killed).toBe(1);
  });

  it("shows Triton's error lines mapped to rule ids when the model fails to load, and removes the container", async () => {
    const docker = new FakeDocker({ lines: TRITON_FAILURE, exitAfterMs: 40, exitCode: 1 });
    const { dir } = repository();
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 5000,
      deps: { runner: docker, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'bad', pollMs: 10, signals: new EventEmitter() },
    });
    expect(r.exitCode).toBe(1);
    expect(r.tritonMessages).toEqual([
      {
        text: "failed to load 'tiny' version 1: Invalid argument: model 'tiny', tensor 'input': the model expects 4 dimensions (shape [-1,3,4,4]) but the model configuration specifies 5 dimensions (an initial batch dimension because max_batch_size > 0 followed by the explicit tensor shape, making complete shape [-1,1,3,4,4])",
        ruleId: 'batch-dim-in-dims',
      },
      { text: "Invalid argument: unexpected inference output 'logits', allowed outputs are: output", ruleId: 'io-name' },
      { text: 'error: creating server: Internal - failed to load all models' },
    ]);
    // Triton's closing "failed to load all models" is shown but is not a finding of its own.
    expect(r.problems.map((p) => p.ruleId)).toEqual(['batch-dim-in-dims', 'io-name']);
    expect(r.load?.ok).toBe(false);
    expect(docker.removals()).toEqual([['docker', 'rm', '-f', 'tritonc-verify-tiny-bad']]);
  });

  it("gives up at --timeout with exit 2 (not the config's fault), and removes the container", async () => {
    const docker = new FakeDocker({ lines: ['I1130 17:34:46.031062 1 server.cc:674] still loading'] });
    const { dir } = repository();
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 200,
      deps: { runner: docker, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'slow', pollMs: 10, signals: new EventEmitter() },
    });
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain(
      "Triton did not get 'tiny' ready within 200ms (a TensorRT engine build can take minutes); raise --timeout, e.g. --timeout 10m. Last lines:\n  I1130 17:34:46.031062 1 server.cc:674] still loading",
    );
    expect(docker.removals()).toEqual([['docker', 'rm', '-f', 'tritonc-verify-tiny-slow']]);
    expect(docker.killed).toBe(1);
  });

  it('removes the container on Ctrl-C (SIGINT) and exits 130; SIGTERM exits 143', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const signals = new EventEmitter();
      const docker = new FakeDocker({ onStart: () => setTimeout(() => signals.emit(signal), 30) });
      const { dir } = repository();
      const r = await verifyModel({
        modelDir: dir,
        runtime: 'docker',
        timeoutMs: 10_000,
        deps: { runner: docker, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'int', pollMs: 10, signals },
      });
      expect(r.outcome).toBe('interrupted');
      expect(r.exitCode).toBe(code);
      expect(r.error).toBe(`interrupted by ${signal}; the container was removed`);
      expect(docker.removals()).toEqual([['docker', 'rm', '-f', 'tritonc-verify-tiny-int']]);
      // The handlers are gone afterwards.
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    }
  });

  it('a second signal while the container is removed is held: the removal runs to its end, said once on the progress line', async () => {
    const signals = new EventEmitter();
    let listening = -1;
    const docker = new FakeDocker({
      onStart: () => setTimeout(() => signals.emit('SIGTERM'), 30),
      // A scheduler's second SIGTERM and a Ctrl-C, while `docker rm -f` runs.
      onRun: (args) => {
        if (args[0] !== 'rm') return;
        signals.emit('SIGTERM');
        signals.emit('SIGINT');
        listening = signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM');
      },
    });
    const { dir } = repository();
    const progress: string[] = [];
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 10_000,
      progress: (l) => progress.push(l),
      deps: { runner: docker, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'int2', pollMs: 10, signals },
    });
    expect([r.outcome, r.exitCode, r.error]).toEqual(['interrupted', 143, 'interrupted by SIGTERM; the container was removed']);
    expect(docker.removals()).toEqual([['docker', 'rm', '-f', 'tritonc-verify-tiny-int2']]);
    // Still listening while it was removed (a process would not have ended), and not afterwards.
    expect(listening).toBe(2);
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    expect(progress.filter((l) => l.includes('during the clean-up'))).toEqual([
      'SIGTERM during the clean-up: tritonc first finishes removing the container, so that nothing is left behind',
    ]);
  });

  it('no GPU for the container is exit 2 with a plain message, never a config problem', async () => {
    const docker = new FakeDocker({
      lines: ['docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'],
      exitAfterMs: 20,
      exitCode: 125,
    });
    const { dir } = repository();
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 5000,
      deps: { runner: docker, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'gpu', pollMs: 10, signals: new EventEmitter() },
    });
    expect(r.exitCode).toBe(2);
    expect(r.problems).toEqual([]);
    expect(r.error).toContain("the container cannot run 'tiny' on this machine:\n  docker: Error response from daemon: could not select device driver");
    expect(docker.removals()).toHaveLength(1);

    const tritonNoGpu = new FakeDocker({
      lines: [
        'E1130 17:34:46.100000 1 model_lifecycle.cc:654] "failed to load \'tiny\' version 1: Invalid argument: instance group tiny_0 of model tiny has kind KIND_GPU but no GPUs are available"',
      ],
      exitAfterMs: 20,
    });
    const t = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      gpus: 'none',
      timeoutMs: 5000,
      deps: { runner: tritonNoGpu, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'gpu', pollMs: 10, signals: new EventEmitter() },
    });
    expect(t.exitCode).toBe(2);
    expect(tritonNoGpu.calls.find((c) => c[1] === 'run')).not.toContain('--gpus');
  });

  it('--engine podman runs each step with podman and names it in the report', async () => {
    fixture = await startProtocolFixture({
      models: {
        tiny: {
          config: {
            name: 'tiny',
            platform: 'onnxruntime_onnx',
            backend: 'onnxruntime',
            max_batch_size: 8,
            input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 4, 4] }],
            output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [10] }],
            instance_group: [{ name: 'tiny_0', kind: 'KIND_CPU', count: 1 }],
          },
          ready: true,
        },
      },
    });
    const podman = new FakeDocker({}, { version: ok('4.3.1') });
    const { dir } = repository(CONFIG('KIND_CPU'));
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      engine: 'podman',
      image: 'localhost/triton:cpu',
      timeoutMs: 5000,
      deps: { runner: podman, ports: async () => [fixture!.port, 2, 3], nameSuffix: 'pm', pollMs: 10, signals: new EventEmitter() },
    });
    expect(r.outcome, r.error).toBe('ok');
    expect(r.engine).toBe('localhost/triton:cpu (Podman 4.3.1)');
    expect(podman.calls.map((c) => c.slice(0, 3).join(' '))).toEqual(['podman version --format', 'podman image inspect', 'podman run --rm', 'podman rm -f']);
    expect(podman.removals()).toEqual([['podman', 'rm', '-f', '--time', '0', 'tritonc-verify-tiny-pm']]);
    // podman 4.3's pull prints its progress before the error: the message quotes the error line.
    const noPull = new FakeDocker(
      {},
      {
        version: ok('4.3.1'),
        inspect: { exitCode: 125, stdout: '', stderr: 'Error: failed to find image\n', notFound: false },
        pull: {
          exitCode: 125,
          stdout: '',
          stderr:
            'Trying to pull localhost/triton:cpu...\nError: initializing source docker://localhost/triton:cpu: pinging container registry localhost: connect: connection refused\n',
          notFound: false,
        },
      },
    );
    const p = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      engine: 'podman',
      image: 'localhost/triton:cpu',
      deps: { runner: noPull, ports: async () => [1, 2, 3], signals: new EventEmitter() },
    });
    expect([p.exitCode, p.error]).toEqual([
      2,
      'podman cannot pull localhost/triton:cpu: Error: initializing source docker://localhost/triton:cpu: pinging container registry localhost: connect: connection refused. For nvcr.io images run podman login nvcr.io first, or pass --image with an image you have',
    ]);
    const missing = new FakeDocker({}, { version: { exitCode: undefined, stdout: '', stderr: '', notFound: true } });
    const m = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      engine: 'podman',
      deps: { runner: missing, ports: async () => [1, 2, 3], signals: new EventEmitter() },
    });
    expect([m.exitCode, m.error]).toEqual([
      2,
      "podman is not installed here (no `podman` on PATH). Install podman (and, for GPUs, the NVIDIA Container Toolkit's CDI spec), use Docker with --engine docker, or verify with --runtime ort or --runtime server --server URL",
    ]);
  });

  it('a machine without a GPU driver: DCGM\'s "Failed to initialize NVML" (metrics on, as in a container) is not the model\'s error', () => {
    // tritonserver 2.51.0's start on a CPU-only host, in the image of scripts/container/setup.sh.
    expect(
      mapTritonLog([
        'E1207 00:23:46.619016 1 server.cc:241] "CudaDriverHelper has not been initialized."',
        'Error: Failed to initialize NVML',
        'W1207 00:23:46.882826 1 metrics.cc:798] "DCGM unable to start: DCGM initialization error"',
        TRITON_FAILURE[1]!,
      ]).map((m) => m.ruleId ?? m.text),
    ).toEqual(['batch-dim-in-dims']);
  });

  it("the engine's own failure (run exits 125-127) is exit 2, never the config's: podman's port already taken", async () => {
    // podman 4.3's line and exit status for a host port taken between the choice and the bind.
    const podman = new FakeDocker(
      { lines: ['Error: cannot listen on the TCP port: listen tcp4 127.0.0.1:56769: bind: address already in use'], exitAfterMs: 20, exitCode: 126 },
      { version: ok('4.3.1') },
    );
    const { dir } = repository(CONFIG('KIND_CPU'));
    const r = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      engine: 'podman',
      timeoutMs: 5000,
      deps: { runner: podman, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'port', pollMs: 10, signals: new EventEmitter() },
    });
    expect([r.exitCode, r.problems]).toEqual([2, []]);
    expect(r.error).toBe(
      "podman could not start the container for 'tiny' (exit 126, the engine's own failure, not Triton's):\n  Error: cannot listen on the TCP port: listen tcp4 127.0.0.1:56769: bind: address already in use\nFix what podman says, then run verify again; or verify with --runtime local or --runtime ort",
    );
    expect(podman.removals()).toHaveLength(1);
    // Triton's own exit (1) with the same kind of line stays a load error.
    const triton = new FakeDocker({ lines: TRITON_FAILURE, exitAfterMs: 20, exitCode: 1 });
    const t = await verifyModel({
      modelDir: dir,
      runtime: 'docker',
      timeoutMs: 5000,
      deps: { runner: triton, ports: async () => [await closedPort(), 2, 3], nameSuffix: 'exit1', pollMs: 10, signals: new EventEmitter() },
    });
    expect(t.exitCode).toBe(1);
  });

  it('no docker binary, no daemon, an image it cannot pull: exit 2, nothing started', async () => {
    const { dir } = repository();
    const run = (docker: FakeDocker) =>
      verifyModel({ modelDir: dir, runtime: 'docker', deps: { runner: docker, ports: async () => [1, 2, 3], signals: new EventEmitter() } });
    const none = new FakeDocker({}, { version: { exitCode: undefined, stdout: '', stderr: '', notFound: true } });
    expect((await run(none)).error).toBe(
      'docker is not installed here (no `docker` on PATH). Install Docker with the NVIDIA Container Toolkit, use podman with --engine podman, or verify with --runtime ort (no Docker needed) or --runtime server --server URL',
    );
    const noDaemon = new FakeDocker(
      {},
      {
        version: {
          exitCode: 1,
          stdout: '',
          stderr: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n',
          notFound: false,
        },
      },
    );
    const r = await run(noDaemon);
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain(
      'docker is installed but cannot reach a Docker daemon (Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?)',
    );
    const noPull = new FakeDocker(
      {},
      {
        inspect: { exitCode: 1, stdout: '', stderr: 'No such image', notFound: false },
        pull: { exitCode: 1, stdout: '', stderr: 'Error response from daemon: unauthorized: authentication required\n', notFound: false },
      },
    );
    const p = await run(noPull);
    expect(p.error).toContain(
      `docker cannot pull ${DEFAULT_TRITON_IMAGE}: Error response from daemon: unauthorized: authentication required. For nvcr.io images run docker login nvcr.io first`,
    );
    for (const d of [none, noDaemon, noPull]) {
      expect(d.calls.some((c) => c[1] === 'run')).toBe(false);
      expect(d.removals()).toEqual([]);
    }
  });
});

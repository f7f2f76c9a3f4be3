// `tritonc verify` end to end through the CLI (in-process), with injected parts where a run would
// need Docker or a server.
import { EventEmitter } from 'node:events';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { setVerifyDeps } from '../../src/cli/verify.js';
import { freePorts } from '../../src/verify/ports.js';
import { cli, tempDir } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
let batchOne: string;

beforeAll(async () => {
  batchOne = await buildFixture('batch1-reshape', tempDir());
});

afterEach(() => setVerifyDeps(undefined));

function repoWith(modelFile: string | undefined, config: string, name = 'm'): string {
  const repo = tempDir();
  mkdirSync(join(repo, name, '1'), { recursive: true });
  if (modelFile) cpSync(modelFile, join(repo, name, '1', 'model.onnx'));
  writeFileSync(join(repo, name, 'config.pbtxt'), config);
  return repo;
}

const BATCH_ONE_CONFIG =
  'backend: "onnxruntime"\nmax_batch_size: 4\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 4 ] } ]\n';

describe('tritonc verify', () => {
  it('verifies the example classifier with ONNX Runtime (exit 0)', async () => {
    const r = await cli(['verify', 'model_repository/classifier'], { cwd: ROOT });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^tritonc verify classifier with ONNX Runtime 1\.\d+\.\d+ \(CPU\)\n {2}config {2}model_repository\/classifier\/config.pbtxt\n {2}model {3}model_repository\/classifier\/1\/model.onnx\n {2}load {4}ok in /,
    );
    expect(r.stdout).toMatch(/\n {2}batch 32 {2}ok {6}[ \d.]+ ms\n {6}in {3}input \[32,3,224,224\] TYPE_FP32\n {6}out {2}output \[32,1000\] TYPE_FP32\n/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('ok: classifier loaded and answered at batch 1 and 32 as configured');
  });

  it('prints a machine-readable report with --format json', async () => {
    const r = await cli(['verify', 'model_repository/classifier', '--format', 'json'], { cwd: ROOT });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ runtime: 'ort', model: 'classifier', outcome: 'ok', exitCode: 0, problems: [] });
    expect(report.runs.map((x: { batchSize: number }) => x.batchSize)).toEqual([1, 32]);
    // The release the verdicts are for: told nothing, the newest tritonc knows; told one, that one.
    expect(report.triton).toEqual({ release: '26.08', server: '2.72.0' });
    const told = await cli(['verify', 'model_repository/classifier', '--format', 'json', '--triton-version', '2.51.0'], { cwd: ROOT });
    expect(JSON.parse(told.stdout).triton).toEqual({ release: '24.10', server: '2.51.0' });
  });

  it('exits 1 for a model that fails at batch > 1, saying so', async () => {
    const repo = repoWith(batchOne, BATCH_ONE_CONFIG);
    const r = await cli(['verify', 'm'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  batch 4  FAILED');
    expect(r.stdout).toContain('error: the model answers at batch 1 but fails at batch 4');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('m: 2 problems (exit 1)');
  });

  it('exits 2 with install instructions when onnxruntime-node is missing', async () => {
    setVerifyDeps({ ortLoader: () => Promise.reject(Object.assign(new Error("Cannot find package 'onnxruntime-node'"), { code: 'ERR_MODULE_NOT_FOUND' })) });
    const r = await cli(['verify', 'model_repository/classifier'], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tritonc verify: verify --runtime ort needs onnxruntime-node/);
    expect(r.stderr).toContain('\n  npm install -g onnxruntime-node ');
    expect(r.stderr).toContain('\n  ONNXRUNTIME_NODE_INSTALL=skip npm install -g onnxruntime-node\n');
  });

  it('exits 2 with file:line:column for a config that does not parse', async () => {
    const repo = repoWith(batchOne, 'max_batch_size: 4\nmax_batch_sise: 4\n');
    const r = await cli(['verify', 'm'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tritonc verify: m\/config.pbtxt does not parse, so no runtime can load it:\nm\/config.pbtxt:2:1: /);
  });

  it('prints the docker command and requests with --dry-run, as text and JSON', async () => {
    setVerifyDeps({ ports: async () => [42000, 42001, 42002], nameSuffix: 'cli' });
    const r = await cli(['verify', 'model_repository/classifier', '--runtime', 'docker', '--dry-run', '--image', 'example.com/triton:test', '--gpus', '0,1'], {
      cwd: ROOT,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `  docker run --rm --name tritonc-verify-classifier-cli --label dev.tritonc.verify=classifier --gpus '"device=0,1"' --mount type=bind,source=${join(ROOT, 'model_repository')},target=/models,readonly -p 127.0.0.1:42000:8000 -p 127.0.0.1:42001:8001 -p 127.0.0.1:42002:8002 example.com/triton:test tritonserver --model-repository=/models --model-control-mode=explicit --load-model=classifier\n`,
    );
    const j = await cli(['verify', 'model_repository/classifier', '--runtime', 'docker', '--dry-run', '--format', 'json'], { cwd: ROOT });
    const d = JSON.parse(j.stdout);
    expect(d.command.slice(0, 3)).toEqual(['docker', 'run', '--rm']);
    expect(d.cleanup).toEqual(['docker', 'rm', '-f', 'tritonc-verify-classifier-cli']);
    expect(d.requests).toHaveLength(6);
  });

  it('the docker dry-run quotes every argument that a shell would read otherwise', async () => {
    setVerifyDeps({ ports: async () => [42000, 42001, 42002], nameSuffix: 'cli' });
    const repo = repoWith(undefined, 'backend: "python"\n', "it's $(here)");
    writeFileSync(join(repo, "it's $(here)", '1', 'model.py'), '');
    const r = await cli(['verify', join(repo, "it's $(here)"), '--runtime', 'docker', '--dry-run'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.trim().startsWith('docker run'))!;
    expect(line).toContain(`'--load-model=it'\\''s $(here)'`);
    // Read back by bash, every argument comes back whole: what would run is what was shown.
    const { spawnSync } = await import('node:child_process');
    const words = spawnSync('bash', ['-c', `printf '%s\\0' ${line.trim()}`], { encoding: 'utf8' })
      .stdout.split('\0')
      .filter(Boolean);
    expect(words).toContain("--load-model=it's $(here)");
    expect(words.slice(0, 3)).toEqual(['docker', 'run', '--rm']);
    expect(words.some((w) => w.startsWith('source=') && w.includes(repo))).toBe(false);
    expect(words.find((w) => w.startsWith('type=bind'))).toBe(`type=bind,source=${repo},target=/models,readonly`);
  });

  it('refuses a --header with a line break or a control character (exit 2), naming it escaped', async () => {
    for (const bad of ['admin-key:secret\r\nX-Injected: 1', 'admin-key:secret\nX: y', 'admin-key:sec\rret', 'admin-key:a\u0000b']) {
      const r = await cli(['verify', 'model_repository/classifier', '--server', 'localhost:8000', '--dry-run', '--header', bad], { cwd: ROOT });
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(r.stderr).toContain('--header takes NAME:VALUE, with no line breaks or control characters');
      // One line: the value's line breaks shown escaped.
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
    expect(
      (await cli(['verify', 'model_repository/classifier', '--server', 'localhost:8000', '--dry-run', '--header', 'admin-key: s3cr\tet value'], { cwd: ROOT }))
        .code,
    ).toBe(0);
  });

  it('prints the server requests with --dry-run, the candidate config as the load parameter', async () => {
    const r = await cli(['verify', 'model_repository/classifier', '--server', 'localhost:8000', '--dry-run', '--format', 'json'], { cwd: ROOT });
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.runtime).toBe('server');
    expect(d.requests.map((x: { method: string; url: string }) => `${x.method} ${x.url}`).slice(0, 4)).toEqual([
      'GET http://localhost:8000/v2',
      'POST http://localhost:8000/v2/repository/index',
      'GET http://localhost:8000/v2/models/classifier/config',
      'POST http://localhost:8000/v2/repository/models/classifier/load',
    ]);
    expect(JSON.parse(d.requests[3].body.parameters.config)).toMatchObject({ name: 'classifier', max_batch_size: 32 });
    // The restore: the config served before, loaded back, then read back.
    expect(d.requests.slice(-2).map((x: { method: string; url: string }) => `${x.method} ${x.url}`)).toEqual([
      'POST http://localhost:8000/v2/repository/models/classifier/load',
      'GET http://localhost:8000/v2/models/classifier/config',
    ]);
  });

  it('exits 2 when docker has no daemon, never blaming the config', async () => {
    setVerifyDeps({
      runner: {
        run: async () => ({
          exitCode: 1,
          stdout: '',
          stderr: 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
          notFound: false,
        }),
        start: () => {
          throw new Error('must not start');
        },
      },
      signals: new EventEmitter(),
    });
    const r = await cli(['verify', 'model_repository/classifier', '--runtime', 'docker'], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'tritonc verify: docker is installed but cannot reach a Docker daemon (Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?). Start the daemon (e.g. sudo systemctl start docker) or check DOCKER_HOST; or use --engine podman, or verify with --runtime ort\n',
    );
  });

  it('exits 2 for an unreachable server', async () => {
    const [port] = await freePorts(1);
    const r = await cli(['verify', 'model_repository/classifier', '--runtime', 'server', '--server', `http://127.0.0.1:${port}`, '--format', 'json'], {
      cwd: ROOT,
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'cannot-run', exitCode: 2 });
    expect(r.stderr).toBe(
      `tritonc verify: cannot reach http://127.0.0.1:${port} (ECONNREFUSED). Start Triton, or check --server (Triton serves HTTP on port 8000 by default)\n`,
    );
    // Ports the Fetch standard blocks get their own explanation instead of undici's "bad port".
    const blocked = await cli(['verify', 'model_repository/classifier', '--server', 'http://127.0.0.1:6000'], { cwd: ROOT });
    // node:http (unlike Node's fetch) does not block the Fetch standard's "bad ports": nothing listens there.
    expect(blocked.stderr).toContain('cannot reach http://127.0.0.1:6000 (ECONNREFUSED)');
  });

  it.each([
    [['--timeout', 'soon'], 'tritonc verify: --timeout takes a duration such as 120s, 10m or 90 (seconds); got "soon"'],
    [['--runtime', 'docker', '--gpus', '0;1'], 'tritonc verify: --gpus takes all, none, or device ids such as 0,1; got "0;1"'],
    [['--image', 'x'], 'tritonc verify: --image applies to --runtime docker'],
    [['--runtime', 'server'], 'tritonc verify: --runtime server needs --server URL, e.g. --server http://localhost:8000'],
    [['--server', 'ftp://x'], 'tritonc verify: --server takes Triton\'s HTTP URL, e.g. http://localhost:8000; got "ftp://x"'],
    [['--runtime', 'ort', '--server', 'localhost:8000'], 'tritonc verify: --server applies to --runtime server'],
    [['--runtime', 'tensorrt'], 'tritonc verify: Invalid values:'],
  ])('usage errors exit 2: %j', async (args, message) => {
    const r = await cli(['verify', 'model_repository/classifier', ...args], { cwd: ROOT });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('is listed in --help', async () => {
    const r = await cli(['--help']);
    expect(r.stdout).toContain('tritonc verify <model_dir>');
  });
});

// tritonc lint --deployment end to end: manifests read as the platforms read them, the repository
// each server serves linted as that server runs it (its image's release, its flags, its GPUs), the
// deployment rules' findings at the manifest's line and column, and every bad input a usage error
// (exit 2) that names the file, line and column.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { cli, runBin } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { S3RVER_KEYS, startS3, type S3Fixture } from '../support/object-stores.js';
import type { JsonFileResult } from '../../src/report/json.js';

const FIXTURES = join(__dirname, '..', 'fixtures', 'deployments');

const pod = (image: string, args: string[], resources = '') =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: triton\nspec:\n  containers:\n    - name: server\n      image: ${image}\n      args: ${JSON.stringify(['tritonserver', ...args])}\n${resources}`;

let repo: string;
let work: string;
beforeAll(async () => {
  repo = await writeRepo({
    'classifier/config.pbtxt': CLASSIFIER_CONFIG.replace('instance_group', '# no group\n#'),
    'classifier/1/model.onnx': CLASSIFIER,
  });
  work = tempDir('tritonc-deploy-');
});

const json = (stdout: string) => JSON.parse(stdout) as JsonFileResult[];
const findings = (r: JsonFileResult[]) => r.flatMap((f) => f.messages.map((d) => ({ ...d, file: f.filePath })));
const releases = (r: JsonFileResult[]) =>
  [...new Set(r.flatMap((f) => f.triton.map((t) => JSON.stringify(t))))].map((t) => JSON.parse(t) as JsonFileResult['triton'][number]);

describe('lint --deployment on Kubernetes manifests', () => {
  it("a mounted volume's directory given: the deployment rules report in the manifest, at their line and column", async () => {
    const manifest = join(work, 'gpu.yaml');
    writeFileSync(
      manifest,
      `${pod('nvcr.io/nvidia/tritonserver:24.10-py3', ['--model-repository=/models', '--model-control-mode=poll'])}      resources:\n        limits:\n          memory: 8Gi\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: triton\nspec:\n  ports: [{port: 8000}]\n`,
    );
    writeFileSync(join(repo, 'classifier', 'config.pbtxt'), `${CLASSIFIER_CONFIG}instance_group [ { kind: KIND_GPU } ]\n`);
    const r = await cli(['lint', '--deployment', manifest, repo, '--format', 'json'], { cwd: work });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const found = findings(json(r.stdout));
    const inManifest = found.filter((d) => d.file === manifest).map((d) => [d.ruleId, d.messageId, d.line, d.column]);
    expect(inManifest).toEqual([
      ['deployment-poll', 'pollMode', 9, 58],
      ['deployment-gpus', 'noGpus', 11, 9],
    ]);
    // The config's own finding names the deployment as the source of the GPU count.
    const group = found.find((d) => d.ruleId === 'instance-group' && d.messageId === 'gpuGroupWithoutGpus');
    expect(group?.message).toContain(`(nvidia.com/gpu of "Pod triton, container server" at gpu.yaml:11:9: 0)`);
    // Judged as the image's release.
    expect(releases(json(r.stdout))).toEqual([{ release: '24.10', server: '2.51.0', flavour: 'py3' }]);
  });

  it("the image's release decides: a field 24.10 cannot read is refused under its image, read under 26.08's", async () => {
    const dir = await writeRepo({
      'm/config.pbtxt': `${CLASSIFIER_CONFIG.replace('"classifier"', '"m"')}model_metrics { }\n`,
      'm/1/model.onnx': CLASSIFIER,
    });
    const at = (tag: string) => {
      const f = join(work, `release-${tag}.yaml`);
      writeFileSync(f, pod(`nvcr.io/nvidia/tritonserver:${tag}`, ['--model-repository=/models']));
      return f;
    };
    const old = json((await cli(['lint', '--deployment', at('24.10-py3'), dir, '--format', 'json'], { cwd: work })).stdout);
    const current = json((await cli(['lint', '--deployment', at('26.08-py3'), dir, '--format', 'json'], { cwd: work })).stdout);
    expect(findings(old).some((d) => d.ruleId === 'field-release')).toBe(true);
    expect(findings(current).some((d) => d.ruleId === 'field-release')).toBe(false);
  });

  it('a volume and no directory: exit 2, naming the manifest line and what to give', async () => {
    const manifest = join(work, 'volume.yaml');
    writeFileSync(manifest, pod('nvcr.io/nvidia/tritonserver:24.10-py3', ['--model-repository', '/models']));
    const r = await cli(['lint', '--deployment', manifest], { cwd: work });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('volume.yaml:9:50: /models is a directory in the container');
    expect(r.stderr).toContain('tritonc lint --deployment');
  });

  it('a shell script (sh -c) with $(VAR) and $VAR from the env: the flags are read as the shell and kubelet pass them', async () => {
    const r = await cli(['lint', '--deployment', join(FIXTURES, 'kubernetes', 'triton-shell.yaml'), repo, '--format', 'json'], { cwd: work });
    expect(r.code, r.stderr).not.toBe(2);
    expect(releases(json(r.stdout))[0]?.release).toBe('24.10');
  });

  it('manifests on standard input', async () => {
    const r = await cli(['lint', '--deployment', '-', repo, '--format', 'json'], {
      cwd: work,
      stdin: pod('nvcr.io/nvidia/tritonserver:25.01-py3', ['--model-repository=/models', '--model-control-mode=poll']),
    });
    const poll = findings(json(r.stdout)).find((d) => d.ruleId === 'deployment-poll');
    expect(poll?.file).toBe('<stdin>');
    expect(releases(json(r.stdout))[0]?.release).toBe('25.01');
  });

  it('no container runs tritonserver: exit 2 saying where it looked', async () => {
    const r = await cli(['lint', '--deployment', join(FIXTURES, 'kubernetes', 'triton-job.yaml'), repo], { cwd: work });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no container in .* runs tritonserver \(1 document read\)/);
  });
});

describe('bad manifests are usage errors with file, line and column', () => {
  const run = async (name: string, text: string) => {
    const f = join(work, name);
    writeFileSync(f, text);
    return cli(['lint', '--deployment', f, repo], { cwd: work });
  };
  it('a YAML syntax error', async () => {
    const r = await run('broken.yaml', 'apiVersion: v1\nkind: Pod\nspec:\n  containers: [\n    {name: a\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml:\d+:\d+: /);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
  it('a duplicate key', async () => {
    const r = await run('dup.yaml', 'apiVersion: v1\nkind: Pod\nkind: Pod\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/dup\.yaml:3:1: .*[Uu]nique/);
  });
  it('aliases that would expand past a bound are refused, not expanded ("billion laughs")', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const r = await run('laughs.yaml', `${lines.join('\n')}\n`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/laughs\.yaml:\d+:\d+: .*alias/i);
  });
  it('more servers than one run lints: refused with the count, before any lint', async () => {
    const many = Array.from({ length: 257 }, (_, i) =>
      pod('nvcr.io/nvidia/tritonserver:24.10-py3', ['--model-repository=/models']).replace('name: triton', `name: t${i}`),
    ).join('---\n');
    const r = await run('many.yaml', many);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('starts 257 tritonservers, more than the 256 tritonc lints in one run');
  });
  it('control characters in values reach the terminal escaped', async () => {
    const r = await run('escape.yaml', pod('"nvcr.io/nvidia/tritonserver:\\e[31mred"', ['--model-repository=/models']));
    expect(r.stdout + r.stderr).not.toContain('\u001b');
  });
  it('a manifest over 8 MiB is refused before it is parsed (a real process: the bound on standard input too)', () => {
    const big = join(work, 'big.yaml');
    writeFileSync(big, `# ${'x'.repeat(9 * 1024 * 1024)}\n`);
    const file = runBin(['lint', '--deployment', big, repo]);
    expect(file.code, file.stderr).toBe(2);
    expect(file.stderr).toMatch(/big\.yaml: cannot read: \d+ bytes, more than the 8388608/);
    const stdin = runBin(['lint', '--deployment', '-', repo], { input: `# ${'x'.repeat(9 * 1024 * 1024)}\n` });
    expect(stdin.code, stdin.stderr).toBe(2);
    expect(stdin.stderr).toContain('standard input holds more than the 8388608 bytes');
  });
});

describe('KServe over s3:// (s3rver) and SageMaker', () => {
  let s3: S3Fixture;
  beforeAll(async () => {
    s3 = await startS3(['models']);
    await s3.upload('models', 'prod/repo', repo);
  }, 60_000);
  afterAll(async () => s3?.close());

  const isvc = (uri: string, extra = '') =>
    `apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: classifier\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: triton\n      runtimeVersion: 24.10-py3\n      storageUri: ${uri}\n${extra}`;

  it('storageUri at the repository: the objects are linted as the server would read /mnt/models, named by URL', async () => {
    const f = join(work, 'isvc.yaml');
    const url = `s3://127.0.0.1:${s3.port}/models/prod/repo`;
    writeFileSync(f, isvc(url, '      resources:\n        limits:\n          nvidia.com/gpu: 1\n'));
    const r = await cli(['lint', '--deployment', f, '--format', 'json'], { cwd: work, env: { ...S3RVER_KEYS } });
    expect(r.code, r.stderr).toBeLessThan(2);
    const result = json(r.stdout);
    expect(result.map((x) => x.filePath)).toContain(`${url}/classifier/config.pbtxt`);
    expect(findings(result).filter((d) => d.ruleId.startsWith('deployment-'))).toEqual([]);
  });

  it('storageUri at the model directory: deployment-storage at the storageUri, with the parent to use', async () => {
    const f = join(work, 'isvc-model.yaml');
    const url = `s3://127.0.0.1:${s3.port}/models/prod/repo/classifier`;
    writeFileSync(f, isvc(url));
    const r = await cli(['lint', '--deployment', f, '--format', 'json'], { cwd: work, env: { ...S3RVER_KEYS } });
    const storage = findings(json(r.stdout)).filter((d) => d.ruleId === 'deployment-storage');
    expect(storage.map((d) => [d.messageId, d.line])).toEqual([['modelNotRepository', 11]]);
    expect(storage[0]?.message).toContain(`point it at s3://127.0.0.1:${s3.port}/models/prod/repo/, the directory above`);
    expect(r.code).toBe(1);
  });

  it('a local checkout stands in for the URL, before it is uploaded', async () => {
    const f = join(work, 'isvc.yaml');
    const r = await cli(['lint', '--deployment', f, repo, '--format', 'json'], { cwd: work });
    expect(r.code, r.stderr).toBeLessThan(2);
    expect(json(r.stdout).map((x) => x.filePath)).toContain(join(repo, 'classifier', 'config.pbtxt'));
  });

  it("a SageMaker CreateModel request: the serve script's checks on the archive's directory", async () => {
    const r = await cli(['lint', '--deployment', join(FIXTURES, 'sagemaker', 'create-model.json'), repo, '--format', 'json'], { cwd: work });
    expect(r.code, r.stderr).toBeLessThan(2);
    const result = json(r.stdout);
    expect(releases(result)[0]?.release).toMatch(/^\d\d\.\d\d$/);
    const sm = findings(result).filter((d) => d.ruleId === 'sagemaker-default-model');
    // The fixture names a model the repository lacks, or the one it has: either way the rule has read the environment.
    for (const d of sm) expect(d.file).toContain('create-model.json');
  });
});

describe('KServe runtimes', () => {
  it('an InferenceService on a runtime the files do not hold: exit 2 at its runtime line, asking for the manifest', async () => {
    const f = join(work, 'custom-runtime.yaml');
    writeFileSync(
      f,
      'apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: c\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: triton\n      runtime: team-triton\n      storageUri: s3://b/m\n',
    );
    const r = await cli(['lint', '--deployment', f, repo], { cwd: work });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('custom-runtime.yaml:10:16: InferenceService c runs on the ServingRuntime "team-triton", which none of the files given holds');
  });

  it("the runtime given beside it: its image and args, the predictor's args appended", async () => {
    const runtime = join(work, 'runtime.yaml');
    writeFileSync(
      runtime,
      'apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\nmetadata:\n  name: team-triton\nspec:\n  supportedModelFormats:\n    - name: triton\n      version: "2"\n  containers:\n    - name: kserve-container\n      image: nvcr.io/nvidia/tritonserver:25.01-py3\n      args: ["tritonserver", "--model-store=/mnt/models"]\n',
    );
    const isvc = join(work, 'custom-runtime.yaml');
    writeFileSync(
      isvc,
      'apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: c\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: triton\n      runtime: team-triton\n      storageUri: s3://b/m\n      args: ["--model-control-mode=poll"]\n',
    );
    const r = await cli(['lint', '--deployment', isvc, '--deployment', runtime, repo, '--format', 'json'], { cwd: work });
    expect(r.code, r.stderr).toBeLessThan(2);
    expect(releases(json(r.stdout))[0]?.release).toBe('25.01');
    expect(
      findings(json(r.stdout))
        .filter((d) => d.ruleId === 'deployment-poll')
        .map((d) => [d.file, d.line]),
    ).toEqual([[isvc, 12]]);
  });
});

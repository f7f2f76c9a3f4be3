// tritonc deploy, run as a user runs it (the built CLI), on the project's model_repository and on
// repositories written here. Everything it writes is itself checked: every manifest parsed with the
// `yaml` package and held to the Kubernetes API's schema (test/support/kubernetes-schema.ts), and linted
// as `tritonc lint --deployment` lints it (the CLI over the written file, or, for a manifest whose
// repository is an s3:// URL, the same run made over the local repository: test/support/deployment-case.ts),
// with no error and no finding of a deployment rule for a repository Triton loads.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import type { LintResult } from '../../src/lint/results.js';
import { cli, runBin, tempDir } from '../support/cli.js';
import { S3RVER_KEYS, startS3, type S3Fixture } from '../support/object-stores.js';
import { deploymentRunOptions } from '../support/deployment-case.js';
import { kserveCrdsRun, kubernetesSchemaErrors } from '../support/kubernetes-schema.js';
import { ROOT } from '../support/snapshot.js';
import { writeRepo } from '../lint/harness.js';
import { helmBinary } from '../support/helm.js';

const REPO = join(ROOT, 'model_repository');
/** A chart that takes NVIDIA's k8s-onprem values as that chart does (test/fixtures/deployments/README.md). */
const NVIDIA_CHART = join(ROOT, 'test', 'fixtures', 'deployments', 'charts', 'nvidia-onprem');
const helm = helmBinary('tritonc deploy --target helm rendered by the real helm');

/** Every document of a YAML text, parsed; a document that does not parse fails the test. */
function documents(text: string): Record<string, any>[] {
  return parseAllDocuments(text).map((d) => {
    expect(d.errors.map((e) => e.message)).toEqual([]);
    return d.toJS() as Record<string, any>;
  });
}

/** The findings of a lint run as "rule messageId" with their severity, for assertions. */
const findings = (r: LintResult) => [
  ...r.problems.map((p) => ({ rule: 'input', id: p.message, severity: 'error' })),
  ...r.results.flatMap((f) => f.diagnostics.map((d) => ({ rule: d.ruleId, id: d.messageId, severity: d.severity }))),
];

/** Lint's verdict over a written manifest, as lint --deployment runs it (JSON report). */
function lintDeployment(file: string, repo?: string): { code: number; findings: { ruleId: string; severity: number; message: string }[] } {
  const r = runBin(['lint', '--deployment', file, ...(repo ? [repo] : []), '--format', 'json']);
  const parsed = JSON.parse(r.stdout || '[]') as { messages: { ruleId: string; severity: number; message: string }[] }[];
  return { code: r.code, findings: parsed.flatMap((f) => f.messages) };
}

/** The container of a Deployment (or of the chart's rendering). */
const containerOf = (deployment: Record<string, any>) => deployment.spec.template.spec.containers[0];

/** The words of a command line as bash reads them (`docker` made a function that prints its arguments). */
function bashWords(script: string): string[] {
  const file = join(tempDir('tritonc-deploy-sh-'), 'run.sh');
  writeFileSync(file, script);
  const r = spawnSync('bash', ['-c', 'docker() { printf "%s\\0" "$@"; }; . "$1"', 'bash', file], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\0').slice(0, -1);
}

/** $$ read as $, as the kubelet reads command and args (kubernetes third_party/forked/golang/expansion/expand.go). */
const kubeletExpands = (word: string) => word.replace(/\$\$/g, '$');

/**
 * The Deployment NVIDIA's deploy/k8s-onprem chart renders from values (triton-inference-server/server
 * @ 4b54459107911180d3c3b24cea1c5bc832563c0a, templates/deployment.yaml), its parts tritonc's values
 * set, rendered as its template writes them: `image: "{{ .Values.image.imageName }}"` (line 63),
 * `nvidia.com/gpu: {{ .Values.image.numGpus }}` (line 71), and `- tritonserver` then `- {{ . }}` for
 * each of .Values.serverArgs (lines 73-76), every value written into the YAML as it is. (No helm
 * here: the real chart's rendering is item 1's, with the real helm.)
 */
function renderChart(values: Record<string, any>): Record<string, any> {
  const args = ['tritonserver', ...(values.serverArgs as string[])].map((a) => `            - ${a}`).join('\n');
  const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${values.fullnameOverride}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: triton-inference-server
  template:
    metadata:
      labels:
        app: triton-inference-server
    spec:
      volumes:
        - name: models
          nfs:
            server: 10.0.0.1
            path: ${values.image.modelRepositoryPath}
      containers:
        - name: triton-inference-server
          image: "${values.image.imageName}"
          volumeMounts:
            - mountPath: /models
              name: models
          resources:
            limits:
              nvidia.com/gpu: ${values.image.numGpus}
          args:
${args}
`;
  return documents(text)[0]!;
}

/** A copy of the project's classifier under another name (its config without `name`, which Triton fills in from the directory). */
function copyClassifier(repo: string, model: string): void {
  mkdirSync(join(repo, model, '1'), { recursive: true });
  cpSync(join(REPO, 'classifier', '1', 'model.onnx'), join(repo, model, '1', 'model.onnx'));
  const config = readFileSync(join(REPO, 'classifier', 'config.pbtxt'), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('#') && !l.startsWith('name:'))
    .join('\n');
  writeFileSync(join(repo, model, 'config.pbtxt'), config);
}

describe('tritonc deploy --target kubernetes', () => {
  it('writes a valid Deployment and Service for model_repository that lint --deployment finds nothing wrong with', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kubernetes']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const docs = documents(r.stdout);
    expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service']);
    for (const d of docs) expect(kubernetesSchemaErrors(d)).toEqual([]);

    const c = containerOf(docs[0]!);
    expect(c.image).toBe('nvcr.io/nvidia/tritonserver:26.08-py3');
    expect(c.args).toEqual(['tritonserver', '--model-repository=/models', '--model-control-mode=explicit', '--load-model=classifier']);
    // classifier's KIND_GPU group lists no GPU: one; the pinned pool and the floor make the memory.
    expect(c.resources.limits).toEqual({ 'nvidia.com/gpu': 1, memory: '2Gi' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/v2/health/ready', port: 8000 });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/v2/health/live', port: 8000 });
    expect(c.ports).toContainEqual({ name: 'metrics', containerPort: 8002 });
    expect(docs[1]!.spec.selector).toEqual(docs[0]!.spec.template.metadata.labels);
    expect(docs[1]!.spec.ports.map((p: any) => [p.name, p.port])).toEqual([
      ['http', 8000],
      ['grpc', 8001],
      ['metrics', 8002],
    ]);
    // The volume the user fills is said to be theirs.
    expect(r.stdout).toMatch(/# Fill in: the repository, mounted read-only at \/models/);

    const out = tempDir('tritonc-deploy-');
    const w = runBin(['deploy', 'model_repository', '--target', 'kubernetes', '--out', out]);
    expect([w.code, w.stdout]).toEqual([0, `wrote ${join(out, 'kubernetes.yaml')}\n`]);
    expect(readFileSync(join(out, 'kubernetes.yaml'), 'utf8')).toBe(r.stdout);
    const lint = lintDeployment(join(out, 'kubernetes.yaml'), 'model_repository');
    expect(lint.code).toBe(0);
    expect(lint.findings.filter((f) => f.severity === 2)).toEqual([]);
    expect(lint.findings.filter((f) => f.ruleId.startsWith('deployment-'))).toEqual([]);
  });

  it('reads the repository from --storage-uri, and asks for no volume', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kubernetes', '--storage-uri', 's3://models/triton', '--name', 'classifier']);
    expect(r.code).toBe(0);
    const [deployment] = documents(r.stdout);
    expect(kubernetesSchemaErrors(deployment)).toEqual([]);
    expect(containerOf(deployment!).args[1]).toBe('--model-repository=s3://models/triton');
    expect(deployment!.spec.template.spec.volumes).toBeUndefined();
    expect(deployment!.metadata.name).toBe('classifier');
    // As lint --deployment reads it, over the local copy of what the bucket holds.
    const result = lintSync([REPO], { ...deploymentRunOptions(r.stdout, join(REPO, 'kubernetes.yaml'), () => REPO, ROOT).options, cwd: ROOT });
    expect(findings(result).filter((f) => f.severity === 'error' || f.rule.startsWith('deployment-'))).toEqual([]);
  });

  it('gives the memory limit the CPU instances need, which deployment-memory checks', async () => {
    // Two CPU instances of a model with 3 GiB of weights (external data, a sparse file): 6 GiB held,
    // a quarter more in whole GiB: 8Gi; no GPU, so no GPU resource and no pinned pool.
    const repo = await writeRepo({
      'big/config.pbtxt': 'backend: "onnxruntime"\nmax_batch_size: 8\ninstance_group [ { kind: KIND_CPU count: 2 } ]\n',
      'big/1/model.onnx': {
        inputs: [['input', 'FLOAT', ['batch', 4]]],
        outputs: [['output', 'FLOAT', ['batch', 4]]],
        externalBytes: 3 * 2 ** 30,
      },
    });
    writeFileSync(join(repo, 'big', '1', 'weights.bin'), '');
    truncateSync(join(repo, 'big', '1', 'weights.bin'), 3 * 2 ** 30);
    const r = runBin(['deploy', repo, '--target', 'kubernetes', '--name', 'big']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [deployment] = documents(r.stdout);
    expect(containerOf(deployment!).resources.limits).toEqual({ memory: '8Gi' });
    expect(r.stdout).toMatch(/# memory: 6 GiB held at the least \(big: 2 CPU instances x 3 GiB\)/);
    const out = join(tempDir('tritonc-deploy-'), 'k8s');
    expect(runBin(['deploy', repo, '--target', 'kubernetes', '--name', 'big', '--out', out]).code).toBe(0);
    const lint = lintDeployment(join(out, 'kubernetes.yaml'), repo);
    expect(lint.findings.filter((f) => f.ruleId.startsWith('deployment-'))).toEqual([]);
    // The same manifest with less memory is what the rule refuses: the limit above is what it asks.
    writeFileSync(join(out, 'kubernetes.yaml'), readFileSync(join(out, 'kubernetes.yaml'), 'utf8').replace('memory: 8Gi', 'memory: 5Gi'));
    expect(lintDeployment(join(out, 'kubernetes.yaml'), repo).findings.map((f) => f.ruleId)).toContain('deployment-memory');
  });
});

describe('tritonc deploy --target docker', () => {
  it('prints one docker run line with the release image, the GPUs, the mount and the ports', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'docker', '--triton-version', '24.10']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).every((l) => l.startsWith('# '))).toBe(true);
    expect(bashWords(r.stdout)).toEqual([
      'run',
      '--rm',
      '--name',
      'model-repository',
      '--gpus',
      '"device=0"',
      '--mount',
      `type=bind,source=${REPO},target=/models,readonly`,
      '-p',
      '8000:8000',
      '-p',
      '8001:8001',
      '-p',
      '8002:8002',
      'nvcr.io/nvidia/tritonserver:24.10-py3',
      'tritonserver',
      '--model-repository=/models',
      '--model-control-mode=explicit',
      '--load-model=classifier',
    ]);
  });

  it('picks the image flavour that has every backend, and refuses one that lacks a backend', async () => {
    const repo = await writeRepo({
      'llm/config.pbtxt': 'backend: "vllm"\ninstance_group [ { kind: KIND_MODEL } ]\n',
      'llm/1/model.json': '{"model": "facebook/opt-125m"}\n',
      'pre/config.pbtxt':
        'backend: "python"\ninput [ { name: "x" data_type: TYPE_STRING dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_STRING dims: [ 1 ] } ]\ninstance_group [ { kind: KIND_CPU } ]\n',
      'pre/1/model.py': 'class TritonPythonModel:\n    def execute(self, requests):\n        return []\n',
    });
    const r = runBin(['deploy', repo, '--target', 'docker', '--name', 'llm']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const words = bashWords(r.stdout);
    expect(words).toContain('nvcr.io/nvidia/tritonserver:26.08-vllm-python-py3');
    // No instance group on a GPU: no --gpus.
    expect(words).not.toContain('--gpus');
    const wrong = runBin(['deploy', repo, '--target', 'docker', '--name', 'llm', '--triton-version', '24.10-py3']);
    expect([wrong.code, wrong.stdout]).toEqual([2, '']);
    expect(wrong.stderr).toBe('tritonc deploy: --triton-version 24.10-py3: the 24.10-py3 image has no vllm (llm) backend; vllm is in 24.10-vllm-python-py3\n');
    // The Deployment on that image: deployment-image finds the backends there.
    const out = tempDir('tritonc-deploy-');
    expect(runBin(['deploy', repo, '--target', 'kubernetes', '--name', 'llm', '--out', out]).code).toBe(0);
    expect(containerOf(documents(readFileSync(join(out, 'kubernetes.yaml'), 'utf8'))[0]!).image).toBe('nvcr.io/nvidia/tritonserver:26.08-vllm-python-py3');
    expect(lintDeployment(join(out, 'kubernetes.yaml'), repo).findings.filter((f) => f.ruleId.startsWith('deployment-'))).toEqual([]);
  });

  it('passes the server flags on, and refuses fewer GPUs than the instance groups need', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'docker', '--backend-config=onnxruntime,default-max-batch-size=8', '--gpus', '2']);
    expect(r.code).toBe(0);
    const words = bashWords(r.stdout);
    expect(words).toContain('"device=0,1"');
    expect(words.at(-1)).toBe('--backend-config=onnxruntime,default-max-batch-size=8');
    const few = runBin(['deploy', 'model_repository', '--target', 'docker', '--gpus', '0']);
    expect([few.code, few.stdout]).toEqual([2, '']);
    expect(few.stderr).toMatch(/^tritonc deploy: --gpus 0: instance group classifier_0 of model classifier needs a GPU, .*give --gpus 1 or more\n$/);
  });
});

describe('tritonc deploy --target kserve', () => {
  it('refuses to write an InferenceService without --storage-uri, and a URL KServe does not download', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kserve']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^tritonc deploy: --target kserve: give --storage-uri s3:\/\/BUCKET\/PATH \(or gs:\/\/\)/);
    const azure = runBin(['deploy', 'model_repository', '--target', 'kserve', '--storage-uri', 'as://account/container/models']);
    expect([azure.code, azure.stdout]).toEqual([2, '']);
    expect(azure.stderr).toMatch(/KServe's storage initializer takes s3:\/\/ and gs:\/\//);
  });

  it('writes an InferenceService on the release image that lint --deployment finds nothing wrong with', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kserve', '--storage-uri', 's3://models/triton', '--triton-version', '24.10']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [isvc] = documents(r.stdout);
    const model = isvc!.spec.predictor.model;
    expect(model.modelFormat).toEqual({ name: 'triton' });
    expect(model.runtimeVersion).toBe('24.10-py3');
    expect(model.storageUri).toBe('s3://models/triton');
    expect(model.resources.limits).toEqual({ 'nvidia.com/gpu': 1, memory: '2Gi' });
    const { options } = deploymentRunOptions(r.stdout, join(REPO, 'inferenceservice.yaml'), () => REPO, ROOT);
    // KServe's runtime with the release's tag, reading what the storage initializer copied.
    expect(options.deployment?.server.image?.value).toBe('nvcr.io/nvidia/tritonserver:24.10-py3');
    expect(options.deployment?.repositories.map((s) => s.named)).toEqual(['s3://models/triton']);
    const result = lintSync([REPO], { ...options, cwd: ROOT });
    expect(findings(result).filter((f) => f.severity === 'error' || f.rule.startsWith('deployment-'))).toEqual([]);
  });

  it.runIf(kserveCrdsRun('tritonc deploy --target kserve against the InferenceService CRD'))('is an InferenceService KServe accepts', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kserve', '--storage-uri', 'gs://models/triton']);
    expect(documents(r.stdout).map(kubernetesSchemaErrors)).toEqual([[]]);
  });
});

describe('tritonc deploy over a repository in object storage (s3rver)', () => {
  let s3: S3Fixture;
  beforeAll(async () => {
    s3 = await startS3(['models']);
    await s3.upload('models', 'prod/repo', REPO);
  }, 60_000);
  afterAll(async () => s3?.close());

  it('reads the repository at its URL, serves it from there, and lint --deployment reads the same objects', async () => {
    const url = `s3://127.0.0.1:${s3.port}/models/prod/repo`;
    const work = tempDir('tritonc-deploy-');
    const r = await cli(['deploy', url, '--target', 'kserve', '--out', work], { cwd: work, env: { ...S3RVER_KEYS } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const text = readFileSync(join(work, 'inferenceservice.yaml'), 'utf8');
    const [isvc] = documents(text);
    expect(isvc!.metadata.name).toBe('repo');
    expect(isvc!.spec.predictor.model.storageUri).toBe(url);
    expect(isvc!.spec.predictor.model.resources.limits).toEqual({ 'nvidia.com/gpu': 1, memory: '2Gi' });
    const lint = await cli(['lint', '--deployment', 'inferenceservice.yaml', '--format', 'json'], { cwd: work, env: { ...S3RVER_KEYS } });
    expect(lint.code, lint.stderr).toBe(0);
    const result = JSON.parse(lint.stdout) as { filePath: string; messages: { ruleId: string; severity: number }[] }[];
    expect(result.map((f) => f.filePath)).toContain(`${url}/classifier/config.pbtxt`);
    expect(result.flatMap((f) => f.messages).filter((m) => m.severity === 2 || m.ruleId.startsWith('deployment-'))).toEqual([]);
  });
});

describe('tritonc deploy --target helm', () => {
  it("writes values for NVIDIA's k8s-onprem chart whose rendering is valid and lints clean", () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'helm', '--name', 'triton']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^# .*deploy\/k8s-onprem @ 4b54459107911180d3c3b24cea1c5bc832563c0a/m);
    const values = parse(r.stdout) as Record<string, any>;
    expect(values.fullnameOverride).toBe('triton');
    expect(values.image).toMatchObject({ imageName: 'nvcr.io/nvidia/tritonserver:26.08-py3', numGpus: 1 });
    expect(values.serverArgs).toEqual(['--model-repository=/models', '--model-control-mode=explicit', '--load-model=classifier']);
    const rendered = renderChart(values);
    expect(kubernetesSchemaErrors(rendered)).toEqual([]);
    const manifest = JSON.stringify(rendered);
    const result = lintSync([REPO], { ...deploymentRunOptions(manifest, join(REPO, 'deployment.json'), () => REPO, ROOT).options, cwd: ROOT });
    expect(findings(result).filter((f) => f.severity === 'error' || f.rule.startsWith('deployment-'))).toEqual([]);
  });
});

describe.runIf(helm)('tritonc deploy --target helm, rendered by the real helm', () => {
  /** The chart rendered over the values deploy wrote: its documents. */
  function helmTemplate(values: string): Record<string, any>[] {
    const r = spawnSync(helm!, ['template', 'rel', NVIDIA_CHART, `--values=${values}`], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    return documents(r.stdout);
  }

  it('renders a Deployment that is valid, and that lint --deployment CHART --values finds nothing wrong with', () => {
    const out = tempDir('tritonc-deploy-');
    expect(runBin(['deploy', 'model_repository', '--target', 'helm', '--name', 'triton', '--out', out]).code).toBe(0);
    const [deployment] = helmTemplate(join(out, 'values.yaml'));
    expect(kubernetesSchemaErrors(deployment)).toEqual([]);
    expect(deployment!.metadata.name).toBe('triton');
    expect(containerOf(deployment!).image).toBe('nvcr.io/nvidia/tritonserver:26.08-py3');
    expect(containerOf(deployment!).args).toEqual(['tritonserver', '--model-repository=/models', '--model-control-mode=explicit', '--load-model=classifier']);
    const r = runBin(['lint', '--deployment', NVIDIA_CHART, '--values', join(out, 'values.yaml'), 'model_repository', '--format', 'json'], {
      env: { TRITONC_HELM: helm! },
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const found = (JSON.parse(r.stdout) as { messages: { ruleId: string; severity: number }[] }[]).flatMap((f) => f.messages);
    expect(found.filter((f) => f.severity === 2 || f.ruleId.startsWith('deployment-'))).toEqual([]);
  });

  it('a hostile model name reaches tritonserver as it is through the chart', () => {
    const repo = join(tempDir('tritonc-deploy-'), 'repo');
    mkdirSync(repo);
    const model = `m: #$(HOME) $$ 'q' "x"`;
    copyClassifier(repo, model);
    const out = tempDir('tritonc-deploy-');
    expect(runBin(['deploy', repo, '--target', 'helm', '--name', 'hostile', '--out', out]).code).toBe(0);
    const [deployment] = helmTemplate(join(out, 'values.yaml'));
    expect(kubernetesSchemaErrors(deployment)).toEqual([]);
    expect((containerOf(deployment!).args as string[]).map(kubeletExpands).at(-1)).toBe(`--load-model=${model}`);
  });
});

describe('tritonc deploy: hostile input', () => {
  // A repository path and a model name holding what a shell, a CSV field, YAML, the kubelet and the
  // chart's template would each read otherwise: quotes, $( ), backticks, ': ', '#', a comma, a line break.
  const repoName = `it's a "repo", $(touch x) \`y\`\nline 2`;
  const model = `m: #$(HOME) $$ 'q'`;

  async function hostileRepo(): Promise<string> {
    const repo = join(tempDir('tritonc-deploy-'), repoName);
    mkdirSync(repo);
    copyClassifier(repo, model);
    return repo;
  }

  it('docker: the path and the model name each come out as one word', async () => {
    const repo = await hostileRepo();
    const r = runBin(['deploy', repo, '--target', 'docker', '--name', 'hostile']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const words = bashWords(r.stdout);
    // docker reads --mount as CSV: the field with the quotes and the comma is one quoted field.
    expect(words).toContain(`type=bind,"source=${repo.replace(/"/g, '""')}",target=/models,readonly`);
    expect(words.at(-1)).toBe(`--load-model=${model}`);
    // Before the command, comment lines only: the line break in the path is escaped in them.
    const before = r.stdout.slice(0, r.stdout.indexOf('docker run'));
    expect(before.split('\n').filter((l) => l !== '' && !l.startsWith('# '))).toEqual([]);
    expect(before).toContain('line 2');
  });

  it('docker: a path with a line break and nothing else CSV quotes is still one --mount field', () => {
    // Go's encoding/csv, which reads --mount, ends a record at an unquoted line break.
    const plain = join(tempDir('tritonc-deploy-'), 'two\nlines');
    mkdirSync(plain);
    copyClassifier(plain, 'classifier');
    const r = runBin(['deploy', plain, '--target', 'docker', '--name', 'lines']);
    expect(r.code).toBe(0);
    expect(bashWords(r.stdout)).toContain(`type=bind,"source=${plain}",target=/models,readonly`);
  });

  it('kubernetes: the model reaches tritonserver as it is, and lint --deployment agrees', async () => {
    const repo = await hostileRepo();
    const out = tempDir('tritonc-deploy-');
    const r = runBin(['deploy', repo, '--target', 'kubernetes', '--name', 'hostile', '--out', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const docs = documents(readFileSync(join(out, 'kubernetes.yaml'), 'utf8'));
    for (const d of docs) expect(kubernetesSchemaErrors(d)).toEqual([]);
    const args: string[] = containerOf(docs[0]!).args;
    expect(args.map(kubeletExpands).at(-1)).toBe(`--load-model=${model}`);
    const lint = lintDeployment(join(out, 'kubernetes.yaml'), repo);
    expect(lint.code).toBe(0);
    expect(lint.findings.filter((f) => f.severity === 2 || f.ruleId.startsWith('deployment-'))).toEqual([]);
  });

  it('helm: each serverArgs entry reads back as the word once the chart writes it into its manifest', async () => {
    const repo = await hostileRepo();
    const r = runBin(['deploy', repo, '--target', 'helm', '--name', 'hostile']);
    expect(r.code).toBe(0);
    const rendered = renderChart(parse(r.stdout) as Record<string, any>);
    expect(kubernetesSchemaErrors(rendered)).toEqual([]);
    expect((containerOf(rendered).args as string[]).map(kubeletExpands)).toEqual([
      'tritonserver',
      '--model-repository=/models',
      '--model-control-mode=explicit',
      `--load-model=${model}`,
    ]);
  });

  it('refuses a --name that is not a DNS-1035 label, with one that is', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kubernetes', '--name', 'My_Triton\n']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      'tritonc deploy: --name "My_Triton\\n" is not a DNS-1035 label (lowercase letters, digits and -, starting with a letter and ending with a letter or digit), which Kubernetes requires of a Service\'s name; use --name my-triton\n',
    );
    // Told no name, deploy makes one of the directory's name.
    const repo = join(tempDir('tritonc-deploy-'), '2nd_Repo.v1');
    mkdirSync(repo);
    copyClassifier(repo, 'classifier');
    const made = runBin(['deploy', repo, '--target', 'kubernetes']);
    expect(made.code).toBe(0);
    expect(documents(made.stdout)[0]!.metadata.name).toBe('nd-repo-v1');
  });

  it('refuses a storage URL that is not one word', () => {
    const r = runBin(['deploy', 'model_repository', '--target', 'kubernetes', '--storage-uri', 's3://bucket/models\n- --evil']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe('tritonc deploy: --storage-uri "s3://bucket/models\\n- --evil": a URL has no spaces or control characters\n');
  });
});

describe('tritonc deploy --out', () => {
  it('writes nothing when a model would not load', async () => {
    const repo = await writeRepo({ 'broken/config.pbtxt': 'backend: "onnxruntime"\nmax_batch_size: -1\n', 'broken/1/model.onnx': 'not onnx' });
    const out = join(tempDir('tritonc-deploy-'), 'out');
    const r = runBin(['deploy', repo, '--target', 'kubernetes', '--name', 'broken', '--out', out]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^tritonc deploy: Triton 26\.08 would not load model "broken": /);
    expect(r.stderr).toMatch(/tritonc deploy: nothing written/);
    expect(existsSync(out)).toBe(false);
  });

  it('writes into a directory holding other files, and never over a file or through a link', () => {
    const dir = tempDir('tritonc-deploy-');
    writeFileSync(join(dir, 'README'), 'mine\n');
    expect(runBin(['deploy', 'model_repository', '--target', 'helm', '--out', dir]).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['README', 'values.yaml']);
    const again = runBin(['deploy', 'model_repository', '--target', 'helm', '--out', dir]);
    expect([again.code, again.stdout]).toEqual([2, '']);
    expect(again.stderr).toMatch(/already holds values\.yaml: tritonc deploy replaces no file/);

    const target = tempDir('tritonc-deploy-');
    const link = join(dir, 'link');
    symlinkSync(target, link);
    const linked = runBin(['deploy', 'model_repository', '--target', 'helm', '--out', link]);
    expect([linked.code, linked.stdout]).toEqual([2, '']);
    expect(linked.stderr).toMatch(/is a symbolic link, and tritonc writes through no link it did not make/);
    expect(readdirSync(target)).toEqual([]);
  });
});

// tune plan --kubernetes-jobs as a user runs it (the built CLI) on a real ONNX model: the Jobs it
// writes parse with the `yaml` package, pass the Kubernetes API's schema (test/support/kubernetes-schema.ts;
// kubernetes-models 5.1.0's Container has restartPolicy, the native sidecar's field), lint clean as
// `tritonc lint --deployment` lints them (the plan directory standing in for the URL it is synced to),
// and run, word for word, the plan's own measurement and the variant's server; hostile model names
// reach no shell and break no name; stores other than Triton's are refused. (No cluster here: that the
// Jobs run is not tested; see docs/deployments.md.)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cli, runBin } from '../support/cli.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';
import { kubernetesSchemaErrors } from '../support/kubernetes-schema.js';
import { perfAnalyzerCommand } from '../../src/tune/plan.js';

const config = (name: string) => `name: ${JSON.stringify(name)}
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { }
`;

const URIS = ['--kubernetes-jobs', '--repository-uri', 's3://bucket/tune/plan', '--results-uri', 's3://bucket/tune/results'];

async function plan(model: string, extra: string[] = URIS) {
  const repo = await writeRepo({ [`${model}/config.pbtxt`]: config(model), [`${model}/1/model.onnx`]: CLASSIFIER });
  const out = join(repo, 'plan');
  const r = await cli(['tune', 'plan', join(repo, model), '--out', out, '--delays', '0,1ms', '--instances', '1,2', '--preferred', 'keep', ...extra], {
    cwd: repo,
  });
  return { repo, out, r };
}

function jobs(out: string): Record<string, any>[] {
  return parseAllDocuments(readFileSync(join(out, 'kubernetes-jobs.yaml'), 'utf8')).map((d) => {
    expect(d.errors.map((e) => e.message)).toEqual([]);
    return d.toJS() as Record<string, any>;
  });
}

/** $$ read as $, as the kubelet reads command and args (kubernetes third_party/forked/golang/expansion/expand.go). */
const kubelet = (word: string) => word.replace(/\$\$/g, '$');

/** The words perf_analyzer gets when bash runs the container's script (perf_analyzer a function that prints them; tee a cat). */
function perfWords(command: string[]): string[] {
  expect(command.slice(0, 2)).toEqual(['bash', '-c']);
  const r = spawnSync('bash', ['-c', `perf_analyzer() { printf '%s\\0' perf_analyzer "$@"; }; tee() { cat; }; ${kubelet(command[2]!)}`], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

describe('tritonc tune plan --kubernetes-jobs', () => {
  it('writes one valid Job per variant: the variant served by a native sidecar, measured as the plan measures it, its results uploaded', async () => {
    const { out, r } = await plan('classifier');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(join(out, 'tune-plan.json'), 'utf8')) as { variants: { name: string; command: string }[] };
    const variants = written.variants.map((v) => v.name);
    expect(variants).toEqual(['classifier_d0_i1', 'classifier_d0_i2', 'classifier_d1000_i1', 'classifier_d1000_i2']);
    const docs = jobs(out);
    expect(docs.map((d) => d.metadata.name)).toEqual(['tune-classifier-1', 'tune-classifier-2', 'tune-classifier-3', 'tune-classifier-4']);
    docs.forEach((job, i) => {
      const variant = variants[i]!;
      expect(kubernetesSchemaErrors(job)).toEqual([]);
      expect(job.kind).toBe('Job');
      expect(job.spec.backoffLimit).toBe(0);
      expect(job.spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
      expect(job.metadata.labels).toMatchObject({ 'tritonc/tune-plan': 'classifier', 'tritonc/variant': variant });
      expect(job.metadata.annotations['tritonc/variant-name']).toBe(variant);
      const pod = job.spec.template.spec;
      expect(pod.restartPolicy).toBe('Never');
      const [server, measure] = pod.initContainers;
      expect(server.restartPolicy).toBe('Always');
      expect(server.image).toBe('nvcr.io/nvidia/tritonserver:26.08-py3');
      expect(server.args).toEqual(['tritonserver', '--model-repository=s3://bucket/tune/plan', '--model-control-mode=explicit', `--load-model=${variant}`]);
      expect(server.startupProbe.httpGet).toEqual({ path: '/v2/health/ready', port: 8000 });
      // A CPU model: no GPU, deploy's floor of memory.
      expect(server.resources.limits).toEqual({ memory: '2Gi' });
      expect(measure.restartPolicy).toBeUndefined();
      expect(measure.image).toBe('nvcr.io/nvidia/tritonserver:26.08-py3-sdk');
      expect(measure.workingDir).toBe('/results');
      expect(perfWords(measure.command)).toEqual(
        perfAnalyzerCommand(variant, false, {
          url: 'localhost:8001',
          protocol: 'grpc',
          concurrencyRange: '1:16:2',
          measurementIntervalMs: 5000,
          percentile: 99,
        }),
      );
      const [upload] = pod.containers;
      expect(upload.image).toMatch(/^amazon\/aws-cli:\d+\.\d+\.\d+$/);
      expect(upload.command).toEqual(['aws', 's3', 'cp', '--recursive', '/results', `s3://bucket/tune/results/${variant}/`]);
    });
    // The very measurement of the plan's own scripts (whose server is at --url's default, localhost:8001, too).
    docs.forEach((job, i) => expect(perfWords(job.spec.template.spec.initContainers[1].command).join(' ')).toBe(written.variants[i]!.command));
  });

  it('gives each Job the GPUs and memory of its own variant, as tritonc deploy decides them for a server loading it alone', async () => {
    // A CPU model with 1 GiB of weights (external data, a sparse file): one instance holds 1 GiB, two
    // hold 2 GiB; a quarter more in whole GiB, at least 2Gi (src/deploy/plan.ts): 2Gi and 3Gi. Every
    // variant counted together would be 3 GiB held for each Job.
    const repo = await writeRepo({
      'big/config.pbtxt': 'backend: "onnxruntime"\nmax_batch_size: 8\ninstance_group [ { kind: KIND_CPU count: 1 } ]\n',
      'big/1/model.onnx': { inputs: [['input', 'FLOAT', ['batch', 4]]], outputs: [['output', 'FLOAT', ['batch', 4]]], externalBytes: 2 ** 30 },
    });
    writeFileSync(join(repo, 'big', '1', 'weights.bin'), '');
    truncateSync(join(repo, 'big', '1', 'weights.bin'), 2 ** 30);
    const out = join(repo, 'plan');
    const r = await cli(['tune', 'plan', join(repo, 'big'), '--out', out, '--delays', '0', '--instances', '1,2', '--preferred', 'keep', ...URIS], {
      cwd: repo,
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const docs = jobs(out);
    expect(docs.map((d) => d.metadata.annotations['tritonc/variant-name'])).toEqual(['big_d0_i1', 'big_d0_i2']);
    expect(docs.map((d) => d.spec.template.spec.initContainers[0].resources.limits)).toEqual([{ memory: '2Gi' }, { memory: '3Gi' }]);
    for (const d of docs) expect(kubernetesSchemaErrors(d)).toEqual([]);
  });

  it('leaves the plan as tune pick reads it once the results are brought back', async () => {
    const { repo, out } = await plan('classifier');
    const header =
      'Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency';
    // <results-uri>/<variant>/perf.csv copied into the plan directory (aws s3 cp --recursive RESULTS DIR).
    jobs(out).forEach((job, i) => {
      const variant = job.metadata.annotations['tritonc/variant-name'] as string;
      writeFileSync(join(out, variant, 'perf.csv'), `${header}\n1,${100 + i * 50},200,300,400,50,2000,20,10,3000,4000,4500,5000\n`);
    });
    const r = await cli(['tune', 'pick', out, '--latency-budget', '20ms'], { cwd: repo });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('Best: classifier_d1000_i2');
  });

  it('lints clean as lint --deployment reads it, the plan directory standing in for the URL', async () => {
    const { repo, out } = await plan('classifier');
    const r = runBin(['lint', '--deployment', join(out, 'kubernetes-jobs.yaml'), out, '--format', 'json'], { cwd: repo });
    const messages = (JSON.parse(r.stdout || '[]') as { messages: { ruleId: string; severity: number; message: string }[] }[]).flatMap((f) => f.messages);
    expect(messages.filter((m) => m.severity === 2)).toEqual([]);
    expect(messages.filter((m) => m.ruleId?.startsWith('deployment-'))).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('keeps a hostile model name out of every shell, name and label', async () => {
    const model = `Evil $(touch PWNED) 'q' \`id\` $HOME; x`;
    const { repo, out, r } = await plan(model);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const docs = jobs(out);
    const variants = (JSON.parse(readFileSync(join(out, 'tune-plan.json'), 'utf8')) as { variants: { name: string }[] }).variants.map((v) => v.name);
    expect(docs).toHaveLength(variants.length);
    docs.forEach((job, i) => {
      const variant = variants[i]!;
      expect(kubernetesSchemaErrors(job)).toEqual([]);
      expect(job.metadata.name).toMatch(DNS_1123_LABEL);
      expect(job.metadata.name.length).toBeLessThanOrEqual(63);
      expect(job.metadata.labels['tritonc/variant']).toBe(job.metadata.name);
      expect(job.metadata.annotations['tritonc/variant-name']).toBe(variant);
      const [server, measure] = job.spec.template.spec.initContainers;
      expect(server.args.map(kubelet)).toContain(`--load-model=${variant}`);
      expect(perfWords(measure.command)[2]).toBe(variant);
      expect(job.spec.template.spec.containers[0].command.map(kubelet).at(-1)).toBe(`s3://bucket/tune/results/${variant}/`);
    });
    expect(existsSync(join(repo, 'PWNED'))).toBe(false);
    // A line break, a comment mark and a mapping's `: ` in the name: still one value in the YAML, comments still comments.
    const broken = await plan('a\n# b: c');
    expect(broken.r.code, broken.r.stderr).toBe(0);
    const brokenDocs = jobs(broken.out);
    expect(brokenDocs.map((d) => d.metadata.annotations['tritonc/variant-name'])).toEqual(
      (JSON.parse(readFileSync(join(broken.out, 'tune-plan.json'), 'utf8')) as { variants: { name: string }[] }).variants.map((v) => v.name),
    );
    for (const job of brokenDocs) expect(kubernetesSchemaErrors(job)).toEqual([]);
    const long = await plan('m'.repeat(120));
    expect(long.r.code).toBe(0);
    for (const job of jobs(long.out)) {
      expect(job.metadata.name).toMatch(DNS_1123_LABEL);
      expect(job.metadata.name.length).toBeLessThanOrEqual(63);
      expect(kubernetesSchemaErrors(job)).toEqual([]);
    }
  });

  it('uploads with the store’s own CLI for gs:// and as://', async () => {
    const gs = await plan('classifier', ['--kubernetes-jobs', '--repository-uri', 'gs://b/plan', '--results-uri', 'gs://b/results']);
    expect(gs.r.code).toBe(0);
    const [g] = jobs(gs.out);
    expect(g!.spec.template.spec.containers[0].image).toMatch(/^google\/cloud-sdk:[\d.]+-alpine$/);
    expect(g!.spec.template.spec.containers[0].command).toEqual(['gcloud', 'storage', 'rsync', '--recursive', '/results', 'gs://b/results/classifier_d0_i1']);
    const az = await plan('classifier', ['--kubernetes-jobs', '--repository-uri', 'as://acct/models/plan', '--results-uri', 'as://acct/out/sweep']);
    expect(az.r.code).toBe(0);
    const [a] = jobs(az.out);
    expect(a!.spec.template.spec.initContainers[0].args[1]).toBe('--model-repository=as://acct/models/plan');
    expect(a!.spec.template.spec.containers[0].image).toMatch(/^mcr\.microsoft\.com\/azure-cli:[\d.]+$/);
    expect(a!.spec.template.spec.containers[0].command).toEqual([
      'az',
      'storage',
      'blob',
      'upload-batch',
      '--account-name',
      'acct',
      '--destination',
      'out',
      '--destination-path',
      'sweep/classifier_d0_i1',
      '--source',
      '/results',
    ]);
  });

  it('refuses stores other than s3://, gs://, as://, a missing URL, and the URLs without --kubernetes-jobs, writing nothing', async () => {
    for (const [extra, said] of [
      [['--kubernetes-jobs', '--repository-uri', 'https://example.com/plan', '--results-uri', 's3://bucket/r'], '--repository-uri'],
      [['--kubernetes-jobs', '--repository-uri', 's3://bucket/p', '--results-uri', 'file:///tmp/r'], '--results-uri'],
      [['--kubernetes-jobs', '--repository-uri', 's3://bucket/p', '--results-uri', '/local/dir'], 'give s3://, gs:// or as://'],
      [['--kubernetes-jobs', '--repository-uri', 's3://bucket/p'], '--kubernetes-jobs needs --results-uri'],
      [['--results-uri', 's3://bucket/r'], '--results-uri is for --kubernetes-jobs'],
      [
        ['--kubernetes-jobs', '--repository-uri', 's3://bucket/p', '--results-uri', 's3://bucket/r', '--shared-memory', 'system', '--allow-client-shm'],
        '--shared-memory',
      ],
    ] as const) {
      const { out, r } = await plan('classifier', [...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(said);
      expect(existsSync(out)).toBe(false);
    }
  });
});

// tune plan --kubernetes-jobs: the plan's sweep as Kubernetes Jobs, one per variant, so that it runs on
// a cluster rather than one machine. Model Analyzer's own chart runs its whole sweep as one Job whose
// single container starts Triton itself (--triton-launch-mode local) over hostPath volumes
// (triton-inference-server/model_analyzer @ 63a0feccd893bc5674f77eeb5a627c03950b7170,
// helm-chart/templates/job.yaml); here every variant is its own Job, so the cluster runs them side by
// side, each on its own GPUs, each pod in three steps:
//   1. tritonserver, as a native sidecar: an init container with restartPolicy Always (KEP-753,
//      kubernetes/enhancements keps/sig-node/753-sidecar-containers; on by default from Kubernetes
//      1.29, GA in 1.33: https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/). The
//      kubelet starts the next init container only once its startupProbe passes (GET /v2/health/ready),
//      and stops it when the pod's main container has ended, so the Job completes. It reads the plan
//      from object storage (Triton reads s3://, gs://, as:// itself) and loads the one variant
//      (explicit model control, never poll), with the image, GPUs and memory tritonc deploy would give it.
//   2. perf_analyzer (the release's SDK image), a regular init container: the plan's measurement of
//      the variant, against localhost, writing perf.csv and perf_analyzer.log to an emptyDir.
//   3. the main container: uploads that directory to <results>/<variant>/, with the store's own CLI.
// Names are DNS-1123 labels made from the model's name; the variant's full name is an annotation.
import type { RemoteLocation, RemoteScheme } from '../remote/url.js';
import { PORTS, headerLines, serverArgs, suggestName, type DeployPlan } from '../deploy/plan.js';
import { limitsComment, resourceLimits } from '../deploy/kubernetes.js';
import { kubeletWord, yamlDocument, type YamlComment } from '../deploy/yaml-text.js';
import { join } from 'node:path';
import { shellLine, shellPath } from '../util/shell.js';

/** The file the Jobs are written to, in the plan's directory: a file, which Triton and tritonc lint skip (a directory would be a model to them). */
export const JOBS_FILE = 'kubernetes-jobs.yaml';

/** How long a finished Job (and its pod's logs) stays before Kubernetes deletes it: a day to read them. */
const TTL_SECONDS = 24 * 60 * 60;

/**
 * The image that uploads the results to each store, pinned by tag (a tag, not a digest: bump it when
 * the store's CLI needs to; each tag is one that projects pin today): Amazon's AWS CLI v2 image
 * (hub.docker.com/r/amazon/aws-cli), Google's Cloud SDK image in its small Alpine form (gcloud storage
 * is in it), and Microsoft's Azure CLI image (mcr.microsoft.com/azure-cli).
 */
export const UPLOAD_IMAGES: Readonly<Record<RemoteScheme, string>> = {
  s3: 'amazon/aws-cli:2.17.48',
  gs: 'google/cloud-sdk:473.0.0-alpine',
  as: 'mcr.microsoft.com/azure-cli:2.67.0',
};

/** Where perf_analyzer writes and the uploader reads. */
const RESULTS_DIR = '/results';

export interface JobVariant {
  /** The variant's name: its model directory in the plan, the model the server loads. */
  name: string;
  /** What tritonc deploy decides for a server loading this variant alone. */
  deploy: DeployPlan;
  /** The plan's perf_analyzer command for it, run against the sidecar. */
  command: readonly string[];
}

export interface JobsRequest {
  model: string;
  /** The plan directory, as the user named it: what the sync commands show. */
  planDir: string;
  /** Where the plan directory is synced to, which each server reads as its repository. */
  repository: RemoteLocation;
  /** Where each Job uploads its variant's results (<results>/<variant>/). */
  results: RemoteLocation;
  variants: readonly JobVariant[];
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const MAX_LABEL = 63;

/**
 * The Jobs' names: `<model as a label>-<n>`, each a DNS-1123 label of at most 63 characters (a Job's
 * name becomes its pods' batch.kubernetes.io/job-name label value; kubernetes
 * pkg/apis/batch/validation/validation.go ValidateJob checks it as one), whatever the model is called.
 */
export function jobNames(model: string, count: number): string[] {
  const suffix = (i: number) => `-${i + 1}`;
  const base = suggestName(`tune-${model}`)
    .slice(0, MAX_LABEL - suffix(count - 1).length)
    .replace(/-+$/, '');
  return Array.from({ length: count }, (_, i) => `${base}${suffix(i)}`);
}

/** A label value naming `name` where it is one, else `fallback` (which is). */
const labelValue = (name: string, fallback: string): string => (name.length <= MAX_LABEL && LABEL_VALUE.test(name) ? name : fallback);

/** `<location>/<variant>`, as the store's CLI takes it. */
function under(loc: RemoteLocation, variant: string): string {
  const key = loc.prefix ? `${loc.prefix}/${variant}` : variant;
  if (loc.scheme === 's3') return `s3://${loc.bucket}/${key}/`;
  if (loc.scheme === 'gs') return `gs://${loc.bucket}/${key}`;
  return key;
}

/** The S3 CLI's flag for Triton's s3://host:port/... endpoint form. */
const endpointArgs = (loc: RemoteLocation): string[] => (loc.endpoint ? ['--endpoint-url', loc.endpoint] : []);

/** The uploader's command: the results directory's files into <results>/<variant>/. No shell: each value is one word. */
export function uploadCommand(results: RemoteLocation, variant: string): string[] {
  if (results.scheme === 's3') return ['aws', ...endpointArgs(results), 's3', 'cp', '--recursive', RESULTS_DIR, under(results, variant)];
  if (results.scheme === 'gs') return ['gcloud', 'storage', 'rsync', '--recursive', RESULTS_DIR, under(results, variant)];
  return [
    'az',
    'storage',
    'blob',
    'upload-batch',
    '--account-name',
    results.account ?? '',
    '--destination',
    results.bucket,
    '--destination-path',
    under(results, variant),
    '--source',
    RESULTS_DIR,
  ];
}

/** The command that copies the plan directory to where the servers read it (the variants' links followed: they link the model's version directories). */
export function syncCommand(planDir: string, repo: RemoteLocation): string {
  const dir = shellPath(planDir);
  if (repo.scheme === 's3')
    return `aws ${shellLine([...endpointArgs(repo), 's3', 'sync'])} ${dir} ${shellLine([repo.url, '--follow-symlinks', '--exclude', JOBS_FILE])}`;
  if (repo.scheme === 'gs') return `gcloud storage rsync --recursive ${dir} ${shellLine([repo.url])}`;
  const path = repo.prefix ? ['--destination-path', repo.prefix] : [];
  return `az storage blob upload-batch ${shellLine(['--account-name', repo.account ?? '', '--destination', repo.bucket, ...path])} --source ${dir}`;
}

/** The command that brings every variant's results back into the plan directory, where tune pick reads <variant>/perf.csv. */
export function fetchCommand(planDir: string, results: RemoteLocation): string {
  const dir = shellPath(planDir);
  if (results.scheme === 's3') return `aws ${shellLine([...endpointArgs(results), 's3', 'cp', '--recursive', results.url])} ${dir}`;
  if (results.scheme === 'gs') return `gcloud storage rsync --recursive ${shellLine([results.url])} ${dir}`;
  // download-batch keeps the blob's whole name: the prefix is taken off by downloading into a fresh directory first.
  const pattern = results.prefix ? `${results.prefix}/*` : '*';
  return `tmp=$(mktemp -d) && az storage blob download-batch ${shellLine(['--account-name', results.account ?? '', '--source', results.bucket, '--pattern', pattern])} --destination "$tmp" && cp -R "$tmp"/${results.prefix ? `${shellLine([results.prefix])}/` : ''}. ${dir}`;
}

/**
 * The measurement as the perf_analyzer container runs it (bash -c, every value one quoted word):
 * its output kept in perf_analyzer.log beside perf.csv, as run.sh keeps it (tune pick reads the
 * levels perf_analyzer calls unstable there), and a failed run's partial perf.csv removed.
 */
export function measureScript(command: readonly string[]): string {
  return `set -o pipefail\nif ! ${shellLine(command)} 2>&1 | tee perf_analyzer.log; then rm -f perf.csv; echo 'perf_analyzer failed: perf_analyzer.log is uploaded, tune pick names this variant as not measured' >&2; fi`;
}

/** The SDK image of the server's release (perf_analyzer is in it, not in the server's). */
export const sdkImage = (plan: DeployPlan): string => `nvcr.io/nvidia/tritonserver:${plan.target.release.container}-py3-sdk`;

/** The plan's Jobs, one YAML document each. */
export function jobsText(req: JobsRequest): string {
  const names = jobNames(req.model, req.variants.length);
  const file = shellPath(join(req.planDir, JOBS_FILE));
  const planLabel = labelValue(req.model, names[0]!.replace(/-1$/, ''));
  const header = [
    `Written by tritonc tune plan --kubernetes-jobs: one Job per variant of ${req.model}, each a tritonserver loading the variant (a native sidecar: Kubernetes 1.29 or later),`,
    `perf_analyzer measuring it, and an upload of its perf.csv and perf_analyzer.log to ${req.results.url}/<variant>/.`,
    `1. Copy the plan to where the servers read it (${req.repository.url}): ${syncCommand(req.planDir, req.repository)}`,
    "2. Give the pods the store's credentials (env from a Secret: AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_*; or the cluster's workload identity), then:",
    `   kubectl apply -f ${file} && kubectl wait --for=condition=complete --timeout=-1s job -l tritonc/tune-plan=${planLabel}`,
    `3. Bring the results back into the plan directory: ${fetchCommand(req.planDir, req.results)}`,
    `4. Pick: tritonc tune pick ${shellPath(req.planDir)} --latency-budget <budget>`,
    `Check this file with: tritonc lint --deployment ${file} ${shellPath(req.planDir)}`,
  ];
  return req.variants
    .map((v, i) => {
      const name = names[i]!;
      const labels = { 'app.kubernetes.io/managed-by': 'tritonc', 'tritonc/tune-plan': planLabel, 'tritonc/variant': labelValue(v.name, name) };
      const probe = { httpGet: { path: '/v2/health/ready', port: PORTS.http }, periodSeconds: 10, failureThreshold: 60 };
      const server = {
        name: 'tritonserver',
        image: v.deploy.image,
        // A native sidecar: it runs beside the containers after it, and stops when the Job's main container ends.
        restartPolicy: 'Always',
        args: ['tritonserver', ...serverArgs(v.deploy, req.repository.url)].map(kubeletWord),
        ports: [
          { name: 'http', containerPort: PORTS.http },
          { name: 'grpc', containerPort: PORTS.grpc },
          { name: 'metrics', containerPort: PORTS.metrics },
        ],
        resources: { limits: resourceLimits(v.deploy) },
        startupProbe: probe,
      };
      const measure = {
        name: 'perf-analyzer',
        image: sdkImage(v.deploy),
        workingDir: RESULTS_DIR,
        command: ['bash', '-c', measureScript(v.command)].map(kubeletWord),
        volumeMounts: [{ name: 'results', mountPath: RESULTS_DIR }],
      };
      const upload = {
        name: 'upload',
        image: UPLOAD_IMAGES[req.results.scheme],
        command: uploadCommand(req.results, v.name).map(kubeletWord),
        volumeMounts: [{ name: 'results', mountPath: RESULTS_DIR, readOnly: true }],
      };
      const job = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, labels, annotations: { 'tritonc/variant-name': v.name } },
        spec: {
          // A failed measurement is not retried: its pod's logs say why (kubectl logs job/NAME -c perf-analyzer).
          backoffLimit: 0,
          ttlSecondsAfterFinished: TTL_SECONDS,
          template: {
            metadata: { labels },
            spec: { restartPolicy: 'Never', initContainers: [server, measure], containers: [upload], volumes: [{ name: 'results', emptyDir: {} }] },
          },
        },
      };
      const podPath = ['spec', 'template', 'spec'];
      const comments: YamlComment[] = [
        ...(i === 0
          ? [{ path: [], lines: [...header, '', ...headerLines(v.deploy, 'kubernetes').slice(1)] }]
          : [{ path: [], lines: headerLines(v.deploy, 'kubernetes').slice(1) }]),
        { path: ['metadata', 'annotations'], lines: [`The variant: ${v.name}`] },
        {
          path: [...podPath, 'initContainers', 0, 'resources'],
          lines: [...limitsComment(v.deploy), 'Only this variant is loaded (explicit model control): the GPUs and the memory are its own'],
        },
        {
          path: [...podPath, 'initContainers', 0, 'startupProbe'],
          lines: ['perf_analyzer starts once the variant is loaded and the server ready (up to 10 minutes)'],
        },
        {
          path: [...podPath, 'containers', 0, 'image'],
          lines: [`Pinned by tag: ${UPLOAD_IMAGES[req.results.scheme]}; uploads to ${under(req.results, v.name)}`],
        },
      ];
      return yamlDocument(job, comments);
    })
    .join('---\n');
}

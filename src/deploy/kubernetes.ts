// `tritonc deploy --target kubernetes`: a Deployment and a Service (one file, two documents). The
// container runs the release image with NVIDIA's entrypoint (args start with tritonserver, as
// NVIDIA's deploy/k8s-onprem chart runs it), in explicit model control loading every model, with the
// GPUs the instance groups need and a memory limit from the weights (plan.ts), health probes on
// Triton's HTTP endpoints (server docs/protocol: GET /v2/health/ready and /v2/health/live), and its
// three ports named. The repository is the storage URL the server reads, or a volume at /models that
// the user provides (a PersistentVolumeClaim tritonc does not write).
import { GPU_RESOURCE } from '../deployment/kubernetes.js';
import { CONTAINER_REPOSITORY, PORTS, headerLines, memoryQuantity, repositoryOf, serverArgs, type DeployPlan } from './plan.js';
import { kubeletWord, yamlDocument, type YamlComment } from './yaml-text.js';

/** The container's name in every manifest deploy writes. */
export const CONTAINER_NAME = 'tritonserver';
const VOLUME = 'models';

/** The labels that tie the Deployment's pods to the Service. */
export const podLabels = (plan: DeployPlan): Record<string, string> => ({ 'app.kubernetes.io/name': plan.name, 'app.kubernetes.io/managed-by': 'tritonc' });

/** resources.limits: the GPUs (none: no GPU resource at all) and the memory. */
export function resourceLimits(plan: DeployPlan): Record<string, string | number> {
  return { ...(plan.gpus.count ? { [GPU_RESOURCE]: plan.gpus.count } : {}), memory: memoryQuantity(plan.memory.limitBytes) };
}

/** The comment before resources.limits: where each number comes from. */
export const limitsComment = (plan: DeployPlan): string[] => [
  `${GPU_RESOURCE}: ${plan.gpus.count ? plan.gpus.why : `none: ${plan.gpus.why}`}`,
  `memory: ${plan.memory.why}`,
];

export function kubernetesText(plan: DeployPlan): string {
  const labels = podLabels(plan);
  const metadata = { name: plan.name, labels };
  const args = [CONTAINER_NAME, ...serverArgs(plan, repositoryOf(plan))].map(kubeletWord);
  const probe = (path: string, periodSeconds: number, failureThreshold: number) => ({ httpGet: { path, port: PORTS.http }, periodSeconds, failureThreshold });
  const container = {
    name: CONTAINER_NAME,
    image: plan.image,
    args,
    ports: [
      { name: 'http', containerPort: PORTS.http },
      { name: 'grpc', containerPort: PORTS.grpc },
      { name: 'metrics', containerPort: PORTS.metrics },
    ],
    resources: { limits: resourceLimits(plan) },
    // Loading the models may take minutes: the other probes start once the server is ready.
    startupProbe: probe('/v2/health/ready', 10, 30),
    readinessProbe: probe('/v2/health/ready', 5, 3),
    livenessProbe: probe('/v2/health/live', 10, 3),
    ...(plan.storageUri ? {} : { volumeMounts: [{ name: VOLUME, mountPath: CONTAINER_REPOSITORY, readOnly: true }] }),
  };
  const podSpec = {
    containers: [container],
    ...(plan.storageUri ? {} : { volumes: [{ name: VOLUME, persistentVolumeClaim: { claimName: `${plan.name}-models`, readOnly: true } }] }),
  };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
  };
  const containerPath = ['spec', 'template', 'spec', 'containers', 0];
  const comments: YamlComment[] = [
    { path: [], lines: headerLines(plan, 'kubernetes') },
    {
      path: [...containerPath, 'args'],
      lines: [
        'Explicit model control, every model loaded at start-up: a model that fails to load stops the server (never poll: tritonc docs/rules/deployment-poll.md)',
      ],
    },
    { path: [...containerPath, 'resources'], lines: limitsComment(plan) },
  ];
  if (plan.storageUri)
    comments.push({
      path: [...containerPath, 'image'],
      lines: [
        `The server reads ${plan.storageUri} itself: give it the store's credentials (env from a Secret: AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_*)`,
      ],
    });
  else
    comments.push({
      path: ['spec', 'template', 'spec', 'volumes'],
      lines: [
        `Fill in: the repository, mounted read-only at ${CONTAINER_REPOSITORY}. tritonc writes no PersistentVolumeClaim: create ${plan.name}-models holding the contents of ${plan.named},`,
        'or put your own volume here (nfs, csi, or an initContainer filling an emptyDir)',
      ],
    });
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      selector: labels,
      ports: [
        { name: 'http', port: PORTS.http, targetPort: 'http' },
        { name: 'grpc', port: PORTS.grpc, targetPort: 'grpc' },
        { name: 'metrics', port: PORTS.metrics, targetPort: 'metrics' },
      ],
    },
  };
  return `${yamlDocument(deployment, comments)}---\n${yamlDocument(service, [{ path: ['spec', 'ports'], lines: ["Triton's metrics (Prometheus) on the port named metrics"] }])}`;
}

// KServe: an InferenceService whose predictor runs Triton, on the ServingRuntime it selects, read as
// KServe's controller builds the pod (kserve master aaac4e29, 2026-08-21):
// - the predictor is `spec.predictor.model` (modelFormat, runtime, runtimeVersion, storageUri and
//   container fields) or the older `spec.predictor.triton`;
// - its container is the runtime's first container merged with the predictor's fields, the args
//   concatenated, runtime's first (pkg/controller/v1beta1/inferenceservice/utils/utils.go:259
//   MergeRuntimeContainers: "isvc extends runtime flags");
// - runtimeVersion replaces the image's tag, unless the image is pinned by digest (utils.go:340
//   UpdateImageTag);
// - without storageUri (or storage), --model-control-mode=explicit is added to the args
//   (pkg/apis/serving/v1beta1/inference_service_defaults.go:479-490 SetTritonDefaults);
// - the storage initializer copies storageUri to /mnt/models (pkg/constants/constants.go:511
//   DefaultModelLocalMountPath), which the runtime's --model-store names.
import type { ManifestDocument, ValuePath } from './manifest-text.js';
import type { DeployedServer, Located } from './server.js';
import { containerServer, isRecord, valueAt } from './kubernetes.js';
import { parseTritonCommandLine } from '../triton/command-line.js';
import { DeploymentInputError } from './errors.js';
import { quoted } from '../util/terminal-text.js';

const SERVING_RUNTIMES = new Set(['ServingRuntime', 'ClusterServingRuntime']);
export const KSERVE_MOUNT_PATH = '/mnt/models';

/**
 * KServe's own Triton runtime when the manifests do not hold it (config/runtimes/kserve-tritonserver.yaml
 * and config/runtimes/kustomization.yaml, kserve aaac4e29): its image, args and memory limit.
 */
export const KSERVE_TRITON_RUNTIME = {
  name: 'kserve-tritonserver',
  image: 'nvcr.io/nvidia/tritonserver:23.05-py3',
  args: ['--model-store=/mnt/models', '--grpc-port=9000', '--http-port=8080', '--allow-grpc=true', '--allow-http=true'],
  memoryLimit: 2 * 2 ** 30,
  source: 'kserve config/runtimes/kserve-tritonserver.yaml (aaac4e29)',
} as const;

/** The InferenceServices' Triton servers; `runtimes` are the ServingRuntimes of every document given. */
export function kserveServers(doc: ManifestDocument, runtimes: readonly ManifestDocument[]): DeployedServer[] {
  const v = doc.value;
  if (!isRecord(v) || v.kind !== 'InferenceService' || typeof v.apiVersion !== 'string' || !v.apiVersion.startsWith('serving.kserve.io/')) return [];
  const name = typeof valueAt(v, ['metadata', 'name']) === 'string' ? (valueAt(v, ['metadata', 'name']) as string) : '(unnamed)';
  const legacy = isRecord(valueAt(v, ['spec', 'predictor', 'triton']));
  const path: ValuePath = legacy ? ['spec', 'predictor', 'triton'] : ['spec', 'predictor', 'model'];
  const predictor = valueAt(v, path);
  if (!isRecord(predictor)) return [];
  const runtimeName = typeof predictor.runtime === 'string' ? predictor.runtime : undefined;
  const format = valueAt(predictor, ['modelFormat', 'name']);
  const runtimeDoc = runtimeName ? runtimes.find((r) => valueAt(r.value, ['metadata', 'name']) === runtimeName) : undefined;
  const owner = `InferenceService ${name}`;
  let base: DeployedServer | undefined;
  if (runtimeDoc) {
    base = containerServer(runtimeDoc, ['spec', 'containers', 0], `${String(valueAt(runtimeDoc.value, ['kind']))} ${runtimeName}`, 'kserve', {
      assumeServer: false,
    });
    if (!base) return []; // a runtime that runs no tritonserver
  } else if (legacy || runtimeName === KSERVE_TRITON_RUNTIME.name || (runtimeName === undefined && format === 'triton')) {
    base = builtInRuntime(doc, path);
  } else if (runtimeName !== undefined && format === 'triton') {
    // A Triton model on a runtime the files do not hold: its image and args are not known here.
    const at = doc.locate([...path, 'runtime']).range.start;
    throw new DeploymentInputError(
      `${owner} runs on the ServingRuntime ${quoted(runtimeName)}, which none of the files given holds; give its manifest too (another --deployment), or use KServe's own ${KSERVE_TRITON_RUNTIME.name}`,
      doc.file,
      at.line,
      at.column,
    );
  } else return [];

  // The predictor's container fields over the runtime's.
  const own = containerServer(doc, path, owner, 'kserve', { assumeServer: true });
  const runtimeVersion =
    typeof predictor.runtimeVersion === 'string' ? { value: predictor.runtimeVersion, at: doc.locate([...path, 'runtimeVersion']) } : undefined;
  const image = withRuntimeVersion(own?.image ?? base.image, runtimeVersion);
  const words = [...base.words, ...(own?.words ?? [])];
  // inference_service_defaults.go:479-490 SetTritonDefaults: with neither storageUri nor storage, the
  // model's args get --model-control-mode=explicit.
  if (predictor.storageUri === undefined && predictor.storage === undefined) words.push({ value: '--model-control-mode=explicit', at: doc.locate(path) });
  const ownGpus = own?.gpus && own.gpus.count > 0 ? own.gpus : undefined;
  const env = new Map(base.env);
  for (const [k, e] of own?.env ?? []) env.set(k, e);
  const storage =
    typeof predictor.storageUri === 'string'
      ? { uri: { value: predictor.storageUri, at: doc.locate([...path, 'storageUri']) }, mountPath: KSERVE_MOUNT_PATH }
      : undefined;
  return [
    {
      platform: 'kserve',
      name: `${owner} (runtime ${runtimeName ?? KSERVE_TRITON_RUNTIME.name})`,
      at: doc.locate(path),
      ...(image ? { image } : {}),
      words,
      commandLine: parseTritonCommandLine(words.map((w) => w.value)),
      gpus: ownGpus ?? (base.gpus && base.gpus.count > 0 ? base.gpus : { count: 0, at: doc.locate([...path, 'resources']) }),
      ...((own?.memoryLimit ?? base.memoryLimit) ? { memoryLimit: own?.memoryLimit ?? base.memoryLimit! } : {}),
      env,
      ...(storage ? { storage } : {}),
    },
  ];
}

/** Whether a document is a ServingRuntime or ClusterServingRuntime. */
export function isServingRuntime(doc: ManifestDocument): boolean {
  const v = doc.value;
  return isRecord(v) && typeof v.kind === 'string' && SERVING_RUNTIMES.has(v.kind);
}

/** KServe's own runtime, located at the predictor that selects it (its text is not in the user's files). */
function builtInRuntime(doc: ManifestDocument, path: ValuePath): DeployedServer {
  const at = doc.locate(path);
  const words = KSERVE_TRITON_RUNTIME.args.map((value) => ({ value, at }));
  return {
    platform: 'kserve',
    name: KSERVE_TRITON_RUNTIME.name,
    at,
    image: { value: KSERVE_TRITON_RUNTIME.image, at },
    words,
    commandLine: parseTritonCommandLine(KSERVE_TRITON_RUNTIME.args),
    memoryLimit: { value: KSERVE_TRITON_RUNTIME.memoryLimit, at },
    env: new Map(),
  };
}

/** UpdateImageTag: runtimeVersion replaces the tag (or is added), not on an image pinned by digest. */
function withRuntimeVersion(image: Located<string> | undefined, version: Located<string> | undefined): Located<string> | undefined {
  if (!image || !version || image.value.includes('@sha256:')) return image;
  const m = /:[\w.\-_]*$/.exec(image.value);
  const name = m && !m[0].includes('/') ? image.value.slice(0, m.index) : image.value;
  return { value: `${name}:${version.value}`, at: version.at };
}

// `tritonc deploy --target kserve`: an InferenceService on KServe's own Triton runtime
// (modelFormat triton), pinned to the release image by runtimeVersion, which replaces the runtime
// image's tag (kserve pkg/controller/v1beta1/inferenceservice/utils/utils.go UpdateImageTag; without
// it KServe runs its runtime's 23.05: src/deployment/kserve.ts KSERVE_TRITON_RUNTIME). KServe's storage
// initializer copies storageUri to /mnt/models, which the runtime's --model-store names; the args here
// come after the runtime's (utils.go MergeRuntimeContainers).
import { KSERVE_TRITON_RUNTIME } from '../deployment/kserve.js';
import { KSERVE_MOUNT_PATH } from '../deployment/kserve.js';
import { headerLines, serverArgs, type DeployPlan } from './plan.js';
import { kubeletWord, yamlDocument } from './yaml-text.js';
import { limitsComment, resourceLimits } from './kubernetes.js';

/** The storage URIs KServe's storage initializer downloads that tritonc also reads (as:// is Triton's own Azure form). */
export const KSERVE_STORAGE = /^(s3|gs):\/\//;

export function kserveText(plan: DeployPlan): string {
  if (!plan.storageUri) throw new Error('kserveText needs a storage URI');
  // The runtime's own args name the repository; ours add explicit control and every model.
  const args = serverArgs(plan, KSERVE_MOUNT_PATH).slice(1).map(kubeletWord);
  const isvc = {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: plan.name },
    spec: {
      predictor: {
        model: {
          modelFormat: { name: 'triton' },
          runtimeVersion: plan.image.slice(plan.image.lastIndexOf(':') + 1),
          storageUri: plan.storageUri,
          args,
          resources: { limits: resourceLimits(plan) },
        },
      },
    },
  };
  const model = ['spec', 'predictor', 'model'];
  return yamlDocument(isvc, [
    { path: [], lines: headerLines(plan, 'kserve') },
    {
      path: [...model, 'runtimeVersion'],
      lines: [`The image's tag on KServe's ${KSERVE_TRITON_RUNTIME.name} runtime (without it: ${KSERVE_TRITON_RUNTIME.image})`],
    },
    {
      path: [...model, 'storageUri'],
      lines: [`The repository itself (not a model directory in it): KServe copies it to ${KSERVE_MOUNT_PATH}, where the runtime's --model-store reads`],
    },
    { path: [...model, 'resources'], lines: limitsComment(plan) },
  ]);
}

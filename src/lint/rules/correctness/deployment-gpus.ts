// The GPUs a deployment gives its server's container (the nvidia.com/gpu limit the device plugin
// honours) must cover the instance groups of the models it serves: a KIND_GPU group on a container
// with none, or a group listing GPU ids past the count, is refused at load (core
// model_config_utils.cc ValidateInstanceGroup). instance-group says so in each config; this rule says
// it where the fix usually is, the container's resources, with the count the models need.
import { defineDeploymentRule } from '../../rule.js';
import { MIN_COMPUTE_CAPABILITY_TEXT } from '../../../triton/normalize.js';
import { requiredGpus } from '../../../triton/gpu-count.js';

const messages = {
  noGpus:
    'the container gets no GPU, and {{models}} run{{s}} instances on GPUs (KIND_GPU, or gpus listed), so Triton refuses {{them}} ("instance group {{group}} of model {{model}} has kind KIND_GPU but no GPUs are available"); give the container resources.limits nvidia.com/gpu: {{needed}}, or make those groups KIND_CPU',
  tooFewGpus:
    'the container gets {{count}} GPU{{plural}} (ids {{ids}}), and {{model}} lists GPU {{id}}, so Triton refuses it ("instance group {{group}} of model {{model}} specifies invalid or unsupported gpu id {{id}}. GPUs with at least the minimum required CUDA compute compatibility of {{cc}} are: {{ids}}"); give the container nvidia.com/gpu: {{needed}}, or list GPU ids below {{count}}',
} as const;

export const deploymentGpus = defineDeploymentRule({
  meta: {
    id: 'deployment-gpus',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A deployment's container must get the GPUs its models' instance groups place instances on",
    prevents: [
      'instance group <group> of model <model> has kind KIND_GPU but no GPUs are available',
      'instance group <group> of model <model> specifies invalid or unsupported gpu id <id>. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: <ids>',
    ],
    messages,
  },
  check(ctx) {
    const gpus = ctx.deployment.server.gpus;
    if (!gpus) return;
    const count = gpus.count;
    // Per model, the GPUs its groups need and the group that needs the most (triton/gpu-count.ts).
    const needs = ctx.loaded.flatMap((m) => {
      const need = m.config ? requiredGpus({ ...m.config, name: m.config.name ?? m.name }) : { count: 0 };
      return need.count > 0 ? [{ model: m.name, group: need.group ?? m.name, count: need.count }] : [];
    });
    if (!needs.length) return;
    const most = needs.reduce((a, b) => (b.count > a.count ? b : a));
    if (count === 0) {
      const first = needs[0]!;
      ctx.report({
        at: gpus.at,
        messageId: 'noGpus',
        data: {
          models: needs.map((n) => n.model).join(', '),
          s: needs.length === 1 ? 's' : '',
          them: needs.length === 1 ? 'it' : 'them',
          group: first.group,
          model: first.model,
          needed: most.count,
        },
      });
    } else if (most.count > count) {
      const ids = Array.from({ length: count }, (_, i) => i).join(', ');
      ctx.report({
        at: gpus.at,
        messageId: 'tooFewGpus',
        data: {
          model: most.model,
          group: most.group,
          id: most.count - 1,
          count,
          plural: count === 1 ? '' : 's',
          ids,
          cc: MIN_COMPUTE_CAPABILITY_TEXT,
          needed: most.count,
        },
      });
    }
  },
});

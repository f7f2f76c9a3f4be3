// The GPUs a deployment gives its server's container (the nvidia.com/gpu limit the device plugin
// honours) must cover the instance groups of the models it serves: a KIND_GPU group on a container
// with none, or a group listing GPU ids past the count, is refused at load (core
// model_config_utils.cc ValidateInstanceGroup). instance-group says so in each config; this rule says
// it where the fix usually is, the container's resources, with the count the models need.
import { defineDeploymentRule } from '../../rule.js';
import { MIN_COMPUTE_CAPABILITY_TEXT } from '../../../triton/normalize.js';

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
    // Per model: the first group that needs a GPU, and the highest GPU id listed.
    const onGpu: { model: string; group: string }[] = [];
    let highest: { model: string; group: string; id: number } | undefined;
    for (const model of ctx.models) {
      const groups = model.config?.instance_group ?? [];
      let first: string | undefined;
      groups.forEach((g, i) => {
        const listed = (g.gpus ?? []).filter((id) => id >= 0);
        const kind = g.kind ?? 'KIND_AUTO';
        if (kind === 'KIND_CPU' || kind === 'KIND_MODEL') return;
        if (kind !== 'KIND_GPU' && !listed.length) return;
        const group = g.name ?? `${model.name}_${i}`;
        first ??= group;
        for (const id of listed) if (!highest || id > highest.id) highest = { model: model.name, group, id };
      });
      if (first !== undefined) onGpu.push({ model: model.name, group: first });
    }
    if (!onGpu.length) return;
    if (count === 0) {
      const needed = highest ? highest.id + 1 : 1;
      const models = onGpu.map((m) => m.model);
      ctx.report({
        at: gpus.at,
        messageId: 'noGpus',
        data: {
          models: models.join(', '),
          s: models.length === 1 ? 's' : '',
          them: models.length === 1 ? 'it' : 'them',
          group: onGpu[0]!.group,
          model: onGpu[0]!.model,
          needed,
        },
      });
    } else if (highest && highest.id >= count) {
      const ids = Array.from({ length: count }, (_, i) => i).join(', ');
      ctx.report({
        at: gpus.at,
        messageId: 'tooFewGpus',
        data: { ...highest, count, plural: count === 1 ? '' : 's', ids, cc: MIN_COMPUTE_CAPABILITY_TEXT, needed: highest.id + 1 },
      });
    }
  },
});

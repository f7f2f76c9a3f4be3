// instance_group (core src/model_config_utils.cc NormalizeInstanceGroup, ValidateInstanceGroup): CPU and
// model-placed groups may not list GPUs, GPU ids are non-negative, `profile` is a TensorRT field
// (non-negative integers as strings), and a count below 1 silently becomes the default. Groups are
// named as core names them (`<model>_<index>` when unnamed), so messages match Triton's log.
import type { ModelInstanceGroup } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend } from '../../backend.js';
import { isTensorrtPlatform } from '../../../triton/backend-records.js';

const KIND_NAMES = ['KIND_AUTO', 'KIND_GPU', 'KIND_CPU', 'KIND_MODEL'];
const kindOf = (g: ModelInstanceGroup): string => {
  const k = g.kind ?? 0;
  return typeof k === 'number' ? (KIND_NAMES[k] ?? `${k}`) : k;
};

/** std::stoi as core's GetProfileIndex uses it: leading blanks, a sign, digits; the rest is ignored. */
function stoi(text: string): number | undefined {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(text);
  if (!m) return undefined;
  const v = Number(m[1]);
  return v >= -(2 ** 31) && v < 2 ** 31 ? v : undefined;
}

const messages = {
  allGroupsPassive: 'every instance group is passive: Triton loads the instances but never schedules requests on them, so every request waits; make at least one group non-passive (remove passive: true)',
  gpusOnNonGpuGroup: 'a {{kind}} group runs {{where}} and may not list GPUs, so Triton refuses the model ("{{prefix}} has kind {{kind}} but specifies one or more GPUs"); remove gpus{{tritonNote}}',
  unknownGpuId: 'gpu id {{id}} is not a GPU (ids count from 0){{kindNote}} ("{{tritonMessage}}"); list GPU ids from 0, or remove gpus to use every GPU',
  gpuIdBeyondCount: 'gpu id {{id}} is not one of the {{count}} GPU{{plural}} the servers have (ids {{ids}}){{source}}{{kindNote}} ("{{tritonMessage}}"); list GPU ids below {{count}}, or remove gpus to use every GPU{{countFix}}',
  gpuGroupWithoutGpus: 'the settings say the servers have no GPU (gpu.count: 0), so Triton refuses this {{kind}} group{{kindNote}} ("{{tritonMessage}}"); use kind: KIND_CPU without gpus',
  profileNotTensorrt: `profile selects TensorRT optimization profiles, and this model's platform is {{platformShown}}{{guessNote}}, so Triton refuses the model ("{{prefix}} and platform {{platform}}specifies profile field which is only supported for TensorRT models"); remove profile`,
  profileNotIndex: 'profile {{profileText}} is not the index of a TensorRT optimization profile, so Triton refuses the model ("{{tritonMessage}}"); write the profile index as a string, e.g. profile: [ "0" ]',
  countNotPositive: 'count {{count}} is not a number of instances: Triton silently uses the default ({{dflt}}) instead; set count: 1 or more',
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

/** The most GPUs one server has (an HGX or DGX node: 8, a DGX-2: 16). */
const MAX_GPUS_PER_SERVER = 16;

export const instanceGroup = defineModelRule({
  meta: {
    id: 'instance-group',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'instance groups: no GPUs on KIND_CPU/KIND_MODEL, valid GPU ids, profile only for TensorRT, count >= 1',
    prevents: [
      'instance group <g> of model <name> has kind KIND_MODEL but specifies one or more GPUs',
      'instance group <g> of model <name> has kind KIND_CPU but specifies one or more GPUs',
      'instance group <g> of model <name> specifies invalid or unsupported gpu id <id>. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: <ids>',
      'instance group <g> of model <name> has kind KIND_GPU but no GPUs are available',
      'instance group <g> of model <name> and platform <platform>specifies profile field which is only supported for TensorRT models',
      'profile name must not be empty',
      "unable to parse '<p>': stoi",
      'instance group <g> of model <name> and platform <platform> specifies invalid profile <p>. The field should contain the string representation of a non-negative integer.',
    ],
    messages,
  },
  check(ctx) {
    const groups = ctx.config.instance_group ?? [];
    // Ensembles have no instances; the ensemble rules refuse instance_group there.
    if (!groups.length || ctx.config.platform === 'ensemble' || ctx.config.ensemble_scheduling) return;
    const name = modelName(ctx);
    groups.forEach((g, i) => checkGroup(ctx, g, ['instance_group', i], g.name || `${name}_${i}`, name));
    if (groups.every((g) => g.passive)) {
      ctx.report({
        path: ['instance_group', 0, 'passive'],
        severity: 'warning',
        messageId: 'allGroupsPassive',
      });
    }
  },
});

function checkGroup(ctx: Ctx, g: ModelInstanceGroup, path: PathSegment[], group: string, name: string): void {
  const kind = kindOf(g);
  const gpus = g.gpus ?? [];
  const gpusPath = [...path, 'gpus'];
  const prefix = `instance group ${group} of model ${name}`;

  if ((kind === 'KIND_CPU' || kind === 'KIND_MODEL') && gpus.length) {
    ctx.report({
      path: [...gpusPath, 0],
      messageId: 'gpusOnNonGpuGroup',
      data: { group, kind, gpus, where: kind === 'KIND_CPU' ? 'on the CPU' : 'where the model places itself', prefix, tritonNote: kind === 'KIND_CPU' ? ', or use kind: KIND_GPU' : '' },
    });
  } else if (kind === 'KIND_GPU' || kind === 'KIND_AUTO') {
    const bad = gpus.findIndex((id) => id < 0);
    if (bad >= 0) {
      const id = gpus[bad]!;
      // KIND_AUTO with an id that is not a usable GPU becomes KIND_CPU, still listing the GPUs.
      const tritonMessage = kind === 'KIND_GPU'
        ? `${prefix} specifies invalid or unsupported gpu id ${id}. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: <ids>`
        : `${prefix} has kind KIND_CPU but specifies one or more GPUs`;
      ctx.report({
        path: [...gpusPath, bad],
        messageId: 'unknownGpuId',
        data: { group, id, kindNote: kind === 'KIND_AUTO' ? ', so Triton turns this KIND_AUTO group into KIND_CPU and then refuses its GPU list' : ', so Triton refuses the model', tritonMessage },
      });
    }
    // Ids past the servers' GPU count: what resolve refuses for the same count (core ValidateInstanceGroup).
    // Without a count from the user, the default of 1 is no fact of their servers: only ids past what
    // any one server holds (an HGX or DGX node has 8 or 16 GPUs) are said.
    const source = ctx.settings.gpu.countSource;
    const count = ctx.settings.gpu.count;
    const beyond = bad < 0 && count > 0 ? gpus.findIndex((id) => id >= (source ? count : MAX_GPUS_PER_SERVER)) : -1;
    if (beyond >= 0) {
      const id = gpus[beyond]!;
      const ids = Array.from({ length: count }, (_, i) => i).join(', ');
      const tritonMessage = kind === 'KIND_GPU'
        ? `${prefix} specifies invalid or unsupported gpu id ${id}. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: ${ids}`
        : `${prefix} has kind KIND_CPU but specifies one or more GPUs`;
      ctx.report({
        path: [...gpusPath, beyond],
        // A count the user gave is a fact of the servers; the default (1) only a guess.
        severity: source ? 'error' : 'warning',
        messageId: 'gpuIdBeyondCount',
        data: {
          id, count, plural: count === 1 ? '' : 's', ids,
          source: source ? ` (${source})` : ` (the count is not set, and no server has more than ${MAX_GPUS_PER_SERVER})`,
          kindNote: kind === 'KIND_AUTO' ? ', so Triton turns this KIND_AUTO group into KIND_CPU and then refuses its GPU list' : ', so Triton refuses the model',
          tritonMessage,
          countFix: source ? '' : '; if the servers have more GPUs, say so with --gpus N or gpu.count in tritonc.config.json',
        },
      });
    }
    if (ctx.settings.gpu.count === 0 && bad < 0 && (kind === 'KIND_GPU' || gpus.length)) {
      // The settings say the servers have no GPU.
      const tritonMessage = kind === 'KIND_AUTO'
        ? `${prefix} has kind KIND_CPU but specifies one or more GPUs`
        : gpus.length
          ? `${prefix} specifies invalid or unsupported gpu id ${gpus[0]}. GPUs with at least the minimum required CUDA compute compatibility of <cc> are: `
          : `${prefix} has kind KIND_GPU but no GPUs are available`;
      ctx.report({
        path: gpus.length ? [...gpusPath, 0] : g.kind !== undefined ? [...path, 'kind'] : path,
        messageId: 'gpuGroupWithoutGpus',
        data: { group, kind, kindNote: kind === 'KIND_AUTO' ? ' (it becomes KIND_CPU, still listing GPUs)' : '', tritonMessage },
      });
    }
  }

  const profiles = g.profile ?? [];
  if (profiles.length) {
    const settled = settledBackend(ctx);
    if (!isTensorrtPlatform(settled.platform)) {
      const guessed = settled.guessed;
      ctx.report({
        path: [...path, 'profile', 0],
        severity: guessed ? 'warning' : 'error',
        messageId: 'profileNotTensorrt',
        data: { group, platform: settled.platform, platformShown: settled.platform ? `'${settled.platform}'` : 'not set', guessNote: guessed ? ' (no version directory to infer it from)' : '', prefix },
      });
    } else {
      profiles.forEach((p, k) => {
        const at = [...path, 'profile', k];
        const index = stoi(p);
        const tritonMessage = p === ''
          ? 'profile name must not be empty'
          : index === undefined
            ? `unable to parse '${p}': stoi`
            : index < 0
              ? `${prefix} and platform ${settled.platform} specifies invalid profile ${p}. The field should contain the string representation of a non-negative integer.`
              : undefined;
        if (!tritonMessage) return;
        ctx.report({
          path: at,
          messageId: 'profileNotIndex',
          data: { group, profile: p, profileText: JSON.stringify(p), tritonMessage },
        });
      });
    }
  }

  if (g.count !== undefined && g.count < 1) {
    const backend = settledBackend(ctx).backend;
    const cpu = backend === 'onnxruntime' || backend === 'tensorflow' ? 2 : 1;
    const dflt = kind === 'KIND_CPU' ? `${cpu}` : kind === 'KIND_AUTO' ? `1 on each GPU, or ${cpu} on a server without GPUs` : kind === 'KIND_GPU' ? '1 on each GPU' : '1';
    ctx.report({
      path: [...path, 'count'],
      severity: 'warning',
      messageId: 'countNotPositive',
      data: { group, count: g.count, dflt },
    });
  }
}

// instance_group (core src/model_config_utils.cc NormalizeInstanceGroup, ValidateInstanceGroup): CPU and
// model-placed groups may not list GPUs, GPU ids are non-negative, `profile` is a TensorRT field
// (non-negative integers as strings), and a count below 1 silently becomes the default. Groups are
// named as core names them (`<model>_<index>` when unnamed), so messages match Triton's log.
import type { ModelInstanceGroup } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend } from '../../backend.js';
import { defaultCpuInstances, isEnsemble, isTensorrtPlatform } from '../../../triton/backend-records.js';
import { MAX_GPUS_PER_SERVER, hostGpuCount } from '../../../triton/gpu-count.js';
import { MIN_COMPUTE_CAPABILITY_TEXT } from '../../../triton/normalize.js';

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

// One message per wording (kind, where the GPU count comes from, platform known or not): Triton's
// messages are quoted verbatim, with only names and numbers filled in.
const messages = {
  allGroupsPassive:
    'every instance group is passive: Triton loads the instances but never schedules requests on them, so every request waits; make at least one group non-passive (remove passive: true)',
  gpusOnCpuGroup:
    'a KIND_CPU group runs on the CPU and may not list GPUs, so Triton refuses the model ("instance group {{group}} of model {{model}} has kind KIND_CPU but specifies one or more GPUs"); remove gpus, or use kind: KIND_GPU',
  gpusOnModelGroup:
    'a KIND_MODEL group runs where the model places itself and may not list GPUs, so Triton refuses the model ("instance group {{group}} of model {{model}} has kind KIND_MODEL but specifies one or more GPUs"); remove gpus',
  unknownGpuId:
    'gpu id {{id}} is not a GPU (ids count from 0), so Triton refuses the model ("instance group {{group}} of model {{model}} specifies invalid or unsupported gpu id {{id}}. GPUs with at least the minimum required CUDA compute compatibility of {{cc}} are: {{ids}}"); list GPU ids from 0, or remove gpus to use every GPU',
  unknownGpuIdAuto:
    'gpu id {{id}} is not a GPU (ids count from 0), so Triton turns this KIND_AUTO group into KIND_CPU and then refuses its GPU list ("instance group {{group}} of model {{model}} has kind KIND_CPU but specifies one or more GPUs"); list GPU ids from 0, or remove gpus to use every GPU',
  gpuIdBeyondCount:
    'gpu id {{id}} is not one of the servers\' GPU ids ({{ids}}, from {{source}}), so Triton refuses the model ("instance group {{group}} of model {{model}} specifies invalid or unsupported gpu id {{id}}. GPUs with at least the minimum required CUDA compute compatibility of {{cc}} are: {{ids}}"); list GPU ids below {{count}}, or remove gpus to use every GPU',
  gpuIdBeyondCountAuto:
    'gpu id {{id}} is not one of the servers\' GPU ids ({{ids}}, from {{source}}), so Triton turns this KIND_AUTO group into KIND_CPU and then refuses its GPU list ("instance group {{group}} of model {{model}} has kind KIND_CPU but specifies one or more GPUs"); list GPU ids below {{count}}, or remove gpus to use every GPU',
  gpuIdBeyondAnyServer:
    'gpu id {{id}} is not one of the servers\' GPU ids ({{ids}}; the count is not set, and no server has more than {{maxGpus}}), so Triton refuses the model ("instance group {{group}} of model {{model}} specifies invalid or unsupported gpu id {{id}}. GPUs with at least the minimum required CUDA compute compatibility of {{cc}} are: {{ids}}"); list GPU ids below {{count}}, or remove gpus to use every GPU; if the servers have more GPUs, say so with --gpus N or gpu.count in tritonc.config.json',
  gpuIdBeyondAnyServerAuto:
    'gpu id {{id}} is not one of the servers\' GPU ids ({{ids}}; the count is not set, and no server has more than {{maxGpus}}), so Triton turns this KIND_AUTO group into KIND_CPU and then refuses its GPU list ("instance group {{group}} of model {{model}} has kind KIND_CPU but specifies one or more GPUs"); list GPU ids below {{count}}, or remove gpus to use every GPU; if the servers have more GPUs, say so with --gpus N or gpu.count in tritonc.config.json',
  gpuGroupWithoutGpus:
    'the servers have no GPU ({{source}}: 0), so Triton refuses this KIND_GPU group ("instance group {{group}} of model {{model}} has kind KIND_GPU but no GPUs are available"); use kind: KIND_CPU without gpus',
  gpuGroupWithoutGpusListed:
    'the servers have no GPU ({{source}}: 0), so Triton refuses this KIND_GPU group ("instance group {{group}} of model {{model}} specifies invalid or unsupported gpu id {{id}}. GPUs with at least the minimum required CUDA compute compatibility of {{cc}} are: "); use kind: KIND_CPU without gpus',
  gpuGroupWithoutGpusAuto:
    'the servers have no GPU ({{source}}: 0), so Triton refuses this KIND_AUTO group (it becomes KIND_CPU, still listing GPUs) ("instance group {{group}} of model {{model}} has kind KIND_CPU but specifies one or more GPUs"); use kind: KIND_CPU without gpus',
  profileNotTensorrt:
    "profile selects TensorRT optimization profiles, and this model's platform is '{{platform}}', so Triton refuses the model (\"instance group {{group}} of model {{model}} and platform {{platform}}specifies profile field which is only supported for TensorRT models\"); remove profile",
  profileNotTensorrtNoPlatform:
    'profile selects TensorRT optimization profiles, and this model\'s platform is not set, so Triton refuses the model ("instance group {{group}} of model {{model}} and platform specifies profile field which is only supported for TensorRT models"); remove profile',
  profileNotTensorrtGuessed:
    'profile selects TensorRT optimization profiles, and this model\'s platform is not set (no version directory to infer it from), so Triton refuses the model ("instance group {{group}} of model {{model}} and platform specifies profile field which is only supported for TensorRT models"); remove profile',
  profileEmpty:
    'profile {{profileText}} is not the index of a TensorRT optimization profile, so Triton refuses the model ("profile name must not be empty"); write the profile index as a string, e.g. profile: [ "0" ]',
  profileNotIndex:
    'profile {{profileText}} is not the index of a TensorRT optimization profile, so Triton refuses the model ("unable to parse \'{{profile}}\': stoi"); write the profile index as a string, e.g. profile: [ "0" ]',
  profileNegative:
    'profile {{profileText}} is not the index of a TensorRT optimization profile, so Triton refuses the model ("instance group {{group}} of model {{model}} and platform {{platform}} specifies invalid profile {{profile}}. The field should contain the string representation of a non-negative integer."); write the profile index as a string, e.g. profile: [ "0" ]',
  countNotPositive: 'count {{count}} is not a number of instances: Triton silently uses the default ({{dflt}}) instead; set count: 1 or more',
  countNotPositiveGpu: 'count {{count}} is not a number of instances: Triton silently uses the default (1 on each GPU) instead; set count: 1 or more',
  countNotPositiveAuto:
    'count {{count}} is not a number of instances: Triton silently uses the default (1 on each GPU, or {{dflt}} on a server without GPUs) instead; set count: 1 or more',
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

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
    if (!groups.length || isEnsemble(ctx.config) || ctx.config.ensemble_scheduling) return;
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

/** The GPU ids Triton lists as supported: those of the count given, or of the host lint and resolve assume (triton/gpu-count.ts). */
function hostIds(ctx: Ctx): string {
  const count = hostGpuCount(ctx.config, ctx.settings.gpu.countSource ? ctx.settings.gpu.count : undefined);
  return Array.from({ length: count }, (_, i) => i).join(', ');
}

function checkGroup(ctx: Ctx, g: ModelInstanceGroup, path: PathSegment[], group: string, model: string): void {
  const kind = kindOf(g);
  const gpus = g.gpus ?? [];
  const gpusPath = [...path, 'gpus'];
  // KIND_AUTO with an id that is not a usable GPU becomes KIND_CPU, still listing the GPUs.
  const auto = kind === 'KIND_AUTO';

  if ((kind === 'KIND_CPU' || kind === 'KIND_MODEL') && gpus.length) {
    ctx.report({ path: [...gpusPath, 0], messageId: kind === 'KIND_CPU' ? 'gpusOnCpuGroup' : 'gpusOnModelGroup', data: { group, model, kind, gpus } });
  } else if (kind === 'KIND_GPU' || auto) {
    const bad = gpus.findIndex((id) => id < 0);
    if (bad >= 0) {
      if (auto) ctx.report({ path: [...gpusPath, bad], messageId: 'unknownGpuIdAuto', data: { group, model, kind, id: gpus[bad]! } });
      else
        ctx.report({
          path: [...gpusPath, bad],
          messageId: 'unknownGpuId',
          data: { group, model, kind, id: gpus[bad]!, cc: MIN_COMPUTE_CAPABILITY_TEXT, ids: hostIds(ctx) },
        });
    }
    // Ids past the servers' GPU count: what resolve refuses for the same count (core ValidateInstanceGroup).
    // Without a count from the user, the default of 1 is no fact of their servers: only ids past what
    // any one server holds (an HGX or DGX node has 8 or 16 GPUs) are said.
    const source = ctx.settings.gpu.countSource;
    const count = ctx.settings.gpu.count;
    const beyond = bad < 0 && count > 0 ? gpus.findIndex((id) => id >= (source ? count : MAX_GPUS_PER_SERVER)) : -1;
    if (beyond >= 0) {
      const data = {
        group,
        model,
        kind,
        id: gpus[beyond]!,
        count: source ? count : hostGpuCount(ctx.config, undefined),
        ids: hostIds(ctx),
        cc: MIN_COMPUTE_CAPABILITY_TEXT,
      };
      const at = [...gpusPath, beyond];
      // A count the user gave is a fact of the servers; the default (1) only a guess.
      if (source) ctx.report({ path: at, severity: 'error', messageId: auto ? 'gpuIdBeyondCountAuto' : 'gpuIdBeyondCount', data: { ...data, source } });
      else
        ctx.report({
          path: at,
          severity: 'warning',
          messageId: auto ? 'gpuIdBeyondAnyServerAuto' : 'gpuIdBeyondAnyServer',
          data: { ...data, maxGpus: MAX_GPUS_PER_SERVER },
        });
    }
    if (ctx.settings.gpu.count === 0 && bad < 0 && (kind === 'KIND_GPU' || gpus.length)) {
      // The settings, the command line or the deployment say the servers have no GPU.
      const at = gpus.length ? [...gpusPath, 0] : g.kind !== undefined ? [...path, 'kind'] : path;
      const zero = source ?? 'gpu.count';
      if (auto) ctx.report({ path: at, messageId: 'gpuGroupWithoutGpusAuto', data: { group, model, kind, source: zero } });
      else if (gpus.length)
        ctx.report({
          path: at,
          messageId: 'gpuGroupWithoutGpusListed',
          data: { group, model, kind, id: gpus[0]!, cc: MIN_COMPUTE_CAPABILITY_TEXT, source: zero },
        });
      else ctx.report({ path: at, messageId: 'gpuGroupWithoutGpus', data: { group, model, kind, source: zero } });
    }
  }

  const profiles = g.profile ?? [];
  if (profiles.length) {
    const settled = settledBackend(ctx);
    if (!isTensorrtPlatform(settled.platform)) {
      const guessed = settled.guessed;
      const base = { path: [...path, 'profile', 0], severity: guessed ? ('warning' as const) : ('error' as const) };
      const data = { group, model, platform: settled.platform };
      // A guess is made only when nothing names the platform, so a guessed platform is not set.
      if (settled.platform) ctx.report({ ...base, messageId: 'profileNotTensorrt', data });
      else ctx.report({ ...base, messageId: guessed ? 'profileNotTensorrtGuessed' : 'profileNotTensorrtNoPlatform', data });
    } else {
      profiles.forEach((p, k) => {
        const index = stoi(p);
        const messageId = p === '' ? 'profileEmpty' : index === undefined ? 'profileNotIndex' : index < 0 ? 'profileNegative' : undefined;
        if (!messageId) return;
        ctx.report({
          path: [...path, 'profile', k],
          messageId,
          data: { group, model, platform: settled.platform, profile: p, profileText: JSON.stringify(p) },
        });
      });
    }
  }

  if (g.count !== undefined && g.count < 1) {
    const cpu = defaultCpuInstances(settledBackend(ctx));
    const at = { path: [...path, 'count'], severity: 'warning' as const };
    const data = { group, count: g.count };
    if (kind === 'KIND_GPU') ctx.report({ ...at, messageId: 'countNotPositiveGpu', data });
    else if (auto) ctx.report({ ...at, messageId: 'countNotPositiveAuto', data: { ...data, dflt: cpu } });
    else ctx.report({ ...at, messageId: 'countNotPositive', data: { ...data, dflt: kind === 'KIND_CPU' ? cpu : 1 } });
  }
}

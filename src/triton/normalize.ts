// Triton core's silent rewrites of a config (core src/model_config_utils.cc): NormalizeModelConfig (defaults
// for version policy, batcher sizes, sequence idle time, pinned memory) and NormalizeInstanceGroup
// (names, kinds, counts, GPUs), plus the instance-group checks that follow it (ValidateInstanceGroup), which depend
// on the same GPU count. Pure functions over a config value.
import { step, type ResolveProblem, type ResolveStep } from './changes.js';
import type { ModelConfig, ModelInstanceGroup } from '../config/model-config.js';
import { backendRecord, defaultCpuInstances } from './backend-records.js';

/** core's SEQUENCE_IDLE_DEFAULT_MICROSECONDS. */
export const SEQUENCE_IDLE_DEFAULT_MICROSECONDS = 1_000_000;

/** core's default --min-supported-compute-capability, as ValidateInstanceGroup prints it (std::to_string(6.0)). */
export const MIN_COMPUTE_CAPABILITY_TEXT = '6.000000';

export interface NormalizeResult {
  config: ModelConfig;
  steps: ResolveStep[];
}

/**
 * NormalizeModelConfig. Core runs it before validation and again after the backend's auto-complete
 * (UpdateModelConfig), so a dynamic_batching the backend added gets its preferred size then.
 * `pass` only labels the steps.
 */
export function normalizeModelConfig(input: ModelConfig, pass: 'first' | 'after auto-complete' = 'first'): NormalizeResult {
  const config: ModelConfig = structuredClone(input);
  const steps: ResolveStep[] = [];
  const when = pass === 'first' ? '' : ' (re-normalized after the backend auto-completed the config)';
  const maxBatch = config.max_batch_size ?? 0;

  if (!config.version_policy) {
    config.version_policy = { latest: { num_versions: 1 } };
    steps.push(step('normalize', 'add', ['version_policy'], `no version_policy: Triton serves the latest version only${when}`, config.version_policy));
  }

  if (config.dynamic_batching && !config.dynamic_batching.preferred_batch_size?.length && maxBatch > 0) {
    config.dynamic_batching.preferred_batch_size = [maxBatch];
    steps.push(
      step(
        'normalize',
        'set',
        ['dynamic_batching', 'preferred_batch_size'],
        `dynamic_batching without preferred_batch_size prefers max_batch_size (${maxBatch})${when}`,
        [maxBatch],
      ),
    );
  }

  const seq = config.sequence_batching;
  if (seq) {
    if (Number(seq.max_sequence_idle_microseconds ?? 0) === 0) {
      seq.max_sequence_idle_microseconds = SEQUENCE_IDLE_DEFAULT_MICROSECONDS;
      steps.push(
        step(
          'normalize',
          'set',
          ['sequence_batching', 'max_sequence_idle_microseconds'],
          `an unset sequence idle time defaults to 1 second${when}`,
          SEQUENCE_IDLE_DEFAULT_MICROSECONDS,
        ),
      );
    }
    if (seq.oldest && !seq.oldest.preferred_batch_size?.length && maxBatch > 0) {
      seq.oldest.preferred_batch_size = [maxBatch];
      steps.push(
        step(
          'normalize',
          'set',
          ['sequence_batching', 'oldest', 'preferred_batch_size'],
          `the oldest strategy without preferred_batch_size prefers max_batch_size (${maxBatch})${when}`,
          [maxBatch],
        ),
      );
    }
  }

  // Core keys this on ensemble_scheduling being present, not on the platform.
  if (!config.ensemble_scheduling) {
    const optimization = (config.optimization ??= {});
    for (const which of ['input_pinned_memory', 'output_pinned_memory'] as const) {
      if (!optimization[which]) {
        optimization[which] = { enable: true };
        steps.push(step('normalize', 'add', ['optimization', which], `${which.replace(/_/g, ' ')} is on unless configured${when}`, { enable: true }));
      }
    }
  }
  return { config, steps };
}

/**
 * NormalizeInstanceGroup, for a host with `gpuCount` supported GPUs (ids 0..gpuCount-1). ORT supplies
 * no preferred groups, so none are modelled. Skipped for ensembles.
 */
export function normalizeInstanceGroup(input: ModelConfig, gpuCount: number): NormalizeResult {
  const config: ModelConfig = structuredClone(input);
  const steps: ResolveStep[] = [];
  normalizeGroupsOf(config, gpuCount, steps);
  return { config, steps };
}

/**
 * Normalizes `config`'s instance groups in place, noting each step in `steps` when given. It only
 * assigns: config.instance_group, and the name, kind, count and gpus of each group (never changing
 * an array or object it finds), so a caller may hand it shallow copies.
 */
function normalizeGroupsOf(config: ModelConfig, gpuCount: number, steps?: ResolveStep[]): void {
  if (config.ensemble_scheduling) return;
  const gpus = supportedGpus(gpuCount);
  const name = config.name ?? '';
  const host = gpuCount === 0 ? 'no GPUs' : `${gpuCount} GPU${gpuCount === 1 ? '' : 's'} (id${gpus.length === 1 ? '' : 's'} ${gpus.join(', ')})`;

  const preferred = backendRecord(config.backend)?.preferredInstanceGroups ?? [];
  if (!config.instance_group?.length) {
    const group: ModelInstanceGroup = { name };
    // The backend's preferred groups, the first that applies (a KIND_GPU one only on a host with GPUs).
    const pg = preferred.find((p) => p.kind !== 'KIND_GPU' || gpus.length > 0);
    if (pg) {
      // KIND_GPU: the preferred GPUs the host has; KIND_AUTO: the preferred GPUs as they are.
      const listed = pg.kind === 'KIND_GPU' ? (pg.gpus ?? []).filter((g) => gpus.includes(g)) : pg.kind === 'KIND_AUTO' ? [...(pg.gpus ?? [])] : [];
      if (listed.length) group.gpus = listed;
      group.kind = pg.kind;
      if (pg.count > 0) group.count = pg.count;
    }
    config.instance_group = [group];
    steps?.push(
      step(
        'instance_group',
        'add',
        ['instance_group', 0],
        pg
          ? `no instance_group: Triton creates one named after the model, of the ${config.backend} backend's preferred kind ${pg.kind}`
          : `no instance_group: Triton creates one named after the model`,
        { ...group },
      ),
    );
  }
  config.instance_group.forEach((group: ModelInstanceGroup, i: number) => {
    const at = ['instance_group', i];
    if (!group.name) {
      group.name = `${name}_${i}`;
      steps?.push(step('instance_group', 'set', [...at, 'name'], `an unnamed instance group is named <model>_<index>`, group.name));
    }
    if ((group.kind ?? 'KIND_AUTO') === 'KIND_AUTO') {
      const listed = group.gpus ?? [];
      const missing = listed.find((g) => !gpus.includes(g));
      group.kind = gpus.length === 0 || missing !== undefined ? 'KIND_CPU' : 'KIND_GPU';
      const why =
        gpus.length === 0
          ? `KIND_AUTO on a host with no GPUs (resolve --gpus N for a GPU host) is KIND_CPU`
          : missing !== undefined
            ? `KIND_AUTO listing GPU ${missing}, which a host with ${host} lacks, is KIND_CPU`
            : `KIND_AUTO on a host with ${host} is KIND_GPU`;
      steps?.push(step('instance_group', 'set', [...at, 'kind'], why, group.kind));
    }
    const pgCount = preferred.find((p) => p.kind === group.kind && p.count > 0)?.count;
    if ((group.count ?? 0) < 1 && pgCount !== undefined) {
      group.count = pgCount;
      steps?.push(step('instance_group', 'set', [...at, 'count'], `the ${config.backend} backend prefers ${pgCount} instances of ${group.kind}`, pgCount));
    }
    if ((group.count ?? 0) < 1) {
      const two = group.kind === 'KIND_CPU' && defaultCpuInstances(config) === 2;
      group.count = two ? 2 : 1;
      steps?.push(
        step(
          'instance_group',
          'set',
          [...at, 'count'],
          two ? `a KIND_CPU group of the ${config.backend} backend defaults to 2 instances` : 'an instance group defaults to 1 instance',
          group.count,
        ),
      );
    }
    if (group.kind === 'KIND_GPU' && !group.gpus?.length) {
      group.gpus = [...gpus];
      steps?.push(
        step(
          'instance_group',
          'set',
          [...at, 'gpus'],
          gpus.length
            ? `a KIND_GPU group without gpus runs on every GPU of a host with ${host}`
            : 'a KIND_GPU group without gpus runs on every GPU, and this host has none',
          group.gpus,
        ),
      );
    }
  });
}

/** Where a group's instances run on the GPUs, after core's normalization: `group` is -1 for the group core adds. */
export interface GpuPlacement {
  group: number;
  instances: number;
  gpus: number[];
}

/**
 * The GPU instances of a config on a host with `gpuCount` GPUs, from NormalizeInstanceGroup above:
 * `instances` copies on each listed GPU (ids the host lacks hold none); KIND_CPU and KIND_MODEL
 * groups take no GPU memory.
 */
export function gpuPlacements(config: ModelConfig, gpuCount: number): GpuPlacement[] {
  const added = !config.instance_group?.length;
  const groups = normalizedGroups(config, gpuCount);
  return groups.flatMap((g, i) => {
    if (g.kind !== 'KIND_GPU') return [];
    const gpus = (g.gpus ?? []).filter((id) => id >= 0 && id < gpuCount);
    return gpus.length ? [{ group: added ? -1 : i, instances: Number(g.count), gpus }] : [];
  });
}

/** How many instances of the config run on the CPU (KIND_CPU groups after normalization), each a copy of the weights in host memory. */
export function cpuInstances(config: ModelConfig, gpuCount: number): number {
  return normalizedGroups(config, gpuCount).reduce((n, g) => n + (g.kind === 'KIND_CPU' ? Number(g.count ?? 1) : 0), 0);
}

/** The instance groups after normalization, from the only fields it reads (so a large config is not copied). */
function normalizedGroups(config: ModelConfig, gpuCount: number): ModelInstanceGroup[] {
  // Shallow copies are enough (normalizeGroupsOf only assigns), and much cheaper than a deep clone per model.
  const own: ModelConfig = {
    name: config.name,
    backend: config.backend,
    ...(config.instance_group ? { instance_group: config.instance_group.map((g) => ({ ...g })) } : {}),
  };
  normalizeGroupsOf(own, gpuCount);
  return own.instance_group ?? [];
}

/** Whether the config's instances run on GPUs, on CPUs (or where the model places them), or both. */
export function instanceKinds(config: ModelConfig, gpuCount: number): { gpu: boolean; cpu: boolean } {
  const groups = normalizedGroups(config, gpuCount);
  return { gpu: groups.some((g) => g.kind === 'KIND_GPU'), cpu: groups.some((g) => g.kind !== 'KIND_GPU') };
}

/**
 * ValidateInstanceGroup's rows (core src/model_config_utils.cc) that depend on the host's GPUs or kinds,
 * run on the normalized config. Returns the first problem, as core does.
 */
export function instanceGroupProblem(config: ModelConfig, gpuCount: number): ResolveProblem | undefined {
  if (config.ensemble_scheduling) return undefined;
  const gpus = supportedGpus(gpuCount);
  const model = config.name ?? '';
  for (const [i, group] of (config.instance_group ?? []).entries()) {
    const g = group.name ?? '';
    const listed = group.gpus ?? [];
    const path = ['instance_group', i];
    if (group.kind === 'KIND_MODEL' && listed.length) {
      return {
        stage: 'instance_group',
        path,
        message: `instance group ${g} of model ${model} has kind KIND_MODEL but specifies one or more GPUs`,
        fix: 'remove gpus from the KIND_MODEL group: the model places itself',
      };
    }
    if (group.kind === 'KIND_GPU') {
      if (!listed.length) {
        return {
          stage: 'instance_group',
          path,
          message: `instance group ${g} of model ${model} has kind KIND_GPU but no GPUs are available`,
          fix: 'this resolves for a host without GPUs: pass --gpus N to resolve for a host with N GPUs, or use kind: KIND_CPU (or KIND_AUTO) to run on CPU',
        };
      }
      const bad = listed.find((id) => !gpus.includes(id));
      if (bad !== undefined) {
        return {
          stage: 'instance_group',
          path: [...path, 'gpus', listed.indexOf(bad)],
          message: `instance group ${g} of model ${model} specifies invalid or unsupported gpu id ${bad}. GPUs with at least the minimum required CUDA compute compatibility of ${MIN_COMPUTE_CAPABILITY_TEXT} are: ${gpus.join(', ')}`,
          fix:
            gpuCount === 0
              ? `this resolves for a host without GPUs: pass --gpus N for a host with N GPUs`
              : `list only GPU ids below ${gpuCount} (the host has ${gpuCount}), or resolve with a larger --gpus`,
        };
      }
    }
    if (group.kind === 'KIND_CPU' && listed.length) {
      return {
        stage: 'instance_group',
        path,
        message: `instance group ${g} of model ${model} has kind KIND_CPU but specifies one or more GPUs`,
        fix:
          gpuCount === 0 || listed.some((id) => !gpus.includes(id))
            ? 'a KIND_AUTO group that lists a GPU the host lacks becomes KIND_CPU and keeps its gpus: list only GPUs the host has (resolve --gpus N), or remove gpus'
            : 'remove gpus from the KIND_CPU group, or make it KIND_GPU',
      };
    }
  }
  return undefined;
}

function supportedGpus(gpuCount: number): number[] {
  return Array.from({ length: Math.max(0, Math.floor(gpuCount)) }, (_, i) => i);
}

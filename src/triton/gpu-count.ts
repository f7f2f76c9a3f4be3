// How many GPUs the serving host has, when the user does not say (--gpus, gpu.count): one fact that
// lint, resolve and the workspace's effective config all read, so they never disagree on a config.
// Without a count, a GPU id a config lists is taken at its word up to what any one server holds: the
// user wrote it for their servers, and the default of one GPU is no fact of them.
import type { ModelConfig } from '../config/model-config.js';
import { maxOf } from '../util/arrays.js';

/** GPUs assumed on a host when the caller does not say and the config lists none. */
export const DEFAULT_GPUS = 1;

/** The most GPUs one server has (an HGX or DGX node: 8, a DGX-2: 16). */
export const MAX_GPUS_PER_SERVER = 16;

/**
 * The host's GPU count: `given` when the user said; otherwise DEFAULT_GPUS, or as many as the highest
 * GPU id the config's instance groups list (below MAX_GPUS_PER_SERVER) needs.
 */
export function hostGpuCount(config: ModelConfig, given: number | undefined): number {
  if (given !== undefined) return given;
  let count = DEFAULT_GPUS;
  for (const g of config.instance_group ?? []) {
    for (const id of g.gpus ?? []) if (id >= count && id < MAX_GPUS_PER_SERVER) count = id + 1;
  }
  return count;
}

/**
 * How many GPUs a server needs for a config's instance groups as written, so that core's
 * ValidateInstanceGroup (core src/model_config_utils.cc) accepts them: ids 0..n-1 must exist for the
 * highest GPU id listed; a KIND_GPU group listing none needs one. KIND_CPU and KIND_MODEL groups need
 * none, and neither does a KIND_AUTO group listing none (it runs on the CPU where there is no GPU).
 */
export function requiredGpus(config: ModelConfig): { count: number; group?: string } {
  let count = 0;
  let group: string | undefined;
  (config.instance_group ?? []).forEach((g, i) => {
    const kind = g.kind ?? 'KIND_AUTO';
    if (kind === 'KIND_CPU' || kind === 'KIND_MODEL') return;
    const listed = (g.gpus ?? []).filter((id) => id >= 0);
    const need = listed.length ? maxOf(listed) + 1 : kind === 'KIND_GPU' ? 1 : 0;
    if (need > count) {
      count = need;
      group = g.name || `${config.name ?? ''}_${i}`;
    }
  });
  return group === undefined ? { count } : { count, group };
}

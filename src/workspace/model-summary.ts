// What the repository-wide facts need of one model directory (which GPUs its instances take and
// how much, which models an ensemble runs): a few fields, where the model's config and signature
// are large. Made by the workspace from the model's files; lint --cache keeps it with the identities
// of every path it was made from, so linting one config of a large repository need not read the others.
import type { ModelConfig } from '../config/model-config.js';

export interface ModelSummary {
  /** Triton would take the directory as a model (repo/model-dir.ts looksLikeModelDir). */
  readonly model: boolean;
  /**
   * The config's fields the GPU estimate reads (triton/gpu-memory.ts gpuLoads: the platform, and
   * the instance groups as core normalizes them); absent when its config.pbtxt does not parse.
   */
  readonly placement?: Pick<ModelConfig, 'name' | 'backend' | 'platform' | 'instance_group'>;
  /** Bytes of one copy of the weights (gpu-memory.ts weightBytes); absent when unknown. */
  readonly weightBytes?: number;
  /** For an ensemble, the models its steps run, by name. */
  readonly steps?: readonly string[];
}

/** The summary's part of a config: only these fields are read from it. */
export function placementOf(config: ModelConfig): NonNullable<ModelSummary['placement']> {
  const { name, backend, platform, instance_group } = config;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(backend !== undefined ? { backend } : {}),
    ...(platform !== undefined ? { platform } : {}),
    ...(instance_group !== undefined ? { instance_group } : {}),
  };
}

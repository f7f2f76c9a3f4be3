// What each GPU of a server holds: every model's instances placed where Triton places them (core
// NormalizeInstanceGroup, gpuPlacements), each a full copy of the weights (each ONNX Runtime
// instance is its own session) plus a per-instance overhead for activations, workspace and the
// allocator arena. An estimate: Triton itself only finds out at load, as CUDA out of memory.
import type { ModelConfig } from '../config/model-config.js';
import { gpuPlacements } from './normalize.js';
import { ORT_ACCELERATORS } from './backends/onnxruntime/accelerators.js';

/** What the estimate needs of a model. */
export interface WeighedModel {
  /** The model directory: identifies the model. */
  dir: string;
  config: ModelConfig;
  /** Bytes of one copy of the weights; undefined when unknown (counted at the overhead only). */
  weightBytes: number | undefined;
}

/** One model's instances on one GPU. */
export interface GpuShare {
  dir: string;
  /** Index in instance_group; -1 for the group Triton adds when there is none. */
  group: number;
  instances: number;
  bytesPerInstance: number;
  weightBytes: number | undefined;
}

/** GPUs with the same shares: one load, said once for all of them ("GPUs 0-3"). */
export interface GpuLoad {
  gpus: number[];
  shares: GpuShare[];
  totalBytes: number;
}

export function gpuLoads(models: readonly WeighedModel[], gpuCount: number, overheadBytes: number): GpuLoad[] {
  if (gpuCount <= 0) return [];
  const perGpu: GpuShare[][] = Array.from({ length: gpuCount }, () => []);
  for (const m of models) {
    if (m.config.platform === 'ensemble') continue;
    const bytesPerInstance = (m.weightBytes ?? 0) + overheadBytes;
    for (const { group, instances, gpus } of gpuPlacements(m.config, gpuCount)) {
      for (const id of gpus) perGpu[id]!.push({ dir: m.dir, group, instances, bytesPerInstance, weightBytes: m.weightBytes });
    }
  }
  const byShares = new Map<string, GpuLoad>();
  perGpu.forEach((shares, id) => {
    if (!shares.length) return;
    const key = shares.map((s) => `${s.dir}\u0000${s.group}\u0000${s.instances}`).join('\u0001');
    const known = byShares.get(key);
    if (known) known.gpus.push(id);
    else byShares.set(key, { gpus: [id], shares, totalBytes: shares.reduce((n, s) => n + s.instances * s.bytesPerInstance, 0) });
  });
  return [...byShares.values()];
}

/**
 * Bytes of one copy of a model's weights: the ONNX initializers (inline and external), halved when
 * TensorRT builds an FP16/BF16 engine from FP32 weights; else the model file's size.
 */
export function weightBytes(config: ModelConfig, onnxInitializerBytes: number | undefined, fileBytes: number | undefined): number | undefined {
  if (onnxInitializerBytes !== undefined) return halvesUnderTensorRt(config) ? onnxInitializerBytes / 2 : onnxInitializerBytes;
  return fileBytes;
}

function halvesUnderTensorRt(config: ModelConfig): boolean {
  return (config.optimization?.execution_accelerators?.gpu_execution_accelerator ?? []).some(
    (a) => a.name === ORT_ACCELERATORS.tensorrt && (a.parameters?.precision_mode === 'FP16' || a.parameters?.precision_mode === 'BF16'),
  );
}

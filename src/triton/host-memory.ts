// What a server holds in host memory at the least: each CPU instance a full copy of its model's
// weights (each ONNX Runtime instance is its own session, as on a GPU: gpu-memory.ts), and, where it
// has GPUs, the pinned memory pool (--pinned-memory-pool-byte-size, 256 MiB by default: server
// command_line_parser.h pinned_memory_pool_byte_size_). A lower bound: the frameworks' own arenas,
// the Python stubs and the request buffers come on top.
import { cpuInstances } from './normalize.js';
import type { WeighedModel } from './gpu-memory.js';

export interface HostShare {
  dir: string;
  instances: number;
  weightBytes: number;
}

/** The models' CPU instances and their weight copies, largest first. */
export function hostShares(models: readonly WeighedModel[], gpuCount: number): HostShare[] {
  const out: HostShare[] = [];
  for (const m of models) {
    if (m.config.platform === 'ensemble' || m.weightBytes === undefined) continue;
    const instances = cpuInstances(m.config, gpuCount);
    if (instances > 0) out.push({ dir: m.dir, instances, weightBytes: m.weightBytes });
  }
  return out.sort((a, b) => b.instances * b.weightBytes - a.instances * a.weightBytes);
}

/** A memory limit above a lower bound: a quarter more for the backends' arenas and request buffers, in whole GiB. */
export const limitAboveGiB = (boundBytes: number): number => Math.ceil((boundBytes * 1.25) / 2 ** 30);

// A container's memory limit must hold what its server keeps in host memory: every CPU instance is a
// full copy of its model's weights, and a server with GPUs pins its pinned-memory pool
// (triton/host-memory.ts). Past the limit the kernel kills the server while it loads (OOMKilled), and
// the pod restarts into the same end. A lower bound, so a limit below it is certainly too small.
import { basename } from 'node:path';
import { defineDeploymentRule } from '../../rule.js';
import { formatBytes } from '../../units.js';
import { limitAboveGiB } from '../../../triton/host-memory.js';

const messages = {
  belowNeed:
    "the container's memory limit {{limit}} is below the {{need}} its server holds at the least ({{detail}}), so the kernel kills it while the models load (OOMKilled) and the pod restarts into the same end; raise resources.limits.memory to at least {{suggest}}, or run fewer CPU instances",
} as const;

export const deploymentMemory = defineDeploymentRule({
  meta: {
    id: 'deployment-memory',
    category: 'performance',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A deployment's memory limit must hold its CPU instances' weights and the pinned memory pool",
    prevents: [],
    messages,
  },
  check(ctx) {
    const server = ctx.deployment.server;
    const limit = server.memoryLimit;
    if (!limit) return;
    const gpuCount = server.gpus?.count ?? ctx.settings.gpu.count;
    const shares = ctx.repository.hostShares(
      gpuCount,
      ctx.loaded.map((m) => m.dir),
    );
    const pinned = gpuCount > 0 ? server.commandLine.pinnedMemoryPoolBytes : 0;
    const weights = shares.reduce((n, s) => n + s.instances * s.weightBytes, 0);
    const need = weights + pinned;
    if (need <= limit.value) return;
    const parts = shares.slice(0, 3).map((s) => `${basename(s.dir)}: ${s.instances} x ${formatBytes(s.weightBytes)}`);
    if (shares.length > 3) parts.push(`${shares.length - 3} more`);
    if (pinned) parts.push(`pinned pool ${formatBytes(pinned)}`);
    // The arenas and buffers come on top: what tritonc deploy writes for the same bound.
    const suggest = `${limitAboveGiB(need)}Gi`;
    ctx.report({ at: limit.at, messageId: 'belowNeed', data: { limit: formatBytes(limit.value), need: formatBytes(need), detail: parts.join(', '), suggest } });
  },
});

// Estimated GPU memory per GPU across the repository (the workspace's per-GPU loads, see
// triton/gpu-memory.ts): every model's instances on each GPU, times (weight bytes + a per-instance
// overhead). Each ONNX Runtime instance is its own session with its own copy of the weights, so
// instance counts multiply memory. Triton only finds out at load time, as a CUDA out-of-memory error
// from whichever model loads last.
import { basename } from 'node:path';
import { z } from 'zod';
import type { GpuLoad } from '../../../triton/gpu-memory.js';
import type { PathSegment, Severity } from '../../../diagnostics.js';
import type { GpuShare } from '../../../triton/gpu-memory.js';
import { defineRepositoryRule, type ModelFacts } from '../../rule.js';
import { firstWritten } from '../../written-path.js';
import { formatBytes, parseSize } from '../../units.js';

const options = z.strictObject({
  instanceOverhead: z
    .union([z.string(), z.number().nonnegative()])
    .refine((v) => parseSize(v) !== undefined, { message: 'expected a size such as "256MiB"' })
    .default('256MiB')
    .describe('Memory each instance needs besides its weights: activations, workspace, allocator arena (default 256MiB).'),
  warnAt: z.number().gt(0).lte(1).default(0.9).describe('Warn when the estimate passes this fraction of the budget (default 0.9).'),
});

type Options = z.infer<typeof options>;

/** One model's instances on one GPU, with the model they belong to. */
type Placement = GpuShare & { model: ModelFacts };

export const instanceMemory = defineRepositoryRule<Options>({
  meta: {
    id: 'instance-memory',
    category: 'performance',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "The repository's estimated memory on each GPU (instances x (weights + overhead)) must fit the GPU",
    prevents: [
      'onnx runtime error 6: Exception during initialization: <...>/bfc_arena.cc:<line> void* onnxruntime::BFCArena::AllocateRawInternal(<...>) Failed to allocate memory for requested buffer of size <n>',
    ],
    // One message per wording: the GPU of a one-GPU server or each of several GPUs, and with or
    // without models whose weights are not counted.
    messages: {
      estimate:
        'estimated GPU memory: {{total}} on the GPU ({{parts}}, as instances x (weights + per-instance overhead)); set a budget to check it (--gpu-memory 24GiB, or "gpu": { "preset": "A10G" } in tritonc.config.json)',
      estimateUnsized:
        'estimated GPU memory: {{total}} on the GPU ({{parts}}, as instances x (weights + per-instance overhead)) without the weights of {{unsized}}, which their backends load themselves (counted at the per-instance overhead only); set a budget to check it (--gpu-memory 24GiB, or "gpu": { "preset": "A10G" } in tritonc.config.json)',
      estimatePerGpu:
        'estimated GPU memory: {{total}} on each GPU in [{{gpuIds}}] ({{parts}}, as instances x (weights + per-instance overhead)); set a budget to check it (--gpu-memory 24GiB, or "gpu": { "preset": "A10G" } in tritonc.config.json)',
      estimatePerGpuUnsized:
        'estimated GPU memory: {{total}} on each GPU in [{{gpuIds}}] ({{parts}}, as instances x (weights + per-instance overhead)) without the weights of {{unsized}}, which their backends load themselves (counted at the per-instance overhead only); set a budget to check it (--gpu-memory 24GiB, or "gpu": { "preset": "A10G" } in tritonc.config.json)',
      overBudget:
        'estimated memory on the GPU: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance)). Triton will fail to load the models that come last (CUDA out of memory). Lower instance_group count, spread models over GPUs with gpus: [...], or serve on a larger GPU',
      overBudgetUnknownWeights:
        'estimated memory on the GPU: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance); {{unknown}} without readable weights counted at the overhead only). Triton will fail to load the models that come last (CUDA out of memory). Lower instance_group count, spread models over GPUs with gpus: [...], or serve on a larger GPU',
      overBudgetPerGpu:
        'estimated memory on each GPU in [{{gpuIds}}]: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance)). Triton will fail to load the models that come last (CUDA out of memory). Lower instance_group count, spread models over GPUs with gpus: [...], or serve on a larger GPU',
      overBudgetPerGpuUnknownWeights:
        'estimated memory on each GPU in [{{gpuIds}}]: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance); {{unknown}} without readable weights counted at the overhead only). Triton will fail to load the models that come last (CUDA out of memory). Lower instance_group count, spread models over GPUs with gpus: [...], or serve on a larger GPU',
      nearBudget:
        'estimated memory on the GPU: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance)). Little room is left for activations at large batch sizes and the CUDA context; lower instance counts or check with perf_analyzer at max_batch_size',
      nearBudgetUnknownWeights:
        'estimated memory on the GPU: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance); {{unknown}} without readable weights counted at the overhead only). Little room is left for activations at large batch sizes and the CUDA context; lower instance counts or check with perf_analyzer at max_batch_size',
      nearBudgetPerGpu:
        'estimated memory on each GPU in [{{gpuIds}}]: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance)). Little room is left for activations at large batch sizes and the CUDA context; lower instance counts or check with perf_analyzer at max_batch_size',
      nearBudgetPerGpuUnknownWeights:
        'estimated memory on each GPU in [{{gpuIds}}]: {{total}} of {{budget}} ({{percent}}%) = {{parts}} (instances x (weights + {{overhead}} per instance); {{unknown}} without readable weights counted at the overhead only). Little room is left for activations at large batch sizes and the CUDA context; lower instance counts or check with perf_analyzer at max_batch_size',
    },
    options,
  },
  check(ctx) {
    const gpuCount = ctx.settings.gpu.count;
    const overhead = parseSize(ctx.options.instanceOverhead) ?? 0;
    const byDir = new Map(ctx.models.map((m) => [m.dir, m]));
    const budget = ctx.settings.gpu.memoryBytes;
    const loads = ctx.repository.gpuLoads(gpuCount, overhead);
    if (budget === undefined) {
      // Nothing to check against: one short line per run, on the first config linted (a place that
      // does not move as the estimate changes), about the busiest GPU.
      const busiest = [...loads].sort((a, b) => b.totalBytes - a.totalBytes)[0];
      // A stable place: the first config being linted that exists (a model without one is linted at the path Triton reads).
      const first = ctx.models.find((m) => ctx.isTarget(m) && m.configFile) ?? ctx.models.find((m) => ctx.isTarget(m));
      if (busiest && first) {
        const unsized = unsizedNames(busiest);
        const shared = { total: formatBytes(busiest.totalBytes), parts: sharesText(busiest, overhead), gpus: busiest.gpus, totalBytes: busiest.totalBytes };
        const path = firstWritten(first.config, [['name']]);
        const perGpu = gpuCount !== 1;
        const gpuIds = gpuIdsText(busiest.gpus);
        if (unsized) {
          if (perGpu) ctx.report(first, { path, severity: 'info', messageId: 'estimatePerGpuUnsized', data: { ...shared, gpuIds, unsized } });
          else ctx.report(first, { path, severity: 'info', messageId: 'estimateUnsized', data: { ...shared, unsized } });
        } else if (perGpu) ctx.report(first, { path, severity: 'info', messageId: 'estimatePerGpu', data: { ...shared, gpuIds } });
        else ctx.report(first, { path, severity: 'info', messageId: 'estimate', data: shared });
      }
      return;
    }
    for (const load of loads) {
      const placements: Placement[] = load.shares.flatMap((s) => (byDir.has(s.dir) ? [{ ...s, model: byDir.get(s.dir)! }] : []));
      const total = load.totalBytes;
      const severity: Severity | undefined = total > budget ? 'error' : total > budget * ctx.options.warnAt ? 'warning' : undefined;
      if (!severity) continue;
      // Attach to the biggest contributor among the configs being linted.
      const target = [...placements].sort((a, b) => b.instances * b.bytesPerInstance - a.instances * a.bytesPerInstance).find((p) => ctx.isTarget(p.model));
      if (!target) continue;
      ctx.report(target.model, {
        path: pointAt(target),
        severity,
        ...estimateReport(load.gpus, gpuCount, placements, total, budget, ctx.settings.gpu.memorySource, overhead),
      });
    }
  },
});

/**
 * What the estimate is made of, the largest shares first: each model's instances times its weights
 * plus the per-instance overhead, so a small model's 512 MiB reads as 2 x (a few MiB + 256 MiB); weights
 * that cannot be sized read as '?'.
 */
function sharesText(load: GpuLoad, overhead: number): string {
  const sorted = [...load.shares].sort((a, b) => b.instances * b.bytesPerInstance - a.instances * a.bytesPerInstance);
  return listText(
    sorted.map((s) => `${basename(s.dir)}: ${s.instances} x (${s.weightBytes === undefined ? '?' : formatBytes(s.weightBytes)} + ${formatBytes(overhead)})`),
    2,
  );
}

/** The models on a GPU whose weights tritonc cannot size (an LLM's engine or checkpoint, a Python model's own loading); '' when none. */
function unsizedNames(load: GpuLoad): string {
  return listText([...new Set(load.shares.filter((s) => s.weightBytes === undefined).map((s) => basename(s.dir)))], 3);
}

/** The first `max` items, and how many more there are. */
const listText = (items: string[], max: number): string => items.slice(0, max).join(', ') + (items.length > max ? `, and ${items.length - max} more` : '');

function pointAt(p: Placement): PathSegment[] {
  if (p.group < 0) return firstWritten(p.model.config, [['name']]);
  return firstWritten(
    p.model.config,
    [
      ['instance_group', p.group, 'count'],
      ['instance_group', p.group, 'kind'],
    ],
    ['instance_group', p.group],
  );
}

/** GPU ids, a run of them as a range: "0-2", "0, 2", "1". */
function gpuIdsText(ids: number[]): string {
  const contiguous = ids.length > 1 && ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1);
  return contiguous ? `${ids[0]}-${ids[ids.length - 1]}` : ids.join(', ');
}

function estimateReport(ids: number[], gpuCount: number, placements: Placement[], total: number, budget: number, source: string | undefined, overhead: number) {
  const sorted = [...placements].sort((a, b) => b.instances * b.bytesPerInstance - a.instances * a.bytesPerInstance);
  const unknown = placements.filter((p) => p.weightBytes === undefined).length;
  // Name a preset ("A10G"); a size the user wrote is the number already shown.
  const budgetText = `${formatBytes(budget)}${source && parseSize(source) === undefined ? ` (${source})` : ''}`;
  const data = {
    total: formatBytes(total),
    parts: listText(
      sorted.map((p) => `${p.model.name}: ${p.instances} x ${formatBytes(p.bytesPerInstance)}`),
      5,
    ),
    overhead: formatBytes(overhead),
    budget: budgetText,
    percent: Math.round((total / budget) * 100),
    gpus: ids,
    totalBytes: total,
    budgetBytes: budget,
    placements: placements.map((p) => ({ model: p.model.name, instances: p.instances, bytesPerInstance: p.bytesPerInstance, weightBytes: p.weightBytes })),
  };
  const gpuIds = gpuIdsText(ids);
  const perGpu = gpuCount !== 1;
  if (total > budget) {
    if (perGpu)
      return unknown
        ? { messageId: 'overBudgetPerGpuUnknownWeights' as const, data: { ...data, gpuIds, unknown } }
        : { messageId: 'overBudgetPerGpu' as const, data: { ...data, gpuIds } };
    return unknown ? { messageId: 'overBudgetUnknownWeights' as const, data: { ...data, unknown } } : { messageId: 'overBudget' as const, data };
  }
  if (perGpu)
    return unknown
      ? { messageId: 'nearBudgetPerGpuUnknownWeights' as const, data: { ...data, gpuIds, unknown } }
      : { messageId: 'nearBudgetPerGpu' as const, data: { ...data, gpuIds } };
  return unknown ? { messageId: 'nearBudgetUnknownWeights' as const, data: { ...data, unknown } } : { messageId: 'nearBudget' as const, data };
}

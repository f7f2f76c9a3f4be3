// Estimated GPU memory per GPU across the repository: every model's instances placed on each GPU,
// times (weight bytes + a per-instance overhead). Each ONNX Runtime instance is its own session with
// its own copy of the weights, so instance counts multiply memory. Triton only finds out at load
// time, as a CUDA out-of-memory error from whichever model loads last.
import { gpuPlacements } from '../../../triton/normalize.js';
import { z } from 'zod';
import type { PathSegment, Severity } from '../../../diagnostics.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { defineRepositoryRule, type RepositoryModel, type RuleFiles } from '../../rule.js';
import { firstWritten } from '../../value-path.js';
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

/** One model's instances on one GPU. */
interface Placement {
  model: RepositoryModel;
  /** Index in instance_group; -1 for the group Triton adds when there is none. */
  group: number;
  instances: number;
  bytesPerInstance: number;
  weightBytes: number | undefined;
}

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
    messages: {
      estimate:
        'estimated memory on {{where}}: {{total}} = {{parts}}. Set a budget to check it: "gpu": { "preset": "A10G" } or { "memory": "24GiB" } in tritonc.config.json, or --gpu-memory',
      overBudget:
        'estimated memory on {{where}}: {{total}} of {{budget}} ({{percent}}%) = {{parts}}. Triton will fail to load the models that come last (CUDA out of memory). Lower instance_group count, spread models over GPUs with gpus: [...], or serve on a larger GPU',
      nearBudget:
        'estimated memory on {{where}}: {{total}} of {{budget}} ({{percent}}%) = {{parts}}. Little room is left for activations at large batch sizes and the CUDA context; lower instance counts or check with perf_analyzer at max_batch_size',
    },
    options,
  },
  check(ctx) {
    const gpuCount = ctx.settings.gpu.count;
    if (gpuCount <= 0) return;
    const overhead = parseSize(ctx.options.instanceOverhead) ?? 0;
    const perGpu: Placement[][] = Array.from({ length: gpuCount }, () => []);
    for (const model of ctx.models) {
      const config = model.configFile === undefined ? {} : model.config;
      if (!config || config.platform === 'ensemble') continue;
      const weightBytes = weightsOf(model, config, ctx.files);
      const bytesPerInstance = (weightBytes ?? 0) + overhead;
      for (const { group, instances, gpus } of gpuPlacements(config, gpuCount)) {
        for (const id of gpus) perGpu[id]!.push({ model, group, instances, bytesPerInstance, weightBytes });
      }
    }

    // GPUs with the same placements get one finding ("GPUs 0-3"), not one each.
    const byLoad = new Map<string, number[]>();
    perGpu.forEach((placements, id) => {
      if (!placements.length) return;
      const key = placements.map((p) => `${p.model.dir}\u0000${p.group}\u0000${p.instances}`).join('\u0001');
      byLoad.set(key, [...(byLoad.get(key) ?? []), id]);
    });
    const budget = ctx.settings.gpu.memoryBytes;
    for (const ids of byLoad.values()) {
      const placements = perGpu[ids[0]!]!;
      const total = placements.reduce((n, p) => n + p.instances * p.bytesPerInstance, 0);
      const severity: Severity | undefined = budget === undefined ? 'info' : total > budget ? 'error' : total > budget * ctx.options.warnAt ? 'warning' : undefined;
      if (!severity) continue;
      // Attach to the biggest contributor among the configs being linted.
      const target = [...placements].sort((a, b) => b.instances * b.bytesPerInstance - a.instances * a.bytesPerInstance).find((p) => p.model.isTarget);
      if (!target) continue;
      ctx.report(target.model, {
        path: pointAt(target),
        severity,
        ...estimateReport(ids, gpuCount, placements, total, budget, ctx.settings.gpu.memorySource, overhead),
      });
    }
  },
});

/** Weight bytes of one instance: ONNX initializers (inline and external), else the model file's size. */
function weightsOf(model: RepositoryModel, config: ModelConfig, files: RuleFiles): number | undefined {
  const sig = model.signature();
  if (sig) return halvesUnderTensorRt(config) ? sig.initializers.bytes / 2 : sig.initializers.bytes;
  const file = model.modelFile();
  return file ? files.size(file) : undefined;
}

/** TensorRT building an FP16/BF16 engine from FP32 weights stores them at half the size. */
function halvesUnderTensorRt(config: ModelConfig): boolean {
  return (config.optimization?.execution_accelerators?.gpu_execution_accelerator ?? []).some(
    (a) => a.name === 'tensorrt' && (a.parameters?.precision_mode === 'FP16' || a.parameters?.precision_mode === 'BF16'),
  );
}

function pointAt(p: Placement): PathSegment[] {
  if (p.group < 0) return firstWritten(p.model.config, [['name']]);
  return firstWritten(p.model.config, [['instance_group', p.group, 'count'], ['instance_group', p.group, 'kind']], ['instance_group', p.group]);
}

function gpuLabel(ids: number[], gpuCount: number): string {
  if (ids.length === 1) return gpuCount === 1 ? 'the GPU' : `GPU ${ids[0]}`;
  const contiguous = ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1);
  return `each of GPUs ${contiguous ? `${ids[0]}-${ids[ids.length - 1]}` : ids.join(', ')}`;
}

function estimateReport(ids: number[], gpuCount: number, placements: Placement[], total: number, budget: number | undefined, source: string | undefined, overhead: number) {
  const sorted = [...placements].sort((a, b) => b.instances * b.bytesPerInstance - a.instances * a.bytesPerInstance);
  const shown = sorted.slice(0, 5).map((p) => `${p.model.name}: ${p.instances} instance${p.instances === 1 ? '' : 's'} x ${formatBytes(p.bytesPerInstance)}`);
  const more = sorted.length > 5 ? `, and ${sorted.length - 5} more` : '';
  const unknown = placements.filter((p) => p.weightBytes === undefined).length;
  const data = {
    where: gpuLabel(ids, gpuCount),
    total: formatBytes(total),
    parts: `${shown.join(', ')}${more} (weights + ${formatBytes(overhead)} per instance${unknown ? `; ${unknown} without readable weights counted at the overhead only` : ''})`,
    gpus: ids,
    totalBytes: total,
    budgetBytes: budget,
    placements: placements.map((p) => ({ model: p.model.name, instances: p.instances, bytesPerInstance: p.bytesPerInstance, weightBytes: p.weightBytes })),
  };
  if (budget === undefined) return { messageId: 'estimate' as const, data };
  // Name a preset ("A10G"); a size the user wrote is the number already shown.
  const budgetText = `${formatBytes(budget)}${source && parseSize(source) === undefined ? ` (${source})` : ''}`;
  return { messageId: total > budget ? ('overBudget' as const) : ('nearBudget' as const), data: { ...data, budget: budgetText, percent: Math.round((total / budget) * 100) } };
}

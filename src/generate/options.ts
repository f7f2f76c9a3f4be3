// The choices `tritonc generate` makes beyond what the model says: batching, scheduling, instances,
// acceleration. Parsed from flags (or from a generated file's header) and validated with zod.
import { z } from 'zod';
import { parseDuration } from '../util/duration.js';
import { ORT_ACCELERATORS } from '../triton/backends/onnxruntime/accelerators.js';
import { parseTarget, TargetError, targetLabel, type TritonTarget } from '../triton/releases/target.js';

export const PRECISIONS = ['FP32', 'FP16', 'BF16', 'INT8'] as const;
export type Precision = (typeof PRECISIONS)[number];

export type Accelerator = { name: 'tensorrt'; precision: Precision } | { name: 'cuda' } | { name: 'openvino' };

export interface GenerateOptions {
  /** The model's name; defaults to its directory's name. */
  name?: string;
  /** Default: defaultMaxBatchSize for a batchable model, 0 otherwise. */
  maxBatchSize?: number;
  /**
   * The server's --backend-config=onnxruntime,default-max-batch-size=N: what Triton's auto-complete
   * would give a batchable model, and so generate's default (core's default: 4).
   */
  defaultMaxBatchSize?: number;
  /** Default: on when max_batch_size > 1. */
  dynamicBatching?: boolean;
  preferredBatchSize?: number[];
  maxQueueDelayMicroseconds?: number;
  /** Instances per device (per GPU for kind gpu). */
  instances?: number;
  kind?: 'gpu' | 'cpu';
  gpus?: number[];
  accelerator?: Accelerator;
  /** Write the ONNX Runtime platform (`platform: ...`) instead of its backend (`backend: ...`). */
  field?: 'backend' | 'platform';
  /** The Triton the config is for (--triton-version); unset, the newest release tritonc knows. */
  target?: TritonTarget;
}

/** --max-queue-delay in whole microseconds: `5ms`, `500us`, `0.5s`; a bare number is refused (5 could mean 5us or 5ms). */
export function parseQueueDelay(text: string): number | undefined {
  const us = parseDuration(text, 'refused');
  return us === undefined ? undefined : Math.round(us);
}

/** Prints microseconds the way a person writes them back: 5000 -> 5ms, 500 -> 500us. */
export function formatDuration(us: number): string {
  if (us >= 1_000_000 && us % 1_000_000 === 0) return `${us / 1_000_000}s`;
  if (us >= 1000 && us % 1000 === 0) return `${us / 1000}ms`;
  return `${us}us`;
}

/** Parses `tensorrt`, `tensorrt:fp16`, `cuda`, `openvino`. */
export function parseAccelerator(text: string): Accelerator | undefined {
  const [name, precision] = text.toLowerCase().split(':');
  if (name === ORT_ACCELERATORS.tensorrt || name === 'trt') {
    const p = (precision ?? 'fp32').toUpperCase();
    return (PRECISIONS as readonly string[]).includes(p) ? { name: 'tensorrt', precision: p as Precision } : undefined;
  }
  if (precision !== undefined) return undefined;
  if (name === ORT_ACCELERATORS.cuda) return { name: 'cuda' };
  if (name === ORT_ACCELERATORS.openvino) return { name: 'openvino' };
  return undefined;
}

export function formatAccelerator(a: Accelerator): string {
  return a.name === ORT_ACCELERATORS.tensorrt ? `tensorrt:${a.precision.toLowerCase()}` : a.name;
}

let schema: z.ZodType<GenerateOptions> | undefined;

/** The options' schema, made on first use (zod schemas cost a few milliseconds of every start to make). */
export function generateOptionsSchema(): z.ZodType<GenerateOptions> {
  return (schema ??= makeSchema());
}

function makeSchema(): z.ZodType<GenerateOptions> {
  const positiveInt = z.number().int().positive();
  return z
    .object({
      name: z.string().min(1).optional(),
      maxBatchSize: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional(),
      defaultMaxBatchSize: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .optional(),
      dynamicBatching: z.boolean().optional(),
      preferredBatchSize: z.array(positiveInt).min(1).optional(),
      maxQueueDelayMicroseconds: z.number().int().min(0).optional(),
      instances: positiveInt.optional(),
      kind: z.enum(['gpu', 'cpu']).optional(),
      gpus: z.array(z.number().int().min(0)).min(1).optional(),
      accelerator: z.custom<Accelerator>((v) => typeof v === 'object' && v !== null && 'name' in v).optional(),
      field: z.enum(['backend', 'platform']).optional(),
      target: z.custom<TritonTarget>((v) => typeof v === 'object' && v !== null && 'release' in v).optional(),
    })
    .strict();
}

/** The flags that reproduce these options, in a stable order (recorded in a generated file's header). */
export function optionsToFlags(o: GenerateOptions): string[] {
  const flags: string[] = [];
  if (o.name !== undefined) flags.push('--name', o.name);
  if (o.maxBatchSize !== undefined) flags.push('--max-batch-size', String(o.maxBatchSize));
  if (o.defaultMaxBatchSize !== undefined) flags.push('--backend-config', `onnxruntime,default-max-batch-size=${o.defaultMaxBatchSize}`);
  if (o.dynamicBatching === false) flags.push('--no-dynamic-batching');
  if (o.preferredBatchSize) flags.push('--preferred-batch-size', o.preferredBatchSize.join(','));
  if (o.maxQueueDelayMicroseconds !== undefined) flags.push('--max-queue-delay', formatDuration(o.maxQueueDelayMicroseconds));
  if (o.instances !== undefined) flags.push('--instances', String(o.instances));
  if (o.kind) flags.push('--kind', o.kind);
  if (o.gpus) flags.push('--gpus', o.gpus.join(','));
  if (o.accelerator) flags.push('--accelerator', formatAccelerator(o.accelerator));
  if (o.field === 'platform') flags.push('--platform');
  if (o.target) flags.push('--triton-version', targetLabel(o.target));
  return flags;
}

/** The inverse of optionsToFlags, for the flags recorded in a generated file's header. */
export function flagsToOptions(flags: readonly string[]): GenerateOptions | string {
  const o: GenerateOptions = {};
  const list = (v: string | undefined): number[] | undefined => {
    if (v === undefined || !/^\d+(,\d+)*$/.test(v)) return undefined;
    return v.split(',').map(Number);
  };
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    const value = flags[i + 1];
    const take = (): string | undefined => {
      i++;
      return value;
    };
    switch (flag) {
      case '--name':
        o.name = take();
        break;
      case '--max-batch-size':
        o.maxBatchSize = Number(take());
        break;
      case '--backend-config': {
        const m = /^(?:onnxruntime,)?default-max-batch-size=(\d+)$/.exec(take() ?? '');
        if (!m) return `unsupported --backend-config ${value ?? ''}`;
        o.defaultMaxBatchSize = Number(m[1]);
        break;
      }
      case '--no-dynamic-batching':
        o.dynamicBatching = false;
        break;
      case '--dynamic-batching':
        o.dynamicBatching = true;
        break;
      case '--preferred-batch-size':
        o.preferredBatchSize = list(take());
        break;
      case '--max-queue-delay':
        o.maxQueueDelayMicroseconds = parseQueueDelay(take() ?? '');
        break;
      case '--instances':
        o.instances = Number(take());
        break;
      case '--kind':
        o.kind = take() as 'gpu' | 'cpu';
        break;
      case '--gpus':
        o.gpus = list(take());
        break;
      case '--accelerator':
        o.accelerator = parseAccelerator(take() ?? '');
        break;
      case '--platform':
        o.field = 'platform';
        break;
      case '--triton-version':
        try {
          o.target = parseTarget(take() ?? '');
        } catch (e) {
          if (e instanceof TargetError) return `--triton-version: ${e.message}`;
          throw e;
        }
        break;
      default:
        return `unknown option ${flag}`;
    }
  }
  const checked = generateOptionsSchema().safeParse(o);
  return checked.success ? checked.data : checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

// generate's options from its command-line flags, as the CLI parsed them (yargs' types: strings,
// numbers, booleans; --backend-config as Triton's settings): each value checked, the options
// validated with the same schema as a generated file's recorded ones (options.ts).
import { ONNXRUNTIME } from '../triton/backend-records.js';
import { DEFAULT_SERVER_OPTIONS, applyServerFlags, defaultMaxBatchSize, type BackendSetting } from '../triton/server-options.js';
import type { TritonTarget } from '../triton/releases/target.js';
import { generateOptionsSchema, parseAccelerator, parseQueueDelay, type GenerateOptions } from './options.js';

/** generate's flags that choose options (the rest say what to do with the config: --write, --check, --force). */
export interface GenerateFlags {
  name?: string | undefined;
  maxBatchSize?: number | undefined;
  /** --backend-config, parsed: only ONNX Runtime's default-max-batch-size changes the config. */
  backendConfig?: readonly BackendSetting[] | undefined;
  dynamicBatching?: boolean | undefined;
  preferredBatchSize?: string | undefined;
  maxQueueDelay?: string | undefined;
  instances?: number | undefined;
  kind?: 'gpu' | 'cpu' | undefined;
  gpus?: string | undefined;
  accelerator?: string | undefined;
  platform?: boolean | undefined;
  backend?: boolean | undefined;
  /** --triton-version, parsed. */
  target?: TritonTarget | undefined;
}

/** A flag's value that is not one generate takes; the message names the flag and what it takes. */
export class GenerateFlagError extends Error {}

function intList(flag: string, v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const s = v.trim();
  if (!/^\d+(\s*,\s*\d+)*$/.test(s)) throw new GenerateFlagError(`--${flag} takes a comma-separated list of whole numbers, e.g. 8,16,32; got "${s}"`);
  return s.split(',').map((x) => Number(x.trim()));
}

/** The options the flags give, or undefined when none were given (then a file's recorded ones apply). */
export function optionsFromFlags(f: GenerateFlags): GenerateOptions | undefined {
  if (!Object.values(f).some((v) => v !== undefined)) return undefined;
  const o: GenerateOptions = {};
  if (f.name !== undefined) o.name = f.name;
  if (f.maxBatchSize !== undefined) o.maxBatchSize = f.maxBatchSize;
  // What the ONNX Runtime backend would see (a backend's own setting over the backend-agnostic one).
  if (f.backendConfig?.some((s) => s.setting === 'default-max-batch-size' && (s.backend === '' || s.backend === ONNXRUNTIME.name))) {
    o.defaultMaxBatchSize = defaultMaxBatchSize(applyServerFlags(DEFAULT_SERVER_OPTIONS, { backendConfig: f.backendConfig }));
  }
  if (f.dynamicBatching !== undefined) o.dynamicBatching = f.dynamicBatching;
  const preferred = intList('preferred-batch-size', f.preferredBatchSize);
  if (preferred) o.preferredBatchSize = preferred;
  if (f.maxQueueDelay !== undefined) {
    const us = parseQueueDelay(f.maxQueueDelay);
    if (us === undefined)
      throw new GenerateFlagError(`--max-queue-delay takes a duration with its unit: us, ms or s (e.g. 500us, 5ms, 0.5s); got "${f.maxQueueDelay}"`);
    o.maxQueueDelayMicroseconds = us;
  }
  if (f.instances !== undefined) o.instances = f.instances;
  if (f.kind !== undefined) o.kind = f.kind;
  const gpus = intList('gpus', f.gpus);
  if (gpus) o.gpus = gpus;
  if (f.accelerator !== undefined) {
    const acc = parseAccelerator(f.accelerator);
    if (!acc) throw new GenerateFlagError(`--accelerator takes tensorrt, tensorrt:fp16 (or :fp32, :bf16, :int8), cuda or openvino; got "${f.accelerator}"`);
    o.accelerator = acc;
  }
  if (f.platform) o.field = 'platform';
  if (f.backend) o.field = 'backend';
  if (f.target) o.target = f.target;
  const checked = generateOptionsSchema().safeParse(o);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const flag = String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new GenerateFlagError(`--${flag}: ${issue.message}`);
  }
  return checked.data;
}

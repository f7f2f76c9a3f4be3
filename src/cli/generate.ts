// `tritonc generate MODEL.onnx|MODEL_DIR|REPO [options] [--write [--force] | --check]`
import { relative, resolve } from 'node:path';
import { findTargets } from '../generate/targets.js';
import { generateForTarget, type TargetOutcome } from '../generate/run.js';
import {
  generateOptionsSchema, parseAccelerator, parseDuration, type GenerateOptions,
} from '../generate/options.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { lineDiff } from '../util/line-diff.js';
import type { CommandSpec } from './command.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';

export const generateCommand: CommandSpec = {
  command: 'generate <path>',
  describe: 'Generate config.pbtxt from model.onnx (a model file, a model directory, or a repository)',
  builder: (y) =>
    y
      .positional('path', { type: 'string', describe: 'model.onnx, a model directory, or a model repository' })
      .option('name', { type: 'string', describe: 'Model name (default: the directory name)' })
      .option('max-batch-size', { type: 'number', describe: 'Largest batch Triton may send (default: 4 if the model can batch, else 0)' })
      .option('dynamic-batching', { type: 'boolean', describe: 'Add dynamic_batching (default: on when max_batch_size > 1); --no-dynamic-batching to leave it out' })
      .option('preferred-batch-size', { type: 'string', describe: 'Preferred batch sizes, e.g. 8,16,32' })
      .option('max-queue-delay', { type: 'string', describe: 'How long a request may wait to be batched, e.g. 5ms or 500us' })
      .option('instances', { type: 'number', describe: 'Model instances per device (each holds a copy of the weights)' })
      .option('kind', { choices: ['gpu', 'cpu'] as const, describe: 'Where instances run' })
      .option('gpus', { type: 'string', describe: 'GPU ids for the instances, e.g. 0,1' })
      .option('accelerator', { type: 'string', describe: 'tensorrt[:fp16|fp32|bf16|int8], cuda, or openvino' })
      .option('platform', { type: 'boolean', describe: 'Write platform: "onnxruntime_onnx" instead of backend: "onnxruntime"' })
      .option('backend', { type: 'boolean', describe: 'Write backend: "onnxruntime" (the default)' })
      .option('write', { type: 'boolean', describe: 'Write <model>/config.pbtxt (atomically)' })
      .option('force', { type: 'boolean', describe: 'With --write: replace a config.pbtxt that was edited by hand' })
      .option('check', { type: 'boolean', describe: 'Exit 1 when config.pbtxt on disk differs from what would be generated' })
      .conflicts('write', 'check')
      .conflicts('platform', 'backend'),
  run: (a, io) => runGenerate(a, io),
};

const GENERATION_FLAGS = ['name', 'maxBatchSize', 'dynamicBatching', 'preferredBatchSize', 'maxQueueDelay', 'instances', 'kind', 'gpus', 'accelerator', 'platform', 'backend'];

function intList(flag: string, v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  if (!/^\d+(\s*,\s*\d+)*$/.test(s)) throw new UsageError(`--${flag} takes a comma-separated list of whole numbers, e.g. 8,16,32; got "${s}"`);
  return s.split(',').map((x) => Number(x.trim()));
}

/** The options given on the command line, or undefined when none were (then a file's recorded ones apply). */
export function optionsFromArgs(a: Record<string, unknown>): GenerateOptions | undefined {
  if (!GENERATION_FLAGS.some((f) => a[f] !== undefined)) return undefined;
  const o: GenerateOptions = {};
  if (a.name !== undefined) o.name = String(a.name);
  if (a.maxBatchSize !== undefined) o.maxBatchSize = a.maxBatchSize as number;
  if (a.dynamicBatching !== undefined) o.dynamicBatching = a.dynamicBatching as boolean;
  const preferred = intList('preferred-batch-size', a.preferredBatchSize);
  if (preferred) o.preferredBatchSize = preferred;
  if (a.maxQueueDelay !== undefined) {
    const us = parseDuration(String(a.maxQueueDelay));
    if (us === undefined) throw new UsageError(`--max-queue-delay takes a duration such as 5ms, 500us or 0.5s; got "${String(a.maxQueueDelay)}"`);
    o.maxQueueDelayMicroseconds = us;
  }
  if (a.instances !== undefined) o.instances = a.instances as number;
  if (a.kind !== undefined) o.kind = a.kind as 'gpu' | 'cpu';
  const gpus = intList('gpus', a.gpus);
  if (gpus) o.gpus = gpus;
  if (a.accelerator !== undefined) {
    const acc = parseAccelerator(String(a.accelerator));
    if (!acc) throw new UsageError(`--accelerator takes tensorrt, tensorrt:fp16 (or :fp32, :bf16, :int8), cuda or openvino; got "${String(a.accelerator)}"`);
    o.accelerator = acc;
  }
  if (a.platform) o.field = 'platform';
  const checked = generateOptionsSchema.safeParse(o);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const flag = String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageError(`--${flag}: ${issue.message}`);
  }
  return checked.data as GenerateOptions;
}

export async function runGenerate(a: Record<string, unknown>, io: CliIO): Promise<number> {
  const options = optionsFromArgs(a);
  const found = findTargets(resolve(io.cwd, String(a.path)));
  if ('error' in found) throw new UsageError(found.error.replace(resolve(io.cwd, String(a.path)), String(a.path)));
  const shown = (p: string): string => relative(io.cwd, p) || p;
  const outcomes = found.targets.map((t) => generateForTarget(t, { options, cwd: io.cwd }));

  let exit: number = EXIT.ok;
  const worse = (code: number): void => void (exit = Math.max(exit, code));
  const many = outcomes.length > 1;
  for (const o of outcomes) {
    if (o.kind === 'unreadable-model' || o.kind === 'bad-header') {
      io.stderr(`tritonc generate: ${o.message}\n`);
      worse(EXIT.usage);
      continue;
    }
    if (o.kind === 'problems') {
      for (const p of o.problems) io.stderr(`error: ${p.message}\n`);
      worse(EXIT.problems);
      continue;
    }
    const path = shown(o.target.configPath);
    if (a.check) {
      if (o.decision !== 'unchanged') {
        io.stdout(`${path}: ${o.decision === 'create' ? 'missing' : 'differs from what tritonc generate would write'}\n`);
        if (o.existing !== undefined) for (const line of lineDiff(o.existing, o.text).slice(0, 40)) io.stdout(`  ${line}\n`);
        worse(EXIT.problems);
      }
    } else if (a.write) {
      worse(writeOutcome(o, path, Boolean(a.force), io));
    } else {
      if (many) io.stdout(`# ==> ${path} <==\n`);
      io.stdout(o.text);
    }
  }
  if (a.check && exit === EXIT.problems) io.stderr(`run tritonc generate --write ${String(a.path)} to update${options ? ' (with the same options)' : ''}\n`);
  return exit;
}

function writeOutcome(o: Extract<TargetOutcome, { kind: 'generated' }>, path: string, force: boolean, io: CliIO): number {
  if (o.decision === 'unchanged') {
    io.stderr(`${path} is up to date\n`);
    return EXIT.ok;
  }
  // A config that differs is never replaced without --force: neither a hand-edited one nor tritonc's
  // own output from an older export (the differences are shown, so the user decides).
  if ((o.decision === 'edited' || o.decision === 'update') && !force) {
    const why =
      o.decision === 'update'
        ? 'tritonc generated it from an older model (it is unedited since), and the model changed'
        : 'it was not written by tritonc, or was edited since';
    io.stderr(`tritonc generate: not overwriting ${path}: it differs from what tritonc would generate (${why}). Replace it with --write --force, or check it with tritonc lint. The differences:\n`);
    for (const line of lineDiff(o.existing ?? '', o.text).slice(0, 40)) io.stderr(`  ${line}\n`);
    return EXIT.problems;
  }
  try {
    writeFileAtomic(o.target.configPath, o.text);
  } catch (e) {
    io.stderr(`tritonc generate: cannot write ${path}: ${(e as Error).message}\n`);
    return EXIT.usage;
  }
  io.stdout(`${o.decision === 'create' ? 'wrote' : 'updated'} ${path}\n`);
  return EXIT.ok;
}

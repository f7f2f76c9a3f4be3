// `tritonc generate MODEL.onnx|MODEL_DIR|REPO [options] [--write [--force] | --check]`
import { resolve } from 'node:path';
import { findTargets } from '../generate/targets.js';
import { Workspace } from '../workspace/workspace.js';
import { withRepositories } from './remote.js';
import { generateForTarget, type TargetOutcome } from '../generate/run.js';
import { readHeader } from '../generate/header.js';
import {
  generateOptionsSchema, optionsToFlags, parseAccelerator, parseDuration, type GenerateOptions,
} from '../generate/options.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { plainText, withLineEnds } from '../util/line-ends.js';
import { describeFsError } from '../util/read-text.js';
import { lineDiff } from '../util/line-diff.js';
import type { Argv } from 'yargs';
import { defineCommand, repeatable, type FlagsOf } from './command.js';
import { serverFlagsFromArgs } from './server-flags.js';
import { DEFAULT_SERVER_OPTIONS, applyServerFlags, defaultMaxBatchSize } from '../triton/server-options.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { displayPath } from '../util/display-path.js';
import { ONNXRUNTIME, platformOfBackend } from '../triton/backend-records.js';

const generateFlags = (y: Argv) =>
  y
    // Required by the syntax (<path>): demandOption tells the type so (yargs' positional() drops it).
    .positional('path', { type: 'string', demandOption: true, describe: 'model.onnx, a model directory, or a model repository; a directory may be a URL (s3://, gs://, as://) with --check' })
    .option('name', { type: 'string', describe: 'Model name (default: the directory name)' })
    .option('max-batch-size', { type: 'number', describe: 'Largest batch Triton may send (default: the server\'s default-max-batch-size, 4, if the model can batch, else 0)' })
    .option('backend-config', { ...repeatable('As tritonserver: onnxruntime,default-max-batch-size=N makes N the default max_batch_size (other settings do not change the config)') })
    .option('dynamic-batching', { type: 'boolean', describe: 'Add dynamic_batching (default: on when max_batch_size > 1); --no-dynamic-batching to leave it out' })
    .option('preferred-batch-size', { type: 'string', describe: 'Preferred batch sizes, e.g. 8,16,32' })
    .option('max-queue-delay', { type: 'string', describe: 'How long a request may wait to be batched, e.g. 5ms or 500us' })
    .option('instances', { type: 'number', describe: 'Model instances per device (each holds a copy of the weights)' })
    .option('kind', { choices: ['gpu', 'cpu'] as const, describe: 'Where instances run' })
    .option('gpus', { type: 'string', describe: 'GPU ids for the instances, e.g. 0,1' })
    .option('accelerator', { type: 'string', describe: 'tensorrt[:fp16|fp32|bf16|int8], cuda, or openvino' })
    .option('platform', { type: 'boolean', describe: `Write platform: "${platformOfBackend(ONNXRUNTIME.name)}" instead of backend: "${ONNXRUNTIME.name}"` })
    .option('backend', { type: 'boolean', describe: 'Write backend: "onnxruntime" (the default)' })
    .option('write', { type: 'boolean', describe: 'Write <model>/config.pbtxt (atomically)' })
    .option('force', { type: 'boolean', describe: 'With --write: replace a config.pbtxt that was edited by hand' })
    .option('check', { type: 'boolean', describe: 'Exit 1 when config.pbtxt on disk differs from what would be generated' })
    .conflicts('write', 'check')
    .conflicts('platform', 'backend');

/** generate's flags, parsed. */
export type GenerateArgs = FlagsOf<typeof generateFlags>;

export const generateCommand = defineCommand({
  command: 'generate <path>',
  describe: 'Generate config.pbtxt from model.onnx (a model file, a model directory, or a repository)',
  builder: generateFlags,
  run: runGenerate,
});

const GENERATION_FLAGS = ['name', 'maxBatchSize', 'backendConfig', 'dynamicBatching', 'preferredBatchSize', 'maxQueueDelay', 'instances', 'kind', 'gpus', 'accelerator', 'platform', 'backend'];

function intList(flag: string, v: unknown): number[] | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  if (!/^\d+(\s*,\s*\d+)*$/.test(s)) throw new UsageError(`--${flag} takes a comma-separated list of whole numbers, e.g. 8,16,32; got "${s}"`);
  return s.split(',').map((x) => Number(x.trim()));
}

/** The options given on the command line, or undefined when none were (then a file's recorded ones apply). */
export function optionsFromArgs(a: GenerateArgs): GenerateOptions | undefined {
  if (!GENERATION_FLAGS.some((f) => a[f] !== undefined)) return undefined;
  const o: GenerateOptions = {};
  if (a.name !== undefined) o.name = String(a.name);
  if (a.maxBatchSize !== undefined) o.maxBatchSize = a.maxBatchSize;
  const server = serverFlagsFromArgs(a, '');
  // What the ONNX Runtime backend would see (a backend's own setting over the backend-agnostic one).
  if (server.backendConfig?.some((s) => s.setting === 'default-max-batch-size' && (s.backend === '' || s.backend === ONNXRUNTIME.name))) {
    o.defaultMaxBatchSize = defaultMaxBatchSize(applyServerFlags(DEFAULT_SERVER_OPTIONS, server));
  }
  if (a.dynamicBatching !== undefined) o.dynamicBatching = a.dynamicBatching;
  const preferred = intList('preferred-batch-size', a.preferredBatchSize);
  if (preferred) o.preferredBatchSize = preferred;
  if (a.maxQueueDelay !== undefined) {
    const us = parseDuration(String(a.maxQueueDelay));
    if (us === undefined) throw new UsageError(`--max-queue-delay takes a duration with its unit: us, ms or s (e.g. 500us, 5ms, 0.5s); got "${String(a.maxQueueDelay)}"`);
    o.maxQueueDelayMicroseconds = us;
  }
  if (a.instances !== undefined) o.instances = a.instances;
  if (a.kind !== undefined) o.kind = a.kind;
  const gpus = intList('gpus', a.gpus);
  if (gpus) o.gpus = gpus;
  if (a.accelerator !== undefined) {
    const acc = parseAccelerator(String(a.accelerator));
    if (!acc) throw new UsageError(`--accelerator takes tensorrt, tensorrt:fp16 (or :fp32, :bf16, :int8), cuda or openvino; got "${String(a.accelerator)}"`);
    o.accelerator = acc;
  }
  if (a.platform) o.field = 'platform';
  if (a.backend) o.field = 'backend';
  const checked = generateOptionsSchema().safeParse(o);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const flag = String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    throw new UsageError(`--${flag}: ${issue.message}`);
  }
  return checked.data as GenerateOptions;
}

export async function runGenerate(a: GenerateArgs, io: CliIO): Promise<number> {
  const options = optionsFromArgs(a);
  // A repository in object storage is generated from and checked there, never written.
  return withRepositories('generate', [String(a.path)], io, {}, async (remote) => {
    if (remote.remote && a.write) throw new UsageError('generate: --write changes files, and tritonc never writes to object storage: use --check, or print the config and upload it yourself');
    const target = resolve(io.cwd, remote.paths[0]!);
    const found = await remote.complete((files) => {
      const workspace = new Workspace({ files });
      const f = findTargets(target, workspace);
      return 'error' in f ? f : { outcomes: f.targets.map((t) => generateForTarget(t, { options, cwd: io.cwd, workspace })) };
    });
    if ('error' in found) throw new UsageError(found.error.replace(target, String(a.path)));
    return reportOutcomes(found.outcomes, options, a, remote.io, target);
  });
}

/** `named`: the repository or model directory the user gave: no link below it is written through. */
function reportOutcomes(outcomes: TargetOutcome[], options: GenerateOptions | undefined, a: GenerateArgs, io: CliIO, named: string): number {
  const shown = (p: string): string => displayPath(p, io.cwd);
  // The command that does what was refused: the flags given now (the recorded ones are kept anyway).
  const command = (o: Generated, force: boolean): string =>
    ['tritonc generate', shown(o.target.modelDir), ...(options ? optionsToFlags(options) : []), '--write', ...(force ? ['--force'] : [])].join(' ');

  let exit: number = EXIT.ok;
  const worse = (code: number): void => void (exit = Math.max(exit, code));
  const many = outcomes.length > 1;
  for (const o of outcomes) {
    if (o.kind === 'unreadable-model' || o.kind === 'unreadable-config' || o.kind === 'bad-header') {
      io.stderr(`tritonc generate: ${o.message}\n`);
      worse(EXIT.usage);
      continue;
    }
    if (o.kind === 'problems') {
      for (const p of o.problems) io.stderr(`error: ${p.message}\n`);
      if (o.recorded && options) {
        io.stderr(`note: the options not given now are those recorded in ${shown(o.target.configPath)}: tritonc generate ${optionsToFlags(o.recorded).join(' ')}\n`);
      }
      worse(EXIT.problems);
      continue;
    }
    const path = shown(o.target.configPath);
    for (const w of o.warnings) io.stderr(`warning: ${w.message}\n`);
    if (a.check) {
      if (o.decision !== 'unchanged') {
        io.stdout(`${path}: ${o.decision === 'create' ? 'missing' : `differs from what tritonc generate would write: ${difference(o)}`}\n`);
        if (o.existing !== undefined) for (const line of lineDiff(plainText(o.existing).text, o.text).slice(0, 40)) io.stdout(`  ${line}\n`);
        io.stderr(`to ${o.decision === 'edited' ? 'replace it, discarding the edits' : 'update it'}: ${command(o, o.decision !== 'create')}\n`);
        worse(EXIT.problems);
      }
    } else if (a.write) {
      worse(writeOutcome(o, path, Boolean(a.force), command, io, named));
    } else {
      if (many) io.stdout(`# ==> ${path} <==\n`);
      io.stdout(o.text);
    }
  }
  return exit;
}

type Generated = Extract<TargetOutcome, { kind: 'generated' }>;

/** Why the file on disk is not what would be generated: the options, the model, or a hand edit. */
function difference(o: Generated): string {
  switch (o.decision) {
    case 'options': {
      const flags = (x: GenerateOptions): string => ['tritonc generate', ...optionsToFlags(x)].join(' ');
      return `it was generated with other options (recorded: ${flags(o.recorded ?? {})}; now: ${flags(o.options)})`;
    }
    case 'model':
      return 'tritonc generated it, unedited since, from an older model: the model changed';
    default:
      return o.existing !== undefined && readHeader(o.existing) ? 'it was edited by hand since tritonc generated it' : 'tritonc did not write it (it has no tritonc header)';
  }
}

function writeOutcome(o: Generated, path: string, force: boolean, command: (o: Generated, force: boolean) => string, io: CliIO, named: string): number {
  if (o.decision === 'unchanged') {
    io.stderr(`${path} is up to date\n`);
    return EXIT.ok;
  }
  // A config that differs is never replaced without --force: neither a hand-edited one nor tritonc's
  // own output of other options or an older export (the differences are shown, so the user decides).
  if (o.decision !== 'create' && !force) {
    const edited = o.decision === 'edited';
    io.stderr(
      `tritonc generate: not overwriting ${path}: ${difference(o)}. ` +
        `To ${edited ? 'replace it, discarding the edits' : 'write it'}: ${command(o, true)}${edited ? `; or keep it and check it with tritonc lint ${path}` : ''}. The differences:\n`,
    );
    for (const line of lineDiff(plainText(o.existing ?? '').text, o.text).slice(0, 40)) io.stderr(`  ${line}\n`);
    return EXIT.problems;
  }
  try {
    // An update keeps the line ends the file had.
    writeFileAtomic(o.target.configPath, o.existing === undefined ? o.text : withLineEnds(o.text, plainText(o.existing).ends), { within: [named] });
  } catch (e) {
    io.stderr(`tritonc generate: cannot write ${path}: ${describeFsError(e)}; ${o.existing === undefined ? 'nothing was written' : 'the file is unchanged'}\n`);
    return EXIT.usage;
  }
  io.stdout(`${o.decision === 'create' ? 'wrote' : 'updated'} ${path}\n`);
  return EXIT.ok;
}

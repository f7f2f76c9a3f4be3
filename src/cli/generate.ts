// `tritonc generate MODEL.onnx|MODEL_DIR|REPO [options] [--write [--force] | --check]`
import { quoted } from '../util/terminal-text.js';
import { resolve } from 'node:path';
import { findTargets } from '../generate/targets.js';
import { Workspace } from '../workspace/workspace.js';
import { withRepositories } from './remote.js';
import { generateForTarget, type TargetOutcome } from '../generate/run.js';
import { readHeader } from '../generate/header.js';
import { optionsToFlags, type GenerateOptions } from '../generate/options.js';
import { GenerateFlagError, optionsFromFlags } from '../generate/options-from-flags.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { plainText, withLineEnds } from '../util/line-ends.js';
import { describeFsError } from '../util/read-text.js';
import { lineDiff } from '../util/line-diff.js';
import type { Argv } from 'yargs';
import { defineCommand, repeatable, type FlagsOf } from './command.js';
import { serverFlagsFromArgs, targetsFromArgs, withTritonVersion } from './server-flags.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { displayPath } from '../util/display-path.js';
import { ONNXRUNTIME, platformOfBackend } from '../triton/backend-records.js';

const generateFlags = (y: Argv) =>
  withTritonVersion(y)
    // Required by the syntax (<path>): demandOption tells the type so (yargs' positional() drops it).
    .positional('path', {
      type: 'string',
      demandOption: true,
      describe: 'model.onnx, a model directory, or a model repository; a directory may be a URL (s3://, gs://, as://) with --check',
    })
    .option('name', { type: 'string', describe: 'Model name (default: the directory name)' })
    .option('max-batch-size', {
      type: 'number',
      describe: "Largest batch Triton may send (default: the server's default-max-batch-size, 4, if the model can batch, else 0)",
    })
    .option('backend-config', {
      ...repeatable('As tritonserver: onnxruntime,default-max-batch-size=N makes N the default max_batch_size (other settings do not change the config)'),
    })
    .option('dynamic-batching', {
      type: 'boolean',
      describe: 'Add dynamic_batching (default: on when max_batch_size > 1); --no-dynamic-batching to leave it out',
    })
    .option('preferred-batch-size', { type: 'string', describe: 'Preferred batch sizes, e.g. 8,16,32' })
    .option('max-queue-delay', {
      type: 'string',
      describe: 'How long a request may wait to be batched, with its unit: 5ms, 500us, 0.5s (a bare number is refused: 5 could mean 5us or 5ms)',
    })
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

/** The options the flags give (src/generate/options-from-flags.ts checks them), or undefined when none were. */
export function optionsFromArgs(a: GenerateArgs): GenerateOptions | undefined {
  // --backend-config parsed as every command parses it; given, it counts as an option even when it changes nothing.
  const backendConfig = a.backendConfig === undefined ? undefined : (serverFlagsFromArgs(a, '').backendConfig ?? []);
  const { name, maxBatchSize, dynamicBatching, preferredBatchSize, maxQueueDelay, instances, kind, gpus, accelerator, platform, backend } = a;
  const targets = targetsFromArgs(a);
  if (targets && targets.length > 1)
    throw new UsageError(
      `--triton-version ${quoted(a.tritonVersion ?? '')}: generate writes one config for one release; give one (the oldest you run, then lint it with the others)`,
    );
  try {
    return optionsFromFlags({
      name,
      maxBatchSize,
      backendConfig,
      dynamicBatching,
      preferredBatchSize,
      maxQueueDelay,
      instances,
      kind,
      gpus,
      accelerator,
      platform,
      backend,
      target: targets?.[0],
    });
  } catch (e) {
    if (e instanceof GenerateFlagError) throw new UsageError(e.message);
    throw e;
  }
}

export async function runGenerate(a: GenerateArgs, io: CliIO): Promise<number> {
  const options = optionsFromArgs(a);
  // A repository in object storage is generated from and checked there, never written.
  return withRepositories('generate', [a.path], io, {}, async (remote) => {
    if (remote.remote && a.write)
      throw new UsageError(
        'generate: --write changes files, and tritonc never writes to object storage: use --check, or print the config and upload it yourself',
      );
    const target = resolve(io.cwd, remote.paths[0]!);
    const found = await remote.complete((files) => {
      const workspace = new Workspace({ files });
      const f = findTargets(target, workspace);
      return 'error' in f ? f : { outcomes: f.targets.map((t) => generateForTarget(t, { options, cwd: io.cwd, workspace })) };
    });
    if ('error' in found) throw new UsageError(found.error.replace(target, a.path));
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
        io.stderr(
          `note: the options not given now are those recorded in ${shown(o.target.configPath)}: tritonc generate ${optionsToFlags(o.recorded).join(' ')}\n`,
        );
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
      worse(writeOutcome(o, path, a.force === true, command, io, named));
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
      return o.existing !== undefined && readHeader(o.existing)
        ? 'it was edited by hand since tritonc generated it'
        : 'tritonc did not write it (it has no tritonc header)';
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

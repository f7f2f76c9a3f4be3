// The tritonc command line: parse flags with yargs, dispatch to one module per command, turn every
// failure into a message and an exit code (0 clean, 1 problems found, 2 usage or unreadable input).
import yargs from 'yargs';
import type { CommandSpec } from './command.js';
import { commands } from './commands.js';
import { EXIT, UsageError } from './errors.js';
import { escapeControlKeepingLines } from '../util/terminal-text.js';
import { processIO, type CliIO } from './io.js';
import { VERSION } from '../version.js';
import { didYouMean } from '../pbtxt/suggest.js';
import { displayPath } from '../util/display-path.js';
import { UnreadablePathError } from '../util/unreadable-path.js';

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const unknown = unknownCommand(argv);
  if (unknown) {
    io.stderr(`tritonc: ${unknown}\nRun tritonc --help for usage.\n`);
    return EXIT.usage;
  }
  let selected: CommandSpec | undefined;
  let usageError: string | undefined;
  let output = '';
  const parser = yargs(argv)
    .scriptName('tritonc')
    .usage('$0 <command> [options]\n\nCompile and validate NVIDIA Triton Inference Server model repositories.')
    .strict()
    .exitProcess(false)
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .demandCommand(1, 'give a command, e.g. tritonc fmt --check model_repository')
    .wrap(wantsHelp(argv) ? Math.min(100, process.stdout.columns || 100) : null)
    .fail((msg, err) => {
      usageError = msg || err?.message || 'invalid arguments';
    });
  for (const spec of commands) {
    parser.command(spec.command, spec.describe, spec.builder, () => {
      selected = spec;
    });
  }
  // yargs renders the whole help text after every command's handler, for a showHelp() from inside the
  // handler (yargs lib/command.js, runCommand), which tritonc never calls: some 30 ms of every run.
  // --help and usage errors still render it when they need it.
  const usage = (parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage?.cacheHelpMessage) usage.cacheHelpMessage = () => {};
  let args: Record<string, unknown>;
  try {
    args = (await parser.parseAsync(argv, {}, (_err, _argv, out) => {
      output = out;
    })) as Record<string, unknown>;
  } catch (e) {
    usageError ??= (e as Error).message;
    args = {};
  }
  // Every message of a command is headed `tritonc <command>:`, wherever it comes from.
  const head = `tritonc${selected ? ` ${nameOf(selected)}` : commandIn(argv) ? ` ${commandIn(argv)}` : ''}`;
  if (usageError) {
    io.stderr(`${head}: ${usageError}\nRun tritonc --help for usage.\n`);
    return EXIT.usage;
  }
  if (output) {
    io.stdout(`${output}\n`);
    return EXIT.ok;
  }
  if (!selected) return EXIT.usage;
  try {
    return await selected.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${head}: ${escapeControlKeepingLines(e.message)}\n`);
      return e.exitCode;
    }
    // A directory of the repository tritonc cannot list: what is in it was not checked.
    if (e instanceof UnreadablePathError) {
      io.stderr(`${head}: ${displayPath(e.path, io.cwd)}: cannot read: ${e.reason}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** A command's name as the user types it: the first word of its syntax ('tune <action> <dir>' is tune). */
const nameOf = (spec: CommandSpec): string => spec.command.split(' ')[0]!;

/** The command the arguments name, for messages from before one is selected (yargs' own usage errors). */
function commandIn(argv: readonly string[]): string | undefined {
  const first = argv.find((a) => !a.startsWith('-'));
  return commands.map(nameOf).find((n) => n === first);
}

export async function main(): Promise<void> {
  // A reader that stops early (`tritonc ... | head`) closes the pipe: stop quietly, as Unix tools do,
  // rather than die on the unhandled EPIPE with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
  const io = processIO();
  // A run whose promise never settles lets Node exit with nothing left to do, and exit 0 would read
  // as success: a run that did not finish is an internal error.
  let settled = false;
  process.once('beforeExit', () => {
    if (settled) return;
    io.stderr('tritonc: internal error: the run stopped before it finished (nothing was left to wait for)\nThis is a bug in tritonc; please report it with the command you ran.\n');
    process.exitCode = 70;
  });
  try {
    process.exitCode = await runCli(process.argv.slice(2), io);
    settled = true;
  } catch (e) {
    settled = true;
    // A bug in tritonc, not in the user's input: say so, briefly, with what to report.
    io.stderr(`tritonc: internal error: ${escapeControlKeepingLines((e as Error).message)}\nThis is a bug in tritonc; please report it with the command you ran.\n`);
    if (process.env.TRITONC_DEBUG) io.stderr(`${(e as Error).stack}\n`);
    process.exitCode = 70;
  }
}

/**
 * A first word that is no command: yargs' strict mode would call it an "unknown argument", which
 * does not tell the user what to type instead.
 */
function unknownCommand(argv: string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || first === 'help') return undefined;
  const names = commands.map((c) => c.command.split(' ')[0]!);
  if (names.includes(first)) return undefined;
  const near = didYouMean(first, names);
  return `unknown command '${first}'${near ? ` (did you mean '${near}'?)` : ''}; the commands are: ${names.join(', ')}`;
}

/** Laying out help text costs a few milliseconds of every start: only do it when help is shown. */
function wantsHelp(argv: string[]): boolean {
  return argv.length === 0 || argv.some((a) => a === '--help' || a === '-h' || a === 'help');
}

// The tritonc command line: parse flags with yargs, dispatch to one module per command, turn every
// failure into a message and an exit code (0 clean, 1 problems found, 2 usage or unreadable input).
import yargs, { type Argv } from 'yargs';
import { scalarGivenTwice, type CommandSpec } from './command.js';
import { commands, type CommandEntry } from './commands.js';
import { EXIT, UsageError } from './errors.js';
import { escapeControlKeepingLines, quoted } from '../util/terminal-text.js';
import { processIO, type CliIO } from './io.js';
import { VERSION } from '../version.js';
import { didYouMean } from '../pbtxt/suggest.js';
import { displayPath } from '../util/display-path.js';
import { UnreadablePathError } from '../util/unreadable-path.js';

export async function runCli(given: string[], io: CliIO): Promise<number> {
  const argv = joinStdinValues(given);
  const unknown = unknownCommand(argv);
  if (unknown) {
    io.stderr(`tritonc: ${unknown}\nRun tritonc --help for usage.\n`);
    return EXIT.usage;
  }
  let selected: CommandSpec | undefined;
  let usageError: string | undefined;
  let output = '';
  const onFail = (msg: string | null | undefined, err: Error | undefined): void => {
    usageError = msg || err?.message || 'invalid arguments';
  };
  // The command named first is parsed on its own, as the default command of a parser that knows no
  // other: yargs renders the whole help text after a named command's handler runs (lib/command.js,
  // for a showHelp() from inside it, which tritonc never calls), some 30 ms of every run, and not
  // after the default command's. Help goes to the parser of every command, as do flags before the
  // command, --version and no command at all: yargs lays out a default command's help from the
  // arguments parsed before its builder ran, and leaves out a flag given with --help.
  // Only that command's module is loaded (commands.ts). The parser of every command loads those the
  // arguments may run or help may list: a command named after flags (`tritonc --format json lint`),
  // all of them for help; none for `--version` or an unknown flag, where no command can match.
  const named = wantsHelp(argv) ? undefined : commands.find((c) => c.name === argv[0]);
  const first = named ? await named.load() : undefined;
  const parser = first ? commandParser(first, argv.slice(1)) : commandsParser(argv);
  parser.fail(onFail);
  const listed = async (c: CommandEntry): Promise<CommandSpec> =>
    argv.length === 0 || wantsHelp(argv) || argv.includes(c.name) ? c.load() : { command: c.name, describe: '', builder: (y) => y, run: notNamed };
  for (const spec of first ? [first] : await Promise.all(commands.map(listed))) {
    const syntax = first ? `$0${spec.command.slice(nameOf(spec).length)}` : spec.command;
    parser.command(syntax, spec.describe, first ? defaultCommandBuilder(spec) : spec.builder, () => {
      selected = spec;
    });
  }
  let args: Record<string, unknown> = {};
  try {
    args = await parser.parseAsync(first ? argv.slice(1) : argv, {}, (_err, _argv, out) => {
      output = out;
    });
  } catch (e) {
    usageError ??= (e as Error).message;
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
  // What follows `--` is positional however it looks (`tritonc lint -- -odd-name`), and as typed: taken
  // from argv itself, since yargs numbers it (`1e3` would be 1000) and keeps a command named after
  // flags (`tritonc --format json lint`) in the same `_`.
  const dashes = argv.indexOf('--');
  const rest = dashes >= 0 ? argv.slice(dashes + 1) : [];
  if (rest.length) {
    const filled = positionalsAfterDashes(selected, args, rest);
    if (typeof filled === 'string') {
      io.stderr(`${head}: ${filled}\nRun tritonc --help for usage.\n`);
      return EXIT.usage;
    }
    args = filled;
  }
  const twice = scalarGivenTwice(args, positionalLists(selected));
  if (twice) {
    io.stderr(`${head}: ${twice}\nRun tritonc --help for usage.\n`);
    return EXIT.usage;
  }
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

/**
 * The arguments after `--`, which yargs leaves in `_` outside the command's positionals (yargs-parser
 * without populate--): given to the optional positionals the command line left unset, in the syntax's
 * order, the rest to its list (`[paths..]`). A required one (`<dir>`) must come before `--`: yargs
 * counts it there. Returns what is wrong instead: an argument no positional takes.
 */
function positionalsAfterDashes(spec: CommandSpec, args: Record<string, unknown>, rest: string[]): Record<string, unknown> | string {
  const out: Record<string, unknown> = { ...args, _: [] };
  const queue = [...rest];
  for (const m of spec.command.matchAll(/[<[](\w+)(\.\.)?[>\]]/g)) {
    const name = m[1]!;
    if (m[2]) {
      const given = args[name];
      out[name] = [...(Array.isArray(given) ? given.map(String) : []), ...queue.splice(0)];
    } else if (args[name] === undefined && queue.length) {
      out[name] = queue.shift();
    }
  }
  return queue.length ? `unexpected argument ${quoted(queue[0]!)}` : out;
}

/** The positionals the syntax makes lists (`fmt [paths..]`): given any number of times by design. */
const positionalLists = (spec: CommandSpec): string[] => [...spec.command.matchAll(/\[(\w+)\.\.\]/g)].map((m) => m[1]!);

/**
 * Flags whose value may be "-" (standard input): yargs reads `--flag -` as an empty value, so the
 * two words are joined before it sees them.
 */
const STDIN_FLAGS = new Set(['--deployment']);
const joinStdinValues = (args: string[]): string[] =>
  args.flatMap((a, i) => (a === '-' && STDIN_FLAGS.has(args[i - 1] ?? '') ? [] : STDIN_FLAGS.has(a) && args[i + 1] === '-' ? [`${a}=-`] : [a]));

/** What every parser shares: strict flags, no process exit, --version and -h/--help. */
function parserOf(args: string[], scriptName: string, help: boolean): Argv {
  return yargs(args)
    .scriptName(scriptName)
    .strict()
    .exitProcess(false)
    .version(VERSION)
    .help()
    .alias('h', 'help')
    .wrap(help ? Math.min(100, process.stdout.columns || 100) : null);
}

/** The parser of one command (`tritonc lint ...` less its first word): its messages are headed `tritonc lint`. */
function commandParser(spec: CommandSpec, args: string[]): Argv {
  return parserOf(args, `tritonc ${nameOf(spec)}`, false);
}

/**
 * The builder of a command made the default one. yargs gives a named command's positionals what its
 * syntax says (lib/command.js, cmdToParseOptions): `<x>` required, `[x..]` a list, [] when none. A
 * default command's positionals get none of it: given here, from the syntax, so the command parses
 * and validates (`Missing required argument: path`) as it does among the others.
 */
function defaultCommandBuilder(spec: CommandSpec): (y: Argv) => Argv {
  const words = spec.command
    .split(' ')
    .slice(1)
    .map((w) => /^([<[])(\w+)(\.\.)?[>\]]$/.exec(w));
  return (y) => {
    let inner = spec.builder(y);
    for (const [, bracket, name, variadic] of words.filter((m) => m !== null)) {
      if (variadic) inner = inner.array(name!).default(name!, []);
      if (bracket === '<') inner = inner.demandOption(name!);
    }
    return inner;
  };
}

/** The parser of every command: `tritonc --help` lists them. */
function commandsParser(argv: string[]): Argv {
  return parserOf(argv, 'tritonc', argv.length === 0 || wantsHelp(argv))
    .usage('$0 <command> [options]\n\nCompile and validate NVIDIA Triton Inference Server model repositories.')
    .demandCommand(1, 'give a command, e.g. tritonc fmt --check model_repository');
}

/** The runner of a command the arguments do not name: yargs runs only a command they name. */
const notNamed = (): Promise<number> => Promise.reject(new Error('a command the arguments do not name was run'));

/** A command's name as the user types it: the first word of its syntax ('tune <action> <dir>' is tune). */
const nameOf = (spec: CommandSpec): string => spec.command.split(' ')[0]!;

/** The command the arguments name, for messages from before one is selected (yargs' own usage errors). */
function commandIn(argv: readonly string[]): string | undefined {
  const first = argv.find((a) => !a.startsWith('-'));
  return commands.map((c) => c.name).find((n) => n === first);
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
    io.stderr(
      'tritonc: internal error: the run stopped before it finished (nothing was left to wait for)\nThis is a bug in tritonc; please report it with the command you ran.\n',
    );
    process.exitCode = 70;
  });
  try {
    process.exitCode = await runCli(process.argv.slice(2), io);
    settled = true;
  } catch (e) {
    settled = true;
    // A bug in tritonc, not in the user's input: say so, briefly, with what to report.
    io.stderr(
      `tritonc: internal error: ${escapeControlKeepingLines((e as Error).message)}\nThis is a bug in tritonc; please report it with the command you ran.\n`,
    );
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
  const names = commands.map((c) => c.name);
  if (names.includes(first)) return undefined;
  const near = didYouMean(first, names);
  return `unknown command '${first}'${near ? ` (did you mean '${near}'?)` : ''}; the commands are: ${names.join(', ')}`;
}

/** Laying out help text costs a few milliseconds of every start: only do it when help is shown. */
function wantsHelp(argv: string[]): boolean {
  return argv.some((a) => a === '--help' || a === '-h' || a === 'help');
}

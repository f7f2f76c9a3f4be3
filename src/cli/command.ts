// What a command module exports: its yargs syntax and a runner that returns the exit code.
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { CliIO } from './io.js';

/** A command as main.ts iterates over them: its runner takes the arguments its own builder parsed. */
export interface CommandSpec {
  /** yargs command syntax, e.g. 'fmt [paths..]'. */
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  /** Parses nothing: main.ts hands it what `builder` parsed (yargs' arguments, a record). */
  run: (args: Record<string, unknown>, io: CliIO) => Promise<number>;
}

/** A command whose runner receives its flags typed as its builder declares them. */
export interface TypedCommand<T> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<T>;
  run: (args: ArgumentsCamelCase<T>, io: CliIO) => Promise<number>;
}

/** The parsed flags of a builder, as its command's runner receives them (kebab-case and camelCase keys). */
export type FlagsOf<B extends (y: Argv) => Argv<unknown>> = B extends (y: Argv) => Argv<infer T> ? ArgumentsCamelCase<T> : never;

/**
 * Each flag declared once, in the builder: yargs infers its type (`type`, `choices`, `coerce`,
 * `default`), and the runner gets exactly that type. The one place the types are bridged: the
 * arguments main.ts passes are those this builder parsed, so they are `ArgumentsCamelCase<T>` —
 * given that a flag typed as one value holds one (main.ts refuses a scalar flag given twice,
 * scalarGivenTwice below, before any runner runs).
 */
export function defineCommand<T>(spec: TypedCommand<T>): CommandSpec {
  // The one cast of parsed flags in src/cli (test/architecture.test.ts allows it here alone).
  return { command: spec.command, describe: spec.describe, builder: spec.builder, run: (args, io) => spec.run(args as ArgumentsCamelCase<T>, io) };
}

/** The lists repeatable flags made: any other list among the arguments is a one-value flag given twice. */
const REPEATED_ON_PURPOSE = new WeakSet<readonly string[]>();

/**
 * A flag given any number of times (`--rule a=off --rule b=warn`), as a list. Not yargs' `array`,
 * which also swallows the words after it: `--backend-config=onnxruntime,x=1 REPO` would take REPO as
 * a second setting, where tritonserver's own spelling leaves it the repository.
 */
export const repeatable = (describe: string) => ({
  type: 'string' as const,
  describe,
  coerce: (v: string | string[]): readonly string[] => {
    const list = Object.freeze((Array.isArray(v) ? v : [v]).map(String));
    REPEATED_ON_PURPOSE.add(list);
    return list;
  },
});

/**
 * The first flag that takes one value but was given more than once, as `--name "a", "b"`. yargs makes
 * such a flag a list whatever its declared type (yargs-parser duplicate-arguments-array), so without
 * this every runner would have to coerce its strings again; tritonserver's own parser takes the last
 * value given, which would silently drop one the user meant: tritonc refuses it. `positionalLists`:
 * the syntax's `[paths..]`, lists by design.
 */
export function scalarGivenTwice(args: Record<string, unknown>, positionalLists: readonly string[]): string | undefined {
  for (const [key, value] of Object.entries(args)) {
    if (key === '_' || key === '$0' || !Array.isArray(value) || REPEATED_ON_PURPOSE.has(value) || positionalLists.includes(key)) continue;
    // yargs keeps each flag under its name and its camelCase alias: the name as typed has a dash, or no capital.
    if (/[A-Z]/.test(key)) continue;
    return `${key.length === 1 ? '-' : '--'}${key} takes one value, and was given ${value.length} times (${value.map((x) => JSON.stringify(String(x))).join(', ')}): give it once`;
  }
  return undefined;
}

// What a command module exports: its yargs syntax and a runner that returns the exit code.
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { CliIO } from './io.js';

/** A command as main.ts iterates over them: its flags' types erased. */
export interface CommandSpec {
  /** yargs command syntax, e.g. 'fmt [paths..]'. */
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
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
 * `default`), and the runner gets exactly that type.
 */
export function defineCommand<T>(spec: TypedCommand<T>): CommandSpec {
  // Erased for the list main.ts iterates over: yargs hands run the arguments its builder parsed.
  return spec as unknown as CommandSpec;
}

/**
 * A flag given any number of times (`--rule a=off --rule b=warn`), as a list. Not yargs' `array`,
 * which also swallows the words after it: `--backend-config=onnxruntime,x=1 REPO` would take REPO as
 * a second setting, where tritonserver's own spelling leaves it the repository.
 */
export const repeatable = (describe: string) => ({ type: 'string' as const, describe, coerce: (v: unknown): string[] => (Array.isArray(v) ? v : [v]).map(String) });

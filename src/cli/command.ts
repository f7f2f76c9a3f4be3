// What a command module exports: its yargs syntax and a runner that returns the exit code.
import type { Argv } from 'yargs';
import type { CliIO } from './io.js';

export interface CommandSpec {
  /** yargs command syntax, e.g. 'fmt [paths..]'. */
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  run: (args: Record<string, unknown>, io: CliIO) => Promise<number>;
}

/**
 * A flag given any number of times (`--rule a=off --rule b=warn`), as a list. Not yargs' `array`,
 * which also swallows the words after it: `--backend-config=onnxruntime,x=1 REPO` would take REPO as
 * a second setting, where tritonserver's own spelling leaves it the repository.
 */
export const repeatable = (describe: string) => ({ type: 'string' as const, describe, coerce: (v: unknown): string[] => (Array.isArray(v) ? v : [v]).map(String) });

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

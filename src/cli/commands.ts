// Every tritonc command, in the order `tritonc --help` lists them.
import type { CommandSpec } from './command.js';
import { fmtCommand } from './fmt.js';

export const commands: CommandSpec[] = [fmtCommand];

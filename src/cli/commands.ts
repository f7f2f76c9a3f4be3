// Every tritonc command, in the order `tritonc --help` lists them.
import type { CommandSpec } from './command.js';
import { fmtCommand } from './fmt.js';
import { lintCommand } from './lint.js';
import { generateCommand } from './generate.js';
import { inspectCommand } from './inspect.js';
import { verifyCommand } from './verify.js';
import { resolveCommand } from './resolve.js';
import { watchCommand } from './watch.js';
import { lockCommand } from './lock.js';
import { lspCommand } from './lsp.js';
import { fillCommand } from './fill.js';
import { tuneCommand } from './tune.js';
import { clientCommand } from './client.js';
import { deployCommand } from './deploy.js';
import { releasesCommand } from './releases.js';

export const commands: CommandSpec[] = [
  inspectCommand,
  generateCommand,
  resolveCommand,
  lintCommand,
  lockCommand,
  fillCommand,
  fmtCommand,
  watchCommand,
  verifyCommand,
  tuneCommand,
  clientCommand,
  deployCommand,
  releasesCommand,
  lspCommand,
];

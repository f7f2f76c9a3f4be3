// Every tritonc command, in the order `tritonc --help` lists them: its name, and its module, loaded
// when the command runs (or when help lists them all). A command's module brings the code it runs
// (the lint engine and its rules, the KServe client, execa, node:http...): loaded at start, every
// command paid for all of them (bench/goals.mjs; docs/performance.md, issue 47).
import type { CommandSpec } from './command.js';

export interface CommandEntry {
  /** The first word of the command's syntax (test/cli/commands.test.ts checks each against its module). */
  name: string;
  load: () => Promise<CommandSpec>;
}

export const commands: readonly CommandEntry[] = [
  { name: 'inspect', load: async () => (await import('./inspect.js')).inspectCommand },
  { name: 'generate', load: async () => (await import('./generate.js')).generateCommand },
  { name: 'resolve', load: async () => (await import('./resolve.js')).resolveCommand },
  { name: 'lint', load: async () => (await import('./lint.js')).lintCommand },
  { name: 'lock', load: async () => (await import('./lock.js')).lockCommand },
  { name: 'fill', load: async () => (await import('./fill.js')).fillCommand },
  { name: 'fmt', load: async () => (await import('./fmt.js')).fmtCommand },
  { name: 'watch', load: async () => (await import('./watch.js')).watchCommand },
  { name: 'verify', load: async () => (await import('./verify.js')).verifyCommand },
  { name: 'tune', load: async () => (await import('./tune.js')).tuneCommand },
  { name: 'client', load: async () => (await import('./client.js')).clientCommand },
  { name: 'deploy', load: async () => (await import('./deploy.js')).deployCommand },
  { name: 'releases', load: async () => (await import('./releases.js')).releasesCommand },
  { name: 'lsp', load: async () => (await import('./lsp.js')).lspCommand },
];

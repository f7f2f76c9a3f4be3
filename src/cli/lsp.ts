// `tritonc lsp --stdio`: the language server for editors (src/lsp/server.ts), over stdin/stdout.
import { defineCommand } from './command.js';
import { UsageError } from './errors.js';

export const lspCommand = defineCommand({
  command: 'lsp',
  describe: 'Run the language server for config.pbtxt (diagnostics, quick fixes, formatting, completion, hover, go to definition)',
  builder: (y) => y.option('stdio', { type: 'boolean', describe: 'Talk LSP over stdin and stdout (the only transport)' }),
  run: async (a) => {
    if (!a.stdio) throw new UsageError('lsp: give --stdio (the editor starts tritonc lsp --stdio and talks to it over stdin/stdout)');
    // Loaded only when an editor starts it: the LSP libraries stay out of every other command.
    const { startLanguageServer } = await import('../lsp/server.js');
    startLanguageServer();
    // The connection ends the process when the client asks it to exit.
    return new Promise<number>(() => {});
  },
});

// The VS Code side of tritonc: starts `tritonc lsp --stdio` for Triton model configs and leaves
// everything else (diagnostics, fixes, formatting, completion, hover) to the language server.
import { window, workspace, type ExtensionContext, type OutputChannel } from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { findServer } from './find-server.js';

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const output: OutputChannel = window.createOutputChannel('tritonc');
  context.subscriptions.push(output);
  const found = findServer({
    configured: workspace.getConfiguration('tritonc').get<string>('path'),
    workspaceFolders: (workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
    pathVariable: process.env.PATH,
  });
  if ('error' in found) {
    output.appendLine(found.error);
    void window.showWarningMessage(found.error);
    return;
  }
  output.appendLine(`starting ${found.command} ${found.args.join(' ')} (found on ${found.source})`);
  const serverOptions: ServerOptions = { command: found.command, args: found.args };
  const clientOptions: LanguageClientOptions = {
    // The language id covers config.pbtxt, configs/*.pbtxt and the proto-message header (package.json);
    // the server applies the same test itself (src/lsp/server.ts isConfigDocument).
    documentSelector: [{ scheme: 'file', language: 'triton-pbtxt' }],
    outputChannel: output,
    synchronize: {
      // Model files and sibling configs: the server lints open documents again when they change.
      fileEvents: workspace.createFileSystemWatcher('**/{*.pbtxt,*.onnx,*.plan,*.json,model.py}'),
    },
  };
  client = new LanguageClient('tritonc', 'tritonc', serverOptions, clientOptions);
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

// tritonc lsp --stdio's end of life, as LSP 3.17 says it (Shutdown Request, Exit Notification): after
// `shutdown` every request but `exit` is answered with InvalidRequest (-32600) and every notification
// is ignored; `exit` ends the process with 0 after shutdown, 1 without. The built CLI over real stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  ResponseError,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';
import { BIN } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

let child: ChildProcess | undefined;
let connection: ProtocolConnection | undefined;
afterEach(() => {
  connection?.dispose();
  child?.kill();
  child = undefined;
  connection = undefined;
});

async function start(root: string) {
  child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => void published.push(p));
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  return { c: connection, published, exited };
}

describe('tritonc lsp --stdio: shutdown and exit', () => {
  it('after shutdown a request gets InvalidRequest, an edit is not linted, and exit ends with 0', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const uri = pathToFileURL(join(repo, 'classifier/config.pbtxt')).href;
    const { c, published, exited } = await start(repo);
    await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text: CLASSIFIER_CONFIG } });
    // Before shutdown the hover is answered.
    const before = await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 3 } });
    expect((before!.contents as { value: string }).value).toContain('max_batch_size');

    expect(await c.sendRequest(ShutdownRequest.type)).toBeNull();
    await c.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: 'max_batch_size: {' }] });
    const after = await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2, character: 3 } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(after).toBeInstanceOf(ResponseError);
    expect((after as ResponseError<unknown>).code).toBe(-32600);
    // A second shutdown is a request like any other now.
    const again = await c.sendRequest(ShutdownRequest.type).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((again as ResponseError<unknown>).code).toBe(-32600);

    await c.sendNotification(ExitNotification.type);
    expect(await exited).toBe(0);
    // The edit sent after shutdown was ignored: no diagnostics of version 2, before the process ended.
    expect(published.filter((p) => p.uri === uri && p.version === 2)).toEqual([]);
  });

  it('exit without shutdown ends with 1', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG });
    const { c, exited } = await start(repo);
    await c.sendNotification(ExitNotification.type);
    expect(await exited).toBe(1);
  });
});

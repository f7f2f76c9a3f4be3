// tritonc lsp --stdio against what an editor (or anything on the other end of the pipe) may send: a
// frame it cannot read, an edit storm, a line of 160,000 characters, URIs that name no local file.
// The built CLI, as an editor starts it, spoken to with vscode-languageserver-protocol's client side.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';
import { COMPLETION_WINDOW, valueBeforeCursor } from '../../src/lsp/cursor.js';
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
  child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => void published.push(p));
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification(InitializedNotification.type, {});
  return { c: connection, published };
}

/** What the child wrote to stderr and its exit code, once it exits. */
function exited(p: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  p.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => p.on('exit', (code) => resolve({ code, stderr })));
}

describe('the completion scan before the cursor', () => {
  it('finds the field whose value is typed, quoted or not, and looks no further back than its window', () => {
    expect(valueBeforeCursor('  data_type: TYP')).toEqual({ field: 'data_type', quoted: false });
    expect(valueBeforeCursor('input [ { name: "inp')).toEqual({ field: 'name', quoted: true });
    expect(valueBeforeCursor('backend:"')).toEqual({ field: 'backend', quoted: true });
    expect(valueBeforeCursor('model_name :  "ens.v-1')).toEqual({ field: 'model_name', quoted: true });
    expect(valueBeforeCursor('max_batch_size')).toBeUndefined();
    expect(valueBeforeCursor('"a": "')).toBeUndefined();
    const long = `${'x'.repeat(160_000)} data_type: TY`;
    expect(valueBeforeCursor(long)).toEqual({ field: 'data_type', quoted: false });
    // A value longer than the window is not looked through: no field is found, rather than a slow scan.
    expect(valueBeforeCursor(`name: "${'a'.repeat(COMPLETION_WINDOW + 10)}`)).toBeUndefined();
    expect(valueBeforeCursor(':'.repeat(160_000))).toBeUndefined();
  });
});

describe('tritonc lsp --stdio under hostile input', () => {
  it('completes on a 160,000-character line, and answers a hover right after', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const file = join(repo, 'classifier/config.pbtxt');
    const uri = pathToFileURL(file).href;
    const { c } = await start(repo);
    const line = `parameters { key: "k" value: { string_value: "${'v'.repeat(160_000)}" } } input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ] output [ { name: "y" data_type: TY`;
    const text = `name: "classifier"\nbackend: "onnxruntime"\n${line}`;
    await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text } });
    const items = (await c.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 2, character: line.length } })) as CompletionItem[];
    expect(items.map((i) => i.label)).toContain('TYPE_FP32');
    const hover = await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 2 } });
    expect(JSON.stringify(hover)).toContain('backend');
  });

  it('an open lints once; an edit storm lints the newest version, and a hover behind it is answered', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const uri = pathToFileURL(join(repo, 'classifier/config.pbtxt')).href;
    const { c, published } = await start(repo);
    await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text: CLASSIFIER_CONFIG } });
    // The hover is answered after the open's handlers ran: one publication of version 1.
    await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } });
    expect(published.filter((p) => p.uri === uri).map((p) => p.version)).toEqual([1]);
    // A large buffer, linted, then a hundred keystrokes as editors send them (incremental changes, the
    // sync kind the server asks for), all at once: in one write, so that they reach the server
    // together however loaded the machine is (26 KB, in a pipe that holds 64 KB, emptied by the lint).
    const big = CLASSIFIER_CONFIG + Array.from({ length: 20_000 }, (_, i) => `parameters { key: "p${i}" value: { string_value: "v" } }\n`).join('');
    await c.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: big }] });
    await vi.waitFor(() => expect(published.some((p) => p.uri === uri && p.version === 2)).toBe(true), { timeout: 60_000, interval: 20 });
    const end = { line: big.split('\n').length - 1, character: 0 };
    const frame = (message: unknown): string => {
      const body = JSON.stringify(message);
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const storm = Array.from({ length: 100 }, (_, i) =>
      frame({
        jsonrpc: '2.0',
        method: DidChangeTextDocumentNotification.method,
        params: { textDocument: { uri, version: i + 3 }, contentChanges: [{ range: { start: end, end }, text: '#' }] },
      }),
    ).join('');
    expect(Buffer.byteLength(storm)).toBeLessThan(64 * 1024);
    child!.stdin!.write(storm);
    await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } });
    // Stale versions dropped: the newest of the hundred is the only one linted (this document's lint is
    // slow enough to wait for the edits to pause, so it may come after the hover's answer).
    await vi.waitFor(() => expect(published.some((p) => p.uri === uri && p.version === 102)).toBe(true), { timeout: 60_000, interval: 20 });
    expect(published.filter((p) => p.uri === uri).map((p) => p.version!)).toEqual([1, 2, 102]);
  });

  it.each([
    ['a length that is not a number', 'Content-Length: abc\r\n\r\n{}'],
    ['a header without a length', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}'],
    ['a negative length', 'Content-Length: -5\r\n\r\n{}'],
  ])('%s: logs why and exits non-zero, so the editor restarts it', async (_what, frame) => {
    const p = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child = p;
    const done = exited(p);
    p.stdin.write(frame);
    const { code, stderr } = await done;
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/^tritonc lsp: cannot read a message from the editor \(.+\); exiting, so the editor starts the server again\n/);
  });

  it('URIs that name no local file open and close without breaking what follows', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const uri = pathToFileURL(join(repo, 'classifier/config.pbtxt')).href;
    const { c, published } = await start(repo);
    for (const odd of ['file://otherhost/m/config.pbtxt', 'file:///a%2Fb/config.pbtxt', 'untitled:config.pbtxt', 'file:config.pbtxt']) {
      await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: odd, languageId: 'pbtxt', version: 1, text: CLASSIFIER_CONFIG } });
      await c.sendRequest(HoverRequest.type, { textDocument: { uri: odd }, position: { line: 0, character: 1 } });
      await c.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: odd } });
    }
    await c.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'pbtxt', version: 1, text: CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inptu"') },
    });
    await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } });
    expect(published.find((p) => p.uri === uri)?.diagnostics.map((d) => d.code)).toContain('io-name');
  });
});

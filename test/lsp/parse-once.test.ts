// The language server in process, over a pair of pipes, with the pbtxt parser counted: one version of
// a document is parsed once, whatever the editor asks of it (a hover per mouse move on a 5 MB config
// parsed the whole text again each time), and again after an edit.
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  InlayHintRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';
import { ProposedFeatures, createConnection, StreamMessageReader as ServerReader, StreamMessageWriter as ServerWriter } from 'vscode-languageserver/node.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

/** Every text the parser was given, in order, and whether it was one top-level field's again (`at`): a spy on the one entry point of every parse. */
const parsed: { text: string; field: boolean }[] = [];
vi.mock('../../src/pbtxt/parser.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/pbtxt/parser.js')>();
  return {
    ...real,
    parseText: (text: string, ...rest: unknown[]) => (
      parsed.push({ text, field: 'at' in (rest[1] as object) }),
      (real.parseText as (...a: unknown[]) => unknown)(text, ...rest)
    ),
  };
});
const { startLanguageServer } = await import('../../src/lsp/server.js');

let client: ProtocolConnection | undefined;
afterEach(() => {
  client?.dispose();
  client = undefined;
});

async function start(root: string) {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  startLanguageServer(createConnection(ProposedFeatures.all, new ServerReader(toServer), new ServerWriter(toClient)));
  client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { version: number; resolve: () => void }[] = [];
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const w of waiters.filter((x) => x.version === p.version)) w.resolve();
  });
  client.listen();
  await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await client.sendNotification(InitializedNotification.type, {});
  const diagnosed = (version: number) =>
    new Promise<void>((resolve) => (published.some((p) => p.version === version) ? resolve() : waiters.push({ version, resolve })));
  return { c: client, diagnosed };
}

/** The whole-text parses of `text`; with `fields`, also those of one of its top-level fields again (a location asked for in a lean document). */
const parsesOf = (text: string, fields = false): number => parsed.filter((p) => p.text === text && (fields || !p.field)).length;

describe('the language server parses each document version once', () => {
  it('lint, hovers, completions, definitions and inlay hints of one version share one parse; an edit parses again', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const file = join(repo, 'classifier/config.pbtxt');
    const uri = pathToFileURL(file).href;
    const { c, diagnosed } = await start(repo);
    const text = CLASSIFIER_CONFIG.replace('max_batch_size: 8', 'max_batch_size: 4');
    await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text } });
    await diagnosed(1);
    const afterLint = parsesOf(text);
    expect(afterLint).toBeGreaterThan(0);

    const line = text.split('\n').findIndex((l) => l.startsWith('max_batch_size'));
    const ask = async () => {
      const hover = await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: 3 } });
      expect((hover!.contents as { value: string }).value).toContain('**max_batch_size**: int32');
      await c.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character: 0 } });
      await c.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line, character: 3 } });
      await c.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } });
    };
    await ask();
    // The lint's parse is the requests' too; at most the tree, which a clean config's lint skips, is made once.
    const afterFirst = parsesOf(text);
    expect(afterFirst - afterLint).toBeLessThanOrEqual(1);
    // Nothing is parsed again, not even a field for a location.
    const everything = parsesOf(text, true);
    for (let i = 0; i < 10; i++) await ask();
    expect(parsesOf(text, true)).toBe(everything);

    // A new version is parsed again, and its hover says so.
    const edited = text.replace('max_batch_size: 4', 'max_batch_size: 16');
    await c.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const hover = await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character: 3 } });
    expect((hover!.contents as { value: string }).value).toContain('Triton will use: `16`');
    expect(parsesOf(edited)).toBeGreaterThan(0);
    await ask();
    const once = parsesOf(edited, true);
    for (let i = 0; i < 5; i++) await ask();
    expect(parsesOf(edited, true)).toBe(once);
  });
});

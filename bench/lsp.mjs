#!/usr/bin/env node
// Bench: `tritonc lsp --stdio` on a 200 KB config.pbtxt beside its ONNX model: the time from a keystroke
// (a didChange with the whole buffer, as most clients send it) to the diagnostics of that version.
// Target (issue 13): under 50 ms.
//
//   node bench/lsp.mjs      (npm run bench builds dist/ first)
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  ShutdownRequest,
  ExitNotification,
} from 'vscode-languageserver-protocol/node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const repo = mkdtempSync(join(tmpdir(), 'tritonc-bench-lsp-'));
const dir = join(repo, 'classifier');
mkdirSync(join(dir, '1'), { recursive: true });
cpSync(join(root, 'model_repository/classifier/1/model.onnx'), join(dir, '1', 'model.onnx'));
const head =
  'name: "classifier"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
let body = '';
for (let i = 0; body.length < 200_000; i++) body += `parameters { key: "setting_${i}" value: { string_value: "value number ${i} of the bench" } }\n`;
const text = head + body;
const file = join(dir, 'config.pbtxt');
const uri = pathToFileURL(file).href;

const child = spawn(process.execPath, [join(root, 'bin/tritonc.js'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
let waiting;
connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
  if (p.uri === uri && waiting && p.version === waiting.version) waiting.resolve();
});
connection.listen();
await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(repo).href, capabilities: {}, workspaceFolders: null });
await connection.sendNotification(InitializedNotification.type, {});

const published = (version) => new Promise((resolve) => (waiting = { version, resolve }));
let done = published(1);
await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text } });
await done;
const times = [];
for (let v = 2; v < 42; v++) {
  const edited = text.replace('max_batch_size: 8', `max_batch_size: ${v % 2 ? 8 : 16}`);
  done = published(v);
  const t0 = performance.now();
  await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: v }, contentChanges: [{ text: edited }] });
  await done;
  times.push(performance.now() - t0);
}
await connection.sendRequest(ShutdownRequest.type);
await connection.sendNotification(ExitNotification.type);
connection.dispose();
child.kill();
rmSync(repo, { recursive: true, force: true });
times.sort((a, b) => a - b);
const median = times[times.length >> 1];
const p90 = times[Math.floor(times.length * 0.9)];
console.log(`\nlsp: a ${(text.length / 1000).toFixed(0)} KB config.pbtxt beside its ONNX model`);
console.log(`  keystroke -> diagnostics   median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms (target < 50 ms)`);
console.log(median < 50 ? '  target met' : '  TARGET MISSED');

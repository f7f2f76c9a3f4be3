#!/usr/bin/env node
// Fault injection, bounded in time: mutated configs through the text-format parser and formatter,
// mutated ONNX files and SavedModels through the model readers (both in this process), mutated repositories through
// the CLI as real processes (lint, fmt --check, generate, inspect), the language server fed random
// edits, requests and malformed frames, and repositories in an S3 endpoint that misbehaves
// (fixtures/remote/hostile-s3.mjs: no Range, oversized bodies, endless pages, garbage, refusals), each
// with a deadline so a hang counts as one. Reports runs, exit codes, hangs, crashes and peak RSS (of
// this process, and of every child, sampled); any uncaught exception, hang, crash, exit outside 0/1/2,
// stack trace, or child above MAX_CHILD_RSS is a finding and makes the exit code 1. Also the cost of
// syntax errors by file size, which must grow linearly (a ratio near the size ratio).
//
//   node bench/fuzz.mjs [--seconds 60] [--seed 1]
//
// Needs dist/ (npm run bench builds it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatText, parseConfig, readOpenVinoSync, readSavedModelSync, readSignatureSync } from '../dist/index.js';
import { startHostileS3 } from '../fixtures/remote/hostile-s3.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const SECONDS = arg('--seconds', 60);
let seed = arg('--seed', 1) >>> 0;
/** mulberry32: the same seed gives the same cases, so a finding can be replayed. */
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const configsDir = path.join(root, 'test', 'fixtures', 'configs');
const configs = fs
  .readdirSync(configsDir)
  .filter((f) => f.endsWith('.pbtxt'))
  .map((f) => fs.readFileSync(path.join(configsDir, f), 'utf8'));
const model = fs.readFileSync(path.join(root, 'model_repository', 'classifier', '1', 'model.onnx'));
// Python models: Triton's qa model.py files, mutated, read by the auto_complete_config reader (lint, resolve, generate).
const pythonDir = path.join(root, 'fixtures', 'models', 'python');
const modelPys = [
  path.join(pythonDir, 'auto_complete', 'model.py'),
  ...['conflicting_scheduler_sequence', 'model_transaction_policy_mismatch', 'no_return'].map((c) =>
    path.join(pythonDir, 'L0_model_config', 'autofill_noplatform', 'python', c, 'model.py'),
  ),
].map((f) => fs.readFileSync(f, 'utf8'));
const PY_TOKENS = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '"""',
  '\\',
  '\n',
  '\t',
  '    ',
  '#',
  ':',
  ',',
  '=',
  'for x in ',
  'if ',
  'dict(',
  'auto_complete_model_config.',
  'return ',
  '@classmethod\n',
  'r"',
  'f"',
];
function mutatePython(text) {
  let out = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = random();
    if (kind < 0.5) out = out.slice(0, at) + pick(PY_TOKENS) + out.slice(at);
    else if (kind < 0.8) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 20));
    else out = out.slice(0, at) + out.slice(Math.floor(random() * out.length), at) + out.slice(at);
  }
  return out;
}
// A TorchScript export (fixtures/models/pytorch): mutated, it goes through the ZIP and forward readers.
const torchModel = fs.readFileSync(path.join(root, 'fixtures', 'models', 'pytorch', 'libtorch_float32_float32_float32', '1', 'model.pt'));
const TORCH_CONFIG =
  'backend: "pytorch"\nmax_batch_size: 8\ninput [ { name: "INPUT__0" data_type: TYPE_FP32 dims: [ 16 ] }, { name: "INPUT__1" data_type: TYPE_FP32 dims: [ 16 ] } ]\noutput [ { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [ 16 ] } ]\n';
// OpenVINO IRs: model.xml (text, mutated as text and as bytes) with its .bin beside it.
const irDir = path.join(root, 'fixtures', 'models', 'openvino');
const irs = fs
  .readdirSync(irDir)
  .map((m) => ({ xml: fs.readFileSync(path.join(irDir, m, '1', 'model.xml'), 'utf8'), bin: fs.readFileSync(path.join(irDir, m, '1', 'model.bin')) }));
const savedModels = fs
  .readdirSync(path.join(root, 'fixtures', 'models', 'tensorflow'))
  .filter((m) => m.startsWith('savedmodel_'))
  .map((m) => fs.readFileSync(path.join(root, 'fixtures', 'models', 'tensorflow', m, '1', 'model.savedmodel', 'saved_model.pb')));
const TOKENS = [
  '{',
  '}',
  '[',
  ']',
  '<',
  '>',
  ':',
  ',',
  '"',
  "'",
  '\\',
  '\0',
  '\n',
  '#',
  '0x',
  '-',
  '1e9999',
  'nan',
  '\uFEFF',
  '\r\n',
  '\\U00110000',
  '\\xff',
  'é',
  '${x}',
  'input',
  'dims',
  ' ',
];

function mutateText(text) {
  let out = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    const kind = random();
    if (kind < 0.4) out = out.slice(0, at) + pick(TOKENS) + out.slice(at);
    else if (kind < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(random() * 20));
    else if (kind < 0.9) out = out.slice(0, at) + out.slice(Math.floor(random() * out.length), at) + out.slice(at);
    else out = out.slice(0, at);
  }
  return out;
}

function mutateBytes(bytes) {
  const out = Buffer.from(bytes.subarray(0, random() < 0.2 ? Math.floor(random() * bytes.length) : bytes.length));
  const edits = 1 + Math.floor(random() * 8);
  // Most of a model is weights: hit the header, where the structure is, more often.
  for (let e = 0; e < edits && out.length; e++) out[Math.floor(random() ** 3 * out.length)] = Math.floor(random() * 256);
  return out;
}

const findings = [];
const tally = new Map();
const count = (key) => tally.set(key, (tally.get(key) ?? 0) + 1);
let peakRss = process.memoryUsage().rss;
const deadline = Date.now() + SECONDS * 1000;

// 1. In-process: parser, formatter, model reader. Each must return or throw its own error type.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tritonc-fuzz-'));
const modelFile = path.join(dir, 'fuzz.onnx');
const irFile = path.join(dir, 'fuzz.xml');
const irBin = path.join(dir, 'fuzz.bin');
const savedModelDir = path.join(dir, 'fuzz.savedmodel');
fs.mkdirSync(savedModelDir);
const started = Date.now();
const inProcessUntil = started + SECONDS * 1000 * 0.35;
const cliUntil = started + SECONDS * 1000 * 0.65;
const lspUntil = started + SECONDS * 1000 * 0.82;
/** A child above this resident size is a finding: every input here is small. */
const MAX_CHILD_RSS = 512 * 2 ** 20;
let peakChildRss = 0;
while (Date.now() < inProcessUntil) {
  const text = mutateText(pick(configs));
  try {
    parseConfig(text);
    const f = formatText(text);
    if (f.status === 'unsafe') findings.push(`formatter: ${f.reason}: ${JSON.stringify(text.slice(0, 200))}`);
    count('parse+format');
  } catch (e) {
    findings.push(`parser threw ${e?.name}: ${e?.message} on ${JSON.stringify(text.slice(0, 200))}`);
  }
  fs.writeFileSync(modelFile, mutateBytes(model));
  try {
    readSignatureSync(modelFile);
    count('onnx read');
  } catch (e) {
    if (e?.name === 'ModelReadError') count('onnx refused');
    else findings.push(`model reader threw ${e?.name}: ${e?.message} (seed state ${seed})`);
  }
  const ir = pick(irs);
  fs.writeFileSync(irFile, random() < 0.5 ? mutateText(ir.xml) : mutateBytes(Buffer.from(ir.xml)));
  fs.writeFileSync(irBin, random() < 0.8 ? ir.bin : ir.bin.subarray(0, Math.floor(random() * ir.bin.length)));
  try {
    readOpenVinoSync(irFile);
    count('openvino read');
  } catch (e) {
    if (e?.name === 'ModelReadError') count('openvino refused');
    else findings.push(`OpenVINO reader threw ${e?.name}: ${e?.message} (seed state ${seed})`);
  }
  fs.writeFileSync(path.join(savedModelDir, 'saved_model.pb'), mutateBytes(pick(savedModels)));
  try {
    readSavedModelSync(savedModelDir);
    count('savedmodel read');
  } catch (e) {
    if (e?.name === 'ModelReadError') count('savedmodel refused');
    else findings.push(`SavedModel reader threw ${e?.name}: ${e?.message} (seed state ${seed})`);
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

// 2. The CLI as a real process, on a repository whose config and model are mutated each round.
const repo = path.join(dir, 'repo');
fs.mkdirSync(path.join(repo, 'm', '1'), { recursive: true });
fs.mkdirSync(path.join(repo, 'py', '1'), { recursive: true });
fs.mkdirSync(path.join(repo, 't', '1'), { recursive: true });
const bin = path.join(root, 'bin', 'tritonc.js');
/** The resident size of a process now (Linux /proc), or 0. */
const rssOf = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};
/** Samples a child's RSS every 25 ms; returns a function that stops and gives the peak. */
const watchRss = (child) => {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(child.pid))), 25);
  return () => {
    clearInterval(timer);
    peakChildRss = Math.max(peakChildRss, peak);
    return peak;
  };
};
const run = (argv, options = {}) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], {
      cwd: options.cwd ?? repo,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const peak = watchRss(child);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, rss: peak() });
    });
  });
/** The common judgement of a CLI run: a finding for a hang, a crash, an odd exit, a stack trace, a child grown too large. */
const judge = (what, r) => {
  if (r.signal) findings.push(`${what}: killed by ${r.signal === 'SIGKILL' ? 'the 20 s deadline (a hang)' : r.signal}`);
  else if (![0, 1, 2].includes(r.code)) findings.push(`${what}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
  else if (/\n\s+at /.test(r.stderr)) findings.push(`${what}: a stack trace on stderr`);
  if (r.rss > MAX_CHILD_RSS) findings.push(`${what}: peak RSS ${(r.rss / 2 ** 20).toFixed(0)} MiB`);
};
while (Date.now() < cliUntil) {
  fs.writeFileSync(path.join(repo, 'm', 'config.pbtxt'), mutateText(pick(configs)).replace(/name: "[^"]*"/, 'name: "m"'));
  fs.writeFileSync(path.join(repo, 'm', '1', 'model.onnx'), random() < 0.5 ? model : mutateBytes(model));
  fs.writeFileSync(path.join(repo, 'py', '1', 'model.py'), mutatePython(pick(modelPys)));
  if (random() < 0.5)
    fs.writeFileSync(
      path.join(repo, 'py', 'config.pbtxt'),
      mutateText(pick(configs))
        .replace(/name: "[^"]*"/, 'name: "py"')
        .replace(/(backend|platform): "[^"]*"/, 'backend: "python"'),
    );
  else fs.rmSync(path.join(repo, 'py', 'config.pbtxt'), { force: true });
  fs.writeFileSync(path.join(repo, 't', 'config.pbtxt'), random() < 0.5 ? TORCH_CONFIG : mutateText(TORCH_CONFIG));
  fs.writeFileSync(path.join(repo, 't', '1', 'model.pt'), random() < 0.3 ? torchModel : mutateBytes(torchModel));
  const argv = pick([
    ['lint', '.'],
    ['fmt', '--check', '.'],
    ['generate', 'm'],
    ['inspect', 'm/1/model.onnx'],
    ['resolve', 'm'],
    ['resolve', 'py'],
    ['generate', 'py'],
    ['inspect', 't/1/model.pt'],
    ['generate', 't'],
  ]);
  const r = await run(argv);
  count(`cli ${argv[0]} exit ${r.signal ?? r.code}`);
  judge(`tritonc ${argv.join(' ')}`, r);
}

// 3. The language server, as an editor drives it: random documents, edits and requests, and now and
// then a frame it cannot read, after which it must log why and exit non-zero (and is started again).
// After each batch a hover must be answered within 10 s: a server that stops answering is a hang.
const frame = (message) => {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
};
const BAD_FRAMES = ['Content-Length: abc\r\n\r\n{}', 'Content-Type: x\r\n\r\n{}', 'Content-Length: -5\r\n\r\n{}'];
function startLsp() {
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
  const lsp = { child, peak: watchRss(child), answers: new Map(), stderr: '', exited: undefined, buffer: Buffer.alloc(0), id: 0 };
  child.stdin.on('error', () => undefined);
  child.stderr.on('data', (d) => (lsp.stderr += d));
  child.on('exit', (code, signal) => (lsp.exited = { code, signal }));
  child.stdout.on('data', (d) => {
    lsp.buffer = Buffer.concat([lsp.buffer, d]);
    for (;;) {
      const end = lsp.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(lsp.buffer.subarray(0, end).toString())?.[1]);
      if (lsp.buffer.length < end + 4 + length) return;
      const message = JSON.parse(lsp.buffer.subarray(end + 4, end + 4 + length).toString());
      lsp.buffer = lsp.buffer.subarray(end + 4 + length);
      if (message.id !== undefined && lsp.answers.has(message.id)) lsp.answers.get(message.id)(message);
    }
  });
  lsp.request = (method, params, ms = 10_000) =>
    new Promise((resolve) => {
      const id = ++lsp.id;
      const timer = setTimeout(() => resolve(undefined), ms);
      lsp.answers.set(id, (m) => (clearTimeout(timer), resolve(m)));
      child.stdin.write(frame({ jsonrpc: '2.0', id, method, params }));
    });
  lsp.notify = (method, params) => child.stdin.write(frame({ jsonrpc: '2.0', method, params }));
  return lsp;
}
const lspFile = path.join(repo, 'm', 'config.pbtxt');
const lspUri = `file://${lspFile}`;
let lsp;
while (Date.now() < lspUntil) {
  if (!lsp || lsp.exited) {
    lsp = startLsp();
    if (!(await lsp.request('initialize', { processId: process.pid, rootUri: `file://${repo}`, capabilities: {} }))) {
      findings.push(`lsp: no answer to initialize: ${lsp.stderr.slice(0, 300)}`);
      break;
    }
    lsp.notify('initialized', {});
    lsp.version = 1;
    lsp.notify('textDocument/didOpen', { textDocument: { uri: lspUri, languageId: 'pbtxt', version: 1, text: pick(configs) } });
  }
  let text = pick(configs);
  for (let i = 0, n = 1 + Math.floor(random() * 30); i < n; i++) {
    // Now and then a long document (up to some hundreds of KB: the edit storm of a large config).
    text = mutateText(random() < 0.1 && text.length < 20_000 ? text.repeat(1 + Math.floor(random() * 20)) : text);
    lsp.notify('textDocument/didChange', { textDocument: { uri: lspUri, version: ++lsp.version }, contentChanges: [{ text }] });
    const line = Math.floor(random() * 40);
    const character = Math.floor(random() * 200);
    const method = pick([
      'textDocument/hover',
      'textDocument/completion',
      'textDocument/formatting',
      'textDocument/inlayHint',
      'textDocument/definition',
      'textDocument/codeAction',
    ]);
    void lsp.request(method, {
      textDocument: { uri: lspUri },
      position: { line, character },
      range: { start: { line: 0, character: 0 }, end: { line: 60, character: 0 } },
      options: { tabSize: 2, insertSpaces: true },
      context: { diagnostics: [] },
    });
    count(`lsp ${method.slice('textDocument/'.length)}`);
  }
  if (random() < 0.15) {
    const bad = pick(BAD_FRAMES);
    lsp.child.stdin.write(bad);
    const until = Date.now() + 10_000;
    while (!lsp.exited && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const rss = lsp.peak();
    if (rss > MAX_CHILD_RSS) findings.push(`lsp: peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
    if (!lsp.exited) findings.push(`lsp: still running 10 s after a malformed frame ${JSON.stringify(bad)}`);
    else if (lsp.exited.code === 0 || !/cannot read a message from the editor/.test(lsp.stderr))
      findings.push(`lsp: a malformed frame ended it with ${JSON.stringify(lsp.exited)} and ${JSON.stringify(lsp.stderr.slice(0, 200))}`);
    count('lsp malformed frame, exited');
    lsp.child.kill('SIGKILL');
    continue;
  }
  const answer = await lsp.request('textDocument/hover', { textDocument: { uri: lspUri }, position: { line: 0, character: 1 } });
  if (!answer)
    findings.push(
      `lsp: no answer to a hover within 10 s after ${lsp.version} versions${lsp.exited ? ` (it exited: ${JSON.stringify(lsp.exited)}: ${lsp.stderr.slice(0, 300)})` : ''}`,
    );
  else count('lsp answered after a batch');
  if (/\n\s+at /.test(lsp.stderr) && !/failed: /.test(lsp.stderr)) findings.push(`lsp: a stack trace on stderr: ${lsp.stderr.slice(0, 300)}`);
}
if (lsp && !lsp.exited) {
  const rss = lsp.peak();
  if (rss > MAX_CHILD_RSS) findings.push(`lsp: peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
  lsp.child.kill('SIGKILL');
}

// 4. Repositories in an S3 endpoint that misbehaves, linted by the CLI: each ends in exit 0, 1 or 2,
// bounded in time and memory, whatever the store sends.
while (Date.now() < deadline) {
  const mode = pick(['honest', 'no-range', 'oversized', 'endless-pages', 'garbage', 'forbidden', 'redirect']);
  const objects = {
    'repo/m/config.pbtxt': Buffer.from(mutateText(pick(configs)).replace(/name: "[^"]*"/, 'name: "m"')),
    'repo/m/1/model.onnx': random() < 0.5 ? model : mutateBytes(model),
  };
  if (random() < 0.3) objects[`repo/${mutateText('weird')}/config.pbtxt`] = Buffer.from('name: "x"');
  const store = await startHostileS3(objects, mode, Math.floor(random() * 1000));
  const r = await run(['lint', `s3://${store.url}/models/repo`], {
    cwd: dir,
    env: { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  await store.close();
  count(`remote ${mode} exit ${r.signal ?? r.code}`);
  judge(`tritonc lint s3:// (${mode})`, r);
}

// 5. Syntax errors by size: the cost must grow with the size, not its square.
const junk = (bytes) => {
  let s = '';
  while (s.length < bytes) s += pick(['{', '}', 'x: ', '"a', '[', ']', ':', '1.5e', '\n', 'name: "q"']);
  return s.slice(0, bytes);
};
const timeParse = (text) => {
  const t0 = performance.now();
  parseConfig(text);
  return performance.now() - t0;
};
// Sizes past the JIT's warm-up, where the cost per byte has settled.
const small = junk(100_000);
const large = junk(1_000_000);
timeParse(small);
const smallMs = Math.min(timeParse(small), timeParse(small), timeParse(small));
const largeMs = Math.min(timeParse(large), timeParse(large), timeParse(large));
fs.rmSync(dir, { recursive: true, force: true });

console.log(`\nfuzz: ${SECONDS} s, seed ${arg('--seed', 1)}`);
for (const [k, v] of [...tally].sort()) console.log(`  ${k.padEnd(28)} ${v}`);
console.log(
  `  peak RSS of the in-process cases: ${(peakRss / 2 ** 20).toFixed(0)} MiB; of any child (CLI, language server): ${(peakChildRss / 2 ** 20).toFixed(0)} MiB (bound ${MAX_CHILD_RSS / 2 ** 20} MiB)`,
);
console.log(
  `syntax errors: 100 KB of them parse in ${smallMs.toFixed(1)} ms, 1 MB in ${largeMs.toFixed(1)} ms: ${(largeMs / smallMs).toFixed(1)}x for 10x the size (target: about 10x, linear)`,
);
if (findings.length) {
  console.log(`findings (${findings.length}):`);
  for (const f of findings.slice(0, 20)) console.log(`  ${f}`);
  process.exitCode = 1;
} else {
  console.log('findings: none (no uncaught exception, hang, crash or unexpected exit)');
}

#!/usr/bin/env node
// Fault injection, bounded in time: mutated configs through the text-format parser and formatter,
// mutated ONNX files through the model reader (both in this process), and mutated repositories
// through the CLI as real processes (lint, fmt --check, generate, inspect), each with a deadline so a
// hang counts as one. Reports runs, exit codes, hangs, crashes and peak RSS; any uncaught exception,
// hang, crash or exit outside 0/1/2 is a finding and makes the exit code 1. Also the cost of syntax
// errors by file size, which must grow linearly (a ratio near the size ratio).
//
//   node bench/fuzz.mjs [--seconds 60] [--seed 1]
//
// Needs dist/ (npm run bench builds it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatText, parseConfig, readSignatureSync } from '../dist/index.js';

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
const configs = fs.readdirSync(configsDir).filter((f) => f.endsWith('.pbtxt')).map((f) => fs.readFileSync(path.join(configsDir, f), 'utf8'));
const model = fs.readFileSync(path.join(root, 'model_repository', 'classifier', '1', 'model.onnx'));
const TOKENS = ['{', '}', '[', ']', '<', '>', ':', ',', '"', "'", '\\', '\0', '\n', '#', '0x', '-', '1e9999', 'nan', '\uFEFF', '\r\n', '\\U00110000', '\\xff', 'é', '${x}', 'input', 'dims', ' '];

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
const inProcessUntil = Date.now() + (SECONDS * 1000) / 2;
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
    if (e?.name === 'OnnxReadError') count('onnx refused');
    else findings.push(`model reader threw ${e?.name}: ${e?.message} (seed state ${seed})`);
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

// 2. The CLI as a real process, on a repository whose config and model are mutated each round.
const repo = path.join(dir, 'repo');
fs.mkdirSync(path.join(repo, 'm', '1'), { recursive: true });
const bin = path.join(root, 'bin', 'tritonc.js');
const run = (argv) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
while (Date.now() < deadline) {
  fs.writeFileSync(path.join(repo, 'm', 'config.pbtxt'), mutateText(pick(configs)).replace(/name: "[^"]*"/, 'name: "m"'));
  fs.writeFileSync(path.join(repo, 'm', '1', 'model.onnx'), random() < 0.5 ? model : mutateBytes(model));
  const argv = pick([['lint', '.'], ['fmt', '--check', '.'], ['generate', 'm'], ['inspect', 'm/1/model.onnx'], ['resolve', 'm']]);
  const r = await run(argv);
  count(`cli ${argv[0]} exit ${r.signal ?? r.code}`);
  if (r.signal) findings.push(`tritonc ${argv.join(' ')}: killed by ${r.signal === 'SIGKILL' ? 'the 20 s deadline (a hang)' : r.signal}`);
  else if (![0, 1, 2].includes(r.code)) findings.push(`tritonc ${argv.join(' ')}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
  else if (/\n\s+at /.test(r.stderr)) findings.push(`tritonc ${argv.join(' ')}: a stack trace on stderr`);
}

// 3. Syntax errors by size: the cost must grow with the size, not its square.
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
console.log(`  peak RSS of the in-process cases: ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
console.log(`syntax errors: 100 KB of them parse in ${smallMs.toFixed(1)} ms, 1 MB in ${largeMs.toFixed(1)} ms: ${(largeMs / smallMs).toFixed(1)}x for 10x the size (target: about 10x, linear)`);
if (findings.length) {
  console.log(`findings (${findings.length}):`);
  for (const f of findings.slice(0, 20)) console.log(`  ${f}`);
  process.exitCode = 1;
} else {
  console.log('findings: none (no uncaught exception, hang, crash or unexpected exit)');
}

#!/usr/bin/env node
// Bench: tritonc's seek-based ONNX signature reader vs decoding the whole file (readFileSync +
// onnx-proto) vs creating an ONNX Runtime session, on streamed models of 1.5 GiB (the largest a full
// decode can take), 2.1 GiB and 5 GiB. Every measurement runs in its own process so its peak RSS is
// its own. Results are ratios within this run, never absolute thresholds in tests.
//
//   node bench/onnx-inspect.mjs [--quick] [--runs N] [--keep]
//
// --quick uses 256 MiB / 2.1 GiB models; the 2.1 and 5 GiB models are sparse files (no disk space).
// Targets: reader >= 20x faster than a full decode, reader peak RSS under 100 MB.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const keep = args.includes('--keep');
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
const GiB = 1024 ** 3;

// 1. Bundle the reader and the big-model generator (TypeScript) into bench/.out/.
await build({
  stdin: {
    contents: "export * from '../src/onnx/index.ts'; export { writeBigModel } from '../fixtures/onnx/big-model.ts';",
    resolveDir: here,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: path.join(here, '.out', 'onnx-bench-lib.mjs'),
  logLevel: 'warning',
});
const { writeBigModel } = await import('./.out/onnx-bench-lib.mjs');

// 2. Models, written into a temp dir.
const dir = fs.mkdtempSync(path.join(process.env.TRITONC_BENCH_DIR ?? os.tmpdir(), 'tritonc-bench-onnx-'));
const models = [
  {
    label: quick ? '256 MiB' : '1.5 GiB',
    target: quick ? 0.25 * GiB : 1.5 * GiB,
    fill: 'zeros',
    methods: ['baseline', 'reader', 'reader-sync', 'decode', 'ort'],
  },
  { label: '1.5 GiB, external data', target: 1.5 * GiB, fill: 'holes', external: true, methods: ['reader', 'ort'], skip: quick },
  { label: '2.1 GiB', target: 2.1 * GiB, fill: 'holes', methods: ['reader', 'decode', 'ort'] },
  { label: '5 GiB', target: 5 * GiB, fill: 'holes', methods: ['reader', 'reader-sync'], skip: quick },
].filter((m) => !m.skip);

function measure(method, file) {
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const line = execFileSync(process.execPath, [path.join(here, 'onnx-inspect-worker.mjs'), method, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    out.push({ ...JSON.parse(line.trim().split('\n').pop()), wallMs });
    if (!out[out.length - 1].ok) break; // a failure repeats; once is enough
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const first = out[0];
  return {
    method,
    ok: out.every((r) => r.ok),
    error: out.find((r) => !r.ok)?.error,
    detail: first.detail,
    ms: median(out.map((r) => r.ms ?? 0)),
    wallMs: median(out.map((r) => r.wallMs)),
    maxRssMB: Math.max(...out.map((r) => r.maxRssMB)),
  };
}

const fmt = (n, d = 1) => (n === undefined ? '-' : n.toFixed(d));
const results = [];
try {
  for (const m of models) {
    const t0 = Date.now();
    const info = await writeBigModel(path.join(dir, m.label.replace(/\W+/g, '_'), 'model.onnx'), {
      targetBytes: m.target,
      fill: m.fill,
      externalData: m.external ?? false,
    });
    console.log(
      `\n## ${m.label}: ${(info.fileBytes / GiB).toFixed(2)} GiB file, ${info.initializers} initializers, ${info.nodes} nodes (written in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${m.fill})`,
    );
    console.log('method       |  op ms | process ms | peak RSS MB | result');
    console.log('-------------|--------|------------|-------------|-------');
    const rows = {};
    for (const method of m.methods) {
      const r = measure(method, info.path);
      rows[method] = r;
      console.log(
        `${method.padEnd(12)} | ${fmt(r.ms).padStart(6)} | ${fmt(r.wallMs, 0).padStart(10)} | ${String(r.maxRssMB).padStart(11)} | ${r.ok ? (r.detail ?? 'ok') : `FAILED: ${r.error}`}`,
      );
    }
    results.push({ model: m.label, fileBytes: info.fileBytes, rows });
    fs.rmSync(path.dirname(info.path), { recursive: true, force: true });
  }
} finally {
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
}

// 3. Ratios and targets.
console.log('\n## ratios (same run)');
let pass = true;
for (const { model, rows } of results) {
  const reader = rows.reader;
  if (!reader?.ok) {
    console.log(`${model}: reader FAILED`);
    pass = false;
    continue;
  }
  const parts = [];
  for (const other of ['decode', 'ort']) {
    const r = rows[other];
    if (!r) continue;
    if (!r.ok) {
      parts.push(`${other} fails (${r.error})`);
      continue;
    }
    const opRatio = r.ms / reader.ms;
    const wallRatio = r.wallMs / reader.wallMs;
    parts.push(`${other}/reader: ${fmt(opRatio, 0)}x in-process, ${fmt(wallRatio, 1)}x per process, RSS ${r.maxRssMB} vs ${reader.maxRssMB} MB`);
    if (other === 'decode' && opRatio < 20) pass = false;
  }
  const baseline = rows.baseline?.maxRssMB;
  parts.push(`reader RSS ${reader.maxRssMB} MB${baseline ? ` (bare node ${baseline} MB)` : ''}`);
  if (reader.maxRssMB >= 100) pass = false;
  console.log(`${model}: ${parts.join('; ')}`);
}
console.log(`\ntargets (reader >= 20x faster than a full decode, reader peak RSS < 100 MB): ${pass ? 'MET' : 'MISSED'}`);

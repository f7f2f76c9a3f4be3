#!/usr/bin/env node
// Bench (issue 43 item 5): the readers of verify --reference ort's input files (.npy, .npz stored and
// deflated, JSON nested arrays, and the fit of an array to the model) at input sizes n, 2n, 4n, 8n,
// with the ratio of each size's time to the one before (linear: about 2x a doubling; a square: 4x).
// In one process, the fastest of 9 passes per size.
//
//   node bench/input-readers-scale.mjs [--quick]   (npm run bench runs it; --quick: n halved)
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const lib = path.join(here, '.out', 'input-readers-bench-lib.mjs');
await build({
  stdin: {
    contents: [
      "export { parseNpy } from '../src/verify/user-inputs/npy.ts';",
      "export { parseNpz } from '../src/verify/user-inputs/npz.ts';",
      "export { parseJsonText, tensorsOfJson } from '../src/verify/user-inputs/json-tensors.ts';",
      "export { referenceInputs } from '../src/verify/reference-inputs.ts';",
    ].join('\n'),
    resolveDir: here,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: lib,
  logLevel: 'warning',
});
const L = await import(lib);

function npy(count) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${count},), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 0, 0]);
  pre.writeUInt16LE(header.length, 8);
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = Math.sin(i);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]);
}
function zipOf(entries) {
  const locals = [],
    centrals = [];
  let offset = 0;
  for (const { name, data, method } of entries) {
    const body = method === 8 ? zlib.deflateRawSync(data) : data;
    const n = Buffer.from(name);
    const local = Buffer.alloc(30),
      central = Buffer.alloc(46);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, body);
    centrals.push(central, n);
    offset += 30 + n.length + body.length;
  }
  const cd = Buffer.concat(centrals),
    eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}
const spec = (count) => [{ name: 'x', dataType: 'TYPE_FP32', dims: [count], modelDims: [count], optional: false }];
const base = quick ? 1 << 18 : 1 << 19;
const cases = {
  npy: (n) => {
    const b = npy(n);
    return () => L.parseNpy(b, 'x.npy');
  },
  'npz stored': (n) => {
    const b = zipOf([{ name: 'x.npy', data: npy(n), method: 0 }]);
    return () => L.parseNpz(b, 'x.npz');
  },
  'npz deflate': (n) => {
    const b = zipOf([{ name: 'x.npy', data: npy(n), method: 8 }]);
    return () => L.parseNpz(b, 'x.npz');
  },
  'json nested': (n) => {
    const rows = [];
    for (let r = 0; r < n / 64; r++) rows.push(Array.from({ length: 64 }, (_, k) => Math.round(Math.sin(r * 64 + k) * 1e4) / 1e4));
    const b = Buffer.from(JSON.stringify({ x: rows }));
    return () => L.tensorsOfJson(L.parseJsonText(b, 'x.json'), 'x.json');
  },
  'fit to model': (n) => {
    const a = { name: 'x', source: 'x.npy', ...L.parseNpy(npy(n), 'x.npy') };
    return () => L.referenceInputs([a], spec(n), 0, 1, new Map());
  },
};
const fmt = (x, d = 2) => x.toFixed(d);
console.log('\nverify --reference ort input readers against input size (issue 43): time, each size against the one before');
console.log('reader          elements    time      x prev');
for (const [name, make] of Object.entries(cases)) {
  const runs = [];
  for (const k of [1, 2, 4, 8]) {
    const n = base * k;
    const run = make(n);
    let best = Infinity;
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      run();
      best = Math.min(best, performance.now() - t);
    }
    const prev = runs.at(-1);
    runs.push({ n, ms: best });
    console.log(`${name.padEnd(15)} ${String(n).padStart(9)}  ${fmt(best).padStart(8)} ms  ${prev ? `${fmt(best / prev.ms, 1)}x` : ''}`);
  }
  console.log(`${''.padEnd(15)} 8n against n: ${fmt(runs[3].ms / runs[0].ms, 1)}x (linear 8x, a square 64x)`);
}

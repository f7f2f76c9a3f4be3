#!/usr/bin/env node
// Bench (issue 42 item 6): every model-file reader at input sizes n, 2n, 4n, 8n, with the ratio of
// each size's time and memory to the one before (linear: about 2x a doubling; a square: 4x). Each
// input grows what a hostile file grows: ONNX graph inputs, OpenVINO Result layers on one producer
// (the case that grew with the square), TorchScript classes before the one with forward (idem),
// SavedModel meta graphs, and a Python model's dict literal of n keys (idem).
//
// Each (reader, size) runs in two processes of their own: one makes the input and writes it to a
// file, the other loads it and reads it once for the peak memory the read adds (max RSS after the read
// less max RSS before it, the input's bytes already loaded), then the fastest of a few more passes for
// the time. The constants (us and bytes of
// memory per input byte) are in docs/performance.md.
//
//   node bench/readers-scale.mjs [--quick]   (npm run bench runs it; --quick: n halved)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const lib = path.join(here, '.out', 'readers-bench-lib.mjs');

await build({
  stdin: {
    contents: [
      "export { readSignatureOfBytes } from '../src/onnx/reader.ts';",
      "export { readOpenVinoOfBytes } from '../src/openvino/reader.ts';",
      "export { readTorchSignatureOfBytes } from '../src/pytorch/reader.ts';",
      "export { readSavedModelOfBytes } from '../src/savedmodel/reader.ts';",
      "export { readAutoCompleteConfig } from '../src/python-model/auto-complete-config.ts';",
      "export { model, tensorInfo, node, encodeModel, T } from '../fixtures/onnx/model-builder.ts';",
      "export { buildZip } from '../test/pytorch/zip-builder.ts';",
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

// The worker: `make` writes the input of `reader` at size `n` to `file`; `read` reads it and prints one JSON line.
const WORKER = String.raw`
import { readFileSync, writeFileSync } from 'node:fs';
const L = await import(process.argv[1]);
const [reader, n, root, mode, file] = [process.argv[2], Number(process.argv[3]), process.argv[4], process.argv[5], process.argv[6]];
const inputs = {
  onnx() {
    const inputs = [], nodes = [], outputs = [];
    for (let i = 0; i < n; i++) {
      inputs.push(L.tensorInfo('in' + i, L.T.FLOAT, ['batch', 3]));
      outputs.push(L.tensorInfo('out' + i, L.T.FLOAT, ['batch', 3]));
      nodes.push(L.node('Identity', ['in' + i], ['out' + i]));
    }
    return L.encodeModel(L.model({ name: 'g', input: inputs, output: outputs, node: nodes }));
  },
  openvino() {
    const parts = ['<?xml version="1.0"?>\n<net name="t" version="11"><layers><layer id="p" name="p" type="Parameter" version="opset1"><data shape="1" element_type="f32"/><output>'];
    for (let i = 0; i < n; i++) parts.push('<port id="' + i + '" precision="FP32" names="o' + i + '"><dim>1</dim></port>');
    parts.push('</output></layer>');
    for (let i = 0; i < n; i++) parts.push('<layer id="' + i + '" name="r' + i + '" type="Result" version="opset1"><input><port id="0"/></input></layer>');
    parts.push('</layers><edges>');
    for (let i = 0; i < n; i++) parts.push('<edge from-layer="p" from-port="' + i + '" to-layer="' + i + '" to-port="0"/>');
    parts.push('</edges></net>\n');
    return Buffer.from(parts.join(''));
  },
  torchscript() {
    let code = '';
    for (let i = 0; i < n; i++) code += 'class C' + i + '(Module):\n  x : int\n';
    code += 'class Net(Module):\n  def forward(self: __torch__.Net,\n    x: Tensor) -> Tensor:\n    return x\n';
    // No GLOBAL in data.pkl: the reader looks for the first class with a forward.
    return L.buildZip([{ name: 'm/data.pkl', data: Buffer.from([0x80, 2, 0x4e, 0x2e]) }, { name: 'm/code/__torch__.py', data: code }]);
  },
  savedmodel() {
    // A real export's saved_model.pb with its meta graph (field 2) written n times.
    const pb = readFileSync(root + '/fixtures/models/tensorflow/savedmodel_int32_int8_int8/1/model.savedmodel/saved_model.pb');
    const fields = [];
    let p = 0;
    const varint = () => { let v = 0, s = 0, b; do { b = pb[p++]; v += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return v; };
    while (p < pb.length) {
      const start = p, key = varint();
      if ((key & 7) === 0) varint(); else { const len = varint(); p += len; }
      fields.push({ field: key >> 3, bytes: pb.subarray(start, p) });
    }
    const meta = fields.find((f) => f.field === 2).bytes;
    return Buffer.concat([...fields.filter((f) => f.field !== 2).map((f) => f.bytes), ...Array.from({ length: n }, () => meta)]);
  },
  python() {
    const keys = Array.from({ length: n }, (_, i) => i + ': ' + i).join(', ');
    const text = 'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(config):\n        config.set_model_transaction_policy({' + keys + '})\n        return config\n';
    return Buffer.from(text);
  },
};
if (mode === 'make') {
  writeFileSync(file, inputs[reader]());
  process.exit(0);
}
const bytes = readFileSync(file);
const text = reader === 'python' ? bytes.toString('utf8') : '';
const readers = {
  onnx: () => L.readSignatureOfBytes('/m/1/model.onnx', bytes),
  openvino: () => L.readOpenVinoOfBytes('/m/1/model.xml', bytes, () => 0),
  torchscript: () => L.readTorchSignatureOfBytes('/m/1/model.pt', bytes),
  savedmodel: () => L.readSavedModelOfBytes('/m/1/model.savedmodel', bytes),
  python: () => L.readAutoCompleteConfig(text),
};
const read = readers[reader];
globalThis.gc();
const before = process.resourceUsage().maxRSS;
let t0 = performance.now();
const first = read();
let best = performance.now() - t0;
const peakKib = process.resourceUsage().maxRSS - before;
if (first.unknown || (first.inputs && first.inputs.length + first.outputs.length === 0)) throw new Error(reader + ': read nothing');
for (let i = 0; i < 3; i++) {
  t0 = performance.now();
  read();
  best = Math.min(best, performance.now() - t0);
}
process.stdout.write(JSON.stringify({ bytes: bytes.length, ms: best, peakKib }) + '\n');
`;

const root = path.join(here, '..');
const dir = mkdtempSync(path.join(process.env.TRITONC_BENCH_DIR ?? os.tmpdir(), 'tritonc-bench-readers-'));
const BASE = { onnx: 5000, openvino: 5000, torchscript: 20000, savedmodel: 250, python: 12500 };
const rows = [];
for (const [reader, base] of Object.entries(BASE)) {
  const n0 = quick ? base / 2 : base;
  const runs = [];
  for (const n of [n0, 2 * n0, 4 * n0, 8 * n0]) {
    const file = path.join(dir, `${reader}-${n}`);
    const made = spawnSync(process.execPath, ['--input-type=module', '-e', WORKER, lib, reader, String(n), root, 'make', file], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`${reader} n=${n}: ${made.stderr.slice(-1000)}`);
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', WORKER, lib, reader, String(n), root, 'read', file], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    rmSync(file);
    if (r.status !== 0) throw new Error(`${reader} n=${n}: ${r.stderr.slice(-1000)}`);
    runs.push({ n, ...JSON.parse(r.stdout.trim().split('\n').pop()) });
  }
  rows.push({ reader, runs });
}

rmSync(dir, { recursive: true, force: true });

const fmt = (x, d = 2) => x.toFixed(d);
console.log('\nReaders against input size (issue 42): time and the peak memory the read adds, each size against the one before');
console.log('reader        n        input      time      x prev   us/byte   peak mem   x prev   mem bytes/byte');
for (const { reader, runs } of rows) {
  runs.forEach((r, i) => {
    const prev = runs[i - 1];
    const kb = r.bytes >= 1e6 ? `${fmt(r.bytes / 1e6, 1)} MB` : `${fmt(r.bytes / 1e3, 0)} KB`;
    console.log(
      `${reader.padEnd(12)} ${String(r.n).padStart(7)} ${kb.padStart(10)} ${`${fmt(r.ms, 1)} ms`.padStart(11)} ${(prev ? `${fmt(r.ms / prev.ms)}x` : '').padStart(8)} ${fmt((r.ms * 1000) / r.bytes, 3).padStart(9)} ${`${fmt(r.peakKib / 1024, 1)} MB`.padStart(10)} ${(prev && prev.peakKib > 0 ? `${fmt(r.peakKib / prev.peakKib)}x` : '').padStart(8)} ${fmt((r.peakKib * 1024) / r.bytes, 1).padStart(15)}`,
    );
  });
  const last = runs[runs.length - 1];
  console.log(`${''.padEnd(12)} 8n against n: time ${fmt(last.ms / runs[0].ms, 1)}x (linear 8x, a square 64x)`);
}

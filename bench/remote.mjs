#!/usr/bin/env node
// Bench: `tritonc lint` on a repository in S3 (s3rver on loopback) whose models carry large weights,
// beside downloading the repository as Triton does before it loads anything (core s3.h LocalizePath:
// every object of a model directory, GetObject by GetObject, into a local folder), in the same run.
// Requests and bytes are counted at the server. Targets (issue 15): a few requests and under 1 MiB
// per model, whatever the weight size; wall time as a ratio of the download.
//
//   node bench/remote.mjs [--models N] [--weights-mib N] [--runs N]
//
// Needs dist/ (npm run bench builds it).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const MODELS = arg('--models', 8);
const WEIGHTS_MIB = arg('--weights-mib', 64);
const RUNS = arg('--runs', 3);
const LAYERS = 16;
const bin = path.join(root, 'bin', 'tritonc.js');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

await build({
  entryPoints: [path.join(root, 'fixtures/onnx/model-builder.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: path.join(here, '.out', 'remote-bench-lib.mjs'),
  logLevel: 'warning',
});
const { model, tensorInfo, floatTensor, encodeModel, T } = await import('./.out/remote-bench-lib.mjs');

// The repository: each model a stack of LAYERS weight tensors (as an exported network has), WEIGHTS_MIB in all.
const floats = Math.floor((WEIGHTS_MIB * 1024 * 1024) / 4 / LAYERS);
const onnx = encodeModel(
  model({
    name: 'bench',
    node: [],
    initializer: Array.from({ length: LAYERS }, (_, i) => floatTensor(`layer${i}.weight`, [floats], new Float32Array(floats))),
    input: [tensorInfo('input', T.FLOAT, ['batch', 3, 224, 224])],
    output: [tensorInfo('output', T.FLOAT, ['batch', 1000])],
  }),
);
const config = (name) =>
  `name: "${name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\ndynamic_batching { }\n`;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver');
const { S3Client, PutObjectCommand, ListObjectsV2Command, GetObjectCommand } = await import('@aws-sdk/client-s3');
const work = fs.mkdtempSync(path.join(process.env.TRITONC_BENCH_DIR ?? os.tmpdir(), 'tritonc-bench-remote-'));
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(work, 's3'), configureBuckets: [{ name: 'models' }] });
const { port } = await server.run();
// Requests and bytes sent, counted where they leave the server.
const served = { requests: 0, bytes: 0 };
server.httpServer.on('request', (_req, res) => {
  served.requests++;
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  const count = (chunk) => (served.bytes += chunk ? (typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length) : 0);
  res.write = (chunk, ...rest) => (count(chunk), write(chunk, ...rest));
  res.end = (chunk, ...rest) => (typeof chunk !== 'function' && count(chunk), end(chunk, ...rest));
});
const client = new S3Client({
  endpoint: `http://127.0.0.1:${port}`,
  forcePathStyle: true,
  region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});
for (let i = 0; i < MODELS; i++) {
  const name = `model_${i}`;
  await client.send(new PutObjectCommand({ Bucket: 'models', Key: `repo/${name}/config.pbtxt`, Body: config(name) }));
  await client.send(new PutObjectCommand({ Bucket: 'models', Key: `repo/${name}/1/model.onnx`, Body: onnx }));
}

const env = { ...process.env, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
const url = `s3://127.0.0.1:${port}/models/repo`;
const run = (argv) =>
  new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 || code === 1 ? resolve(performance.now() - t) : reject(new Error(`exit ${code}: ${err}`))));
  });

// Triton's way: list, then every object downloaded to a local folder, one after another.
async function downloadAll() {
  const t = performance.now();
  const dest = fs.mkdtempSync(path.join(work, 'localized-'));
  let token;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: 'models', Prefix: 'repo/', ContinuationToken: token }));
    for (const o of page.Contents ?? []) {
      const got = await client.send(new GetObjectCommand({ Bucket: 'models', Key: o.Key }));
      const file = path.join(dest, o.Key);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, await got.Body.transformToByteArray());
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  fs.rmSync(dest, { recursive: true, force: true });
  return performance.now() - t;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lintTimes = [];
const downloadTimes = [];
let perLint = { requests: 0, bytes: 0 };
for (let r = 0; r < RUNS; r++) {
  const before = { ...served };
  lintTimes.push(await run([bin, 'lint', '--format', 'json', url]));
  perLint = { requests: served.requests - before.requests, bytes: served.bytes - before.bytes };
  downloadTimes.push(await downloadAll());
}
const lintMs = median(lintTimes);
const downloadMs = median(downloadTimes);
const mib = (b) => `${(b / 1024 / 1024).toFixed(2)} MiB`;
console.log(
  `\ntritonc remote bench: ${MODELS} models of ${WEIGHTS_MIB} MiB weights (${LAYERS} tensors each) in s3rver on loopback (${os.cpus().length} CPUs, node ${process.version}, median of ${RUNS})`,
);
console.log(`  download the repository (Triton)  ${downloadMs.toFixed(0).padStart(7)} ms  1.00x`);
console.log(`  tritonc lint s3://...             ${lintMs.toFixed(0).padStart(7)} ms  ${(lintMs / downloadMs).toFixed(3)}x the download`);
console.log(`  requests per model                ${(perLint.requests / MODELS).toFixed(1).padStart(7)}     (target: a few; the listing and configs included)`);
console.log(
  `  bytes read per model              ${mib(perLint.bytes / MODELS).padStart(10)}  (target < 1 MiB, whatever the weight size; of ${WEIGHTS_MIB} MiB)`,
);
client.destroy();
await server.close();
fs.rmSync(work, { recursive: true, force: true });

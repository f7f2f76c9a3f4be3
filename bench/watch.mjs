#!/usr/bin/env node
// Bench: `tritonc watch` on a repository of 100 models: the time from writing a config to the fresh
// report (chokidar's event, the debounce and the incremental re-lint together), and memory after
// 5,000 edits beside memory after 100. Targets (issue 6): under 200 ms; within 10%.
//
//   node --expose-gc bench/watch.mjs      (npm run bench builds dist/ first)
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWatch, WatchSession } from '../dist/index.js';
import { runCli } from '../dist/cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const MODELS = 100;
const repo = mkdtempSync(join(tmpdir(), 'tritonc-bench-watch-'));
for (let i = 0; i < MODELS; i++) {
  mkdirSync(join(repo, `model_${i}`, '1'), { recursive: true });
  cpSync(join(root, 'model_repository/classifier/1/model.onnx'), join(repo, `model_${i}`, '1', 'model.onnx'));
}
const quiet = { stdout: () => {}, stderr: (t) => process.stderr.write(t), readStdin: async () => '', stdinIsTTY: true, stdoutIsTTY: false, env: {}, cwd: repo };
await runCli(['generate', '.', '--write', '--max-batch-size', '16', '--instances', '2', '--kind', 'gpu'], quiet);

// 1. Latency: write -> report, through the file system watcher.
let resolveReport;
const handle = startWatch({ repo, cwd: repo, onReport: (r) => resolveReport?.(r) });
await handle.ready;
const config = join(repo, 'model_42', 'config.pbtxt');
const original = readFileSync(config, 'utf8');
const times = [];
for (let i = 0; i < 30; i++) {
  const seen = new Promise((r) => (resolveReport = r));
  const t0 = performance.now();
  writeFileSync(config, i % 2 ? original : original.replace('max_batch_size: 16', 'max_batch_size: 8'));
  await seen;
  times.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 120)); // let the trailing check settle
}
await handle.close();
times.sort((a, b) => a - b);
const median = times[times.length >> 1];
const p90 = times[Math.floor(times.length * 0.9)];

// 2. Memory: thousands of edits through one session (events fed directly, no watcher).
const gc = globalThis.gc ?? (() => {});
const session = new WatchSession({ repo, cwd: repo });
session.initial();
const heapAfter = (n, from) => {
  for (let i = from; i < n; i++) {
    writeFileSync(config, `${original}# edit ${i}\n`);
    session.change([{ event: 'change', path: config }]);
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const at100 = heapAfter(100, 0);
const at5000 = heapAfter(5000, 100);
rmSync(repo, { recursive: true, force: true });

console.log(`\nwatch: ${MODELS}-model repository`);
console.log(`  write -> report   median ${median.toFixed(1)} ms, p90 ${p90.toFixed(1)} ms (target < 200 ms, debounce included)`);
console.log(
  `  heap after 100 edits ${(at100 / 2 ** 20).toFixed(1)} MiB, after 5,000 ${(at5000 / 2 ** 20).toFixed(1)} MiB: ratio ${(at5000 / at100).toFixed(3)} (target <= 1.10)${globalThis.gc ? '' : ' (run with --expose-gc for a stable reading)'}`,
);
console.log(median < 200 && at5000 / at100 <= 1.1 ? '  targets met' : '  TARGET MISSED');

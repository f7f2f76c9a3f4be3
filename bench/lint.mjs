#!/usr/bin/env node
// Bench: `tritonc lint` on a generated repository of 1,000 models (config.pbtxt + a small ONNX model
// each), and on one model from a cold start, beside `node -e 0` in the same run. Every measurement is
// its own process. Targets: one model cold under 3x `node -e 0` (issue 4); 1,000 models in <= 8x
// `node -e 0`, and one staged config of them as the pre-commit hook runs it (--user-cache, warm) in
// <= 3.5x (issues 14 and 29; issue 4 asked < 2 s);
// and whether two processes, each linting half the models, beat one (whether a second core pays).
//
//   node bench/lint.mjs [--runs N] [--models N] [--keep]
//
// Needs dist/ (npm run bench builds it).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeRepo } from './model-repo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = arg('--runs', 5);
const MODELS = arg('--models', 1000);
// The repository of issue 14's scaling figures (0: skip them): linted once, for the slope of time against models.
const LARGE = arg('--large', 10000);
const bin = path.join(root, 'bin', 'tritonc.js');
if (!fs.existsSync(path.join(root, 'dist', 'cli.cjs'))) {
  console.error('bench/lint.mjs: dist/cli.cjs is missing: run npm run build first');
  process.exit(2);
}

// 1. The repository (bench/model-repo.mjs).
const dir = fs.mkdtempSync(path.join(process.env.TRITONC_BENCH_DIR ?? os.tmpdir(), 'tritonc-bench-lint-'));
const repo = path.join(dir, 'models');
await makeRepo(root, repo, MODELS);

// 2. Measurements: median wall time of RUNS processes each, the commands taking turns round by round
// (this VM's speed drifts over a run: one command's runs all together would meet another speed than
// the next command's, and the ratios would measure the drift).
function run(argv, cwd = dir) {
  const t0 = process.hrtime.bigint();
  try {
    execFileSync(process.execPath, argv, { cwd, stdio: 'pipe', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 30 });
  } catch (e) {
    if (e.status !== 1) throw e; // exit 1 = lint errors found, expected
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
/** Each case's median, and its fastest run (the one the machine disturbed least). */
function medians(cases) {
  const samples = cases.map(() => []);
  for (let i = 0; i < RUNS; i++) cases.forEach((argv, j) => samples[j].push(run(argv)));
  return samples.map((s) => ({ median: median(s), fastest: Math.min(...s) }));
}

// One model alone in its repository, as `tritonc lint` on a small project or a single model dir.
const single = path.join(dir, 'single');
fs.cpSync(path.join(repo, 'model_0001'), path.join(single, 'model_0001'), { recursive: true });
// With --cache (issue 14): the other models' summaries from the previous run's cache file. A summary
// made from files changed in the last two seconds is not kept (disk-cache.ts): the repository was
// just written, so wait that long first, as a repository in use has long been.
const settle = () => new Promise((done) => setTimeout(done, 2100));
await settle();
const staged = path.join(repo, 'model_0001', 'config.pbtxt');
// The pre-commit hook as installed: `tritonc lint --user-cache` (.pre-commit-hooks.yaml), its cache in
// the user's cache directory, here one of the bench's own.
process.env.XDG_CACHE_HOME = path.join(dir, 'user-cache');
run([bin, 'lint', '--user-cache', staged]);
const [node, version, one, oneInRepo, oneInRepoCached, whole] = medians([
  ['-e', '0'],
  [bin, '--version'],
  [bin, 'lint', path.join(single, 'model_0001')],
  [bin, 'lint', staged],
  [bin, 'lint', '--user-cache', staged],
  [bin, 'lint', '--format', 'json', '--gpu-memory', 'H200', repo],
]);
const [nodeMs, versionMs, oneMs, oneInRepoMs, oneInRepoCachedMs, repoMs] = [node, version, one, oneInRepo, oneInRepoCached, whole].map((m) => m.median);
// Would a second core pay (issue 14: "using both cores where it pays")? The repository as two
// repositories of half the models each: one process linting both, against two processes linting one
// each at the same time (no work shared between them, each with its own start). A ratio above 1 says
// splitting the models over cores pays on this machine; below 1, that they slow each other down more
// than the second core gives.
const halves = ['a', 'b'].map((h) => path.join(dir, 'halves', h));
fs.readdirSync(repo)
  .sort()
  .forEach((name, i) => fs.cpSync(path.join(repo, name), path.join(halves[i % 2], name), { recursive: true }));
const lintArgs = (repos) => [bin, 'lint', '--format', 'json', '--gpu-memory', 'H200', ...repos];
function runAsync(argv) {
  return new Promise((done, fail) => {
    execFile(process.execPath, argv, { cwd: dir, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 30 }, (e) => (e && e.code !== 1 ? fail(e) : done()));
  });
}
const together = [];
const split = [];
for (let i = 0; i < RUNS; i++) {
  together.push(run(lintArgs(halves)));
  const t0 = process.hrtime.bigint();
  await Promise.all(halves.map((h) => runAsync(lintArgs([h]))));
  split.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
const [togetherMs, splitMs] = [median(together), median(split)];
// 10,000 models (issue 14): the same figures once each, and the cost per model between the two sizes.
let large;
if (LARGE > MODELS) {
  const big = path.join(dir, 'large');
  await makeRepo(root, big, LARGE);
  const repoLargeMs = run([bin, 'lint', '--format', 'json', '--gpu-memory', 'H200', big]);
  const cacheLarge = path.join(dir, 'large.tritonc-cache');
  await settle();
  run([bin, 'lint', '--cache-location', cacheLarge, path.join(big, 'model_0001', 'config.pbtxt')]);
  const oneLargeCachedMs = run([bin, 'lint', '--cache-location', cacheLarge, path.join(big, 'model_0001', 'config.pbtxt')]);
  large = { repoLargeMs, oneLargeCachedMs };
}
const fmt = (ms) => `${ms.toFixed(0)} ms`;
/** The median's multiple of node -e 0, and the fastest runs' multiple beside it. */
const x = (m) => `${(m.median / node.median).toFixed(2)}x (fastest ${(m.fastest / node.fastest).toFixed(2)}x)`;
console.log(`\ntritonc lint bench (${os.cpus().length} CPUs, node ${process.version}, median of ${RUNS}, and the multiple of the fastest runs)`);
console.log(`  node -e 0                         ${fmt(nodeMs).padStart(9)}  1.00x`);
console.log(`  tritonc --version                 ${fmt(versionMs).padStart(9)}  ${x(version)} node -e 0   (CLI start, any command)`);
console.log(`  lint one model (cold)             ${fmt(oneMs).padStart(9)}  ${x(one)} node -e 0   (target < 3x)`);
console.log(
  `  lint one config of the big repo   ${fmt(oneInRepoMs).padStart(9)}  ${x(oneInRepo)} node -e 0   (pre-commit: reads the ${MODELS} others for instance-memory)`,
);
console.log(`    ... as the hook runs it (--user-cache, warm) ${fmt(oneInRepoCachedMs).padStart(9)}  ${x(oneInRepoCached)} node -e 0   (target <= 3.5x)`);
console.log(`  lint ${MODELS} models                   ${fmt(repoMs).padStart(9)}  ${x(whole)} node -e 0   (target <= 8x; issue 4's: < 2000 ms)`);
console.log(`  per model                         ${(repoMs / MODELS).toFixed(2).padStart(6)} ms`);
console.log(`  one process, two halves           ${fmt(togetherMs).padStart(9)}`);
console.log(
  `  two processes, a half each        ${fmt(splitMs).padStart(9)}  ${(togetherMs / splitMs).toFixed(2)}x the speed of one   (above 1x: a second core pays on this machine)`,
);
if (large) {
  const slope = (large.repoLargeMs - repoMs) / (LARGE - MODELS);
  console.log(
    `  lint ${LARGE} models (once)          ${fmt(large.repoLargeMs).padStart(9)}  ${(large.repoLargeMs / nodeMs).toFixed(2)}x node -e 0   ${(large.repoLargeMs / repoMs).toFixed(2)}x the ${MODELS} (linear: about ${(LARGE / MODELS).toFixed(0)}x less the start)`,
  );
  console.log(
    `  slope, ${MODELS} -> ${LARGE} models        ${slope.toFixed(3).padStart(6)} ms per model   (${(repoMs / MODELS).toFixed(3)} ms per model at ${MODELS}: no step grows with the square when these agree)`,
  );
  console.log(
    `  one staged config of ${LARGE}, --cache ${fmt(large.oneLargeCachedMs).padStart(9)}  ${(large.oneLargeCachedMs / nodeMs).toFixed(2)}x node -e 0`,
  );
}
if (!args.includes('--keep')) fs.rmSync(dir, { recursive: true, force: true });
else console.log(`  kept ${dir}`);

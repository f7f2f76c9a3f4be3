#!/usr/bin/env node
// Two builds of tritonc side by side, in the same run (issue 30: "the bench, before and after"): each
// figure of docs/performance.md measured for one build, then the other, sample by sample, the order
// swapped every round, so a machine whose speed drifts (this VM's does, by a third) slows both alike.
// A process is measured from inside (wall time, CPU time: user + system, all threads, and peak
// memory); CPU time is the work done, which other programs on a shared machine do not lengthen as
// they lengthen wall time. In-process figures run in a process of their own per build and round
// (--worker): the fastest pass, and the CPU time per pass. Each figure is the median of the rounds
// (or their fastest), and the ratio after / before: above 1 slower.
//
//   node bench/compare.mjs --before <checkout> [--after <checkout>] [--rounds N] [--max-mb 50] [--only processes,scale,inprocess,lsp,remote] [--match <in-process figures>]
//
// Each checkout needs its dist/ built (node scripts/build.mjs --no-types); --after defaults to this
// checkout. The process figures run each build's bin/tritonc.js, the in-process figures its
// dist/index.js; lsp and remote run each checkout's own bench script, taking turns.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configText, memoryFiles } from './memory-files.mjs';
import { makeRepo } from './model-repo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
if (args[0] === '--worker') {
  await worker(args[1], JSON.parse(args[2]));
  process.exit(0);
}
if (!opt('--before', '')) {
  console.error('bench/compare.mjs: --before <checkout> is required');
  process.exit(2);
}
const SIDES = { before: path.resolve(opt('--before', '')), after: path.resolve(opt('--after', path.join(here, '..'))) };
const ROUNDS = Number(opt('--rounds', 7));
const MAX_MB = Number(opt('--max-mb', 50));
const ONLY = opt('--only', 'processes,scale,inprocess,lsp,remote').split(',');
for (const [side, dir] of Object.entries(SIDES)) {
  if (!fs.existsSync(path.join(dir, 'dist', 'cli.cjs'))) throw new Error(`${side}: ${dir}/dist/cli.cjs is missing: build it first`);
}
const work = fs.mkdtempSync(path.join(process.env.TRITONC_BENCH_DIR ?? os.tmpdir(), 'tritonc-bench-compare-'));
const rows = [];
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const order = (round) => (round % 2 === 0 ? ['before', 'after'] : ['after', 'before']);
function record(group, name, unit, samples) {
  const [b, a] = [median(samples.before), median(samples.after)];
  rows.push({ group, name, unit, before: b, after: a, ratio: a / b });
  console.error(`  ${group}: ${name}: ${b.toFixed(2)} -> ${a.toFixed(2)} ${unit} (${(a / b).toFixed(3)})`);
}

/**
 * `tritonc <argv>` of one build (`node -e 0` without argv), measured inside the process (scale.mjs's
 * probe: from the probe's start to exit): wall ms, CPU ms (user + system, every thread), peak KiB.
 */
function tritonc(side, argv, cwd = work, env = {}) {
  const bin = path.join(SIDES[side], 'bin', 'tritonc.js');
  const run = argv.length ? `process.argv[1]=${JSON.stringify(bin)};await import(${JSON.stringify(bin)});` : '';
  const probe = `const t0=performance.now();process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nBENCH '+(performance.now()-t0)+' '+(u.userCPUTime+u.systemCPUTime)/1000+' '+u.maxRSS+'\\n')});${run}`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, 'x', ...argv], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const m = /BENCH ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m || (r.status !== 0 && r.status !== 1)) throw new Error(`${side}: tritonc ${argv.join(' ')}: exit ${r.status}: ${r.stderr.slice(-800)}`);
  return { ms: Number(m[1]), cpu: Number(m[2]), kib: Number(m[3]) };
}
/** Each case measured for both builds, round by round, the order swapped every round. */
function alternate(group, cases, rounds = ROUNDS) {
  const samples = cases.map(() => ({ ms: { before: [], after: [] }, cpu: { before: [], after: [] }, mb: { before: [], after: [] } }));
  for (let r = 0; r < rounds; r++) {
    cases.forEach((c, i) => {
      for (const side of order(r)) {
        const m = c.run(side);
        samples[i].ms[side].push(m.ms);
        samples[i].cpu[side].push(m.cpu);
        samples[i].mb[side].push(m.kib / 1024);
      }
    });
  }
  cases.forEach((c, i) => {
    record(group, `${c.name}: wall`, 'ms', samples[i].ms);
    record(group, `${c.name}: wall, fastest`, 'ms', { before: [Math.min(...samples[i].ms.before)], after: [Math.min(...samples[i].ms.after)] });
    record(group, `${c.name}: CPU`, 'ms', samples[i].cpu);
    record(group, `${c.name}: peak memory`, 'MB', samples[i].mb);
  });
}

// ---- bench/lint.mjs's figures: the 1,000-model repository, and the 10,000 ----
if (ONLY.includes('processes')) {
  const repo = path.join(work, 'models');
  await makeRepo(SIDES.after, repo, 1000);
  const single = path.join(work, 'single');
  fs.cpSync(path.join(repo, 'model_0001'), path.join(single, 'model_0001'), { recursive: true });
  const halves = ['a', 'b'].map((h) => path.join(work, 'halves', h));
  fs.readdirSync(repo)
    .sort()
    .forEach((name, i) => fs.cpSync(path.join(repo, name), path.join(halves[i % 2], name), { recursive: true }));
  const big = path.join(work, 'large');
  await makeRepo(SIDES.after, big, 10000);
  await new Promise((done) => setTimeout(done, 2100)); // the caches keep no summary of files changed in the last two seconds
  const staged = path.join(repo, 'model_0001', 'config.pbtxt');
  const stagedBig = path.join(big, 'model_0001', 'config.pbtxt');
  // Each build its own user cache and cache file, made warm before the rounds.
  const userCache = (side) => ({ XDG_CACHE_HOME: path.join(work, `user-cache-${side}`) });
  const cacheFile = (side) => path.join(work, `large-${side}.tritonc-cache`);
  for (const side of ['before', 'after']) {
    tritonc(side, ['lint', '--user-cache', staged], work, userCache(side));
    tritonc(side, ['lint', '--cache-location', cacheFile(side), stagedBig]);
  }
  const lintJson = (repos) => ['lint', '--format', 'json', '--gpu-memory', 'H200', ...repos];
  alternate('lint.mjs', [
    { name: 'node -e 0 (the reference: the same program both times)', run: (side) => tritonc(side, []) },
    { name: 'tritonc --version', run: (side) => tritonc(side, ['--version']) },
    { name: 'lint one model (cold)', run: (side) => tritonc(side, ['lint', path.join(single, 'model_0001')]) },
    { name: 'lint one staged config of the 1,000', run: (side) => tritonc(side, ['lint', staged]) },
    { name: 'the same, --user-cache, warm (the hook)', run: (side) => tritonc(side, ['lint', '--user-cache', staged], work, userCache(side)) },
    { name: 'lint the 1,000 models', run: (side) => tritonc(side, lintJson([repo])) },
    { name: 'one process linting both halves', run: (side) => tritonc(side, lintJson(halves)) },
  ]);
  alternate(
    'lint.mjs',
    [
      { name: 'lint the 10,000 models', run: (side) => tritonc(side, lintJson([big])) },
      { name: 'one staged config of the 10,000, --cache', run: (side) => tritonc(side, ['lint', '--cache-location', cacheFile(side), stagedBig]) },
    ],
    Math.max(3, Math.ceil(ROUNDS / 2)),
  );
}

// ---- bench/scale.mjs's figures: one config from 1 KB to 50 MB ----
const sizes = [1e3, 1e5, 1e6, 1e7, 5e7].filter((s) => s <= MAX_MB * 1e6);
const label = (size) => (size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`);
const scaleFiles = new Map();
if (ONLY.includes('scale') || ONLY.includes('inprocess')) {
  for (const size of sizes) {
    const model = path.join(work, `repo-${size}`, 'model');
    fs.mkdirSync(path.join(model, '1'), { recursive: true });
    fs.writeFileSync(path.join(model, '1', 'model.py'), '');
    const text = configText(size);
    fs.writeFileSync(path.join(model, 'config.pbtxt'), text);
    const flagged = path.join(work, `repo-${size}-flagged`, 'model');
    fs.mkdirSync(path.join(flagged, '1'), { recursive: true });
    fs.writeFileSync(path.join(flagged, '1', 'model.py'), '');
    fs.writeFileSync(path.join(flagged, 'config.pbtxt'), `${text}parameters { key: "flagged" value: { string_value: "\${UNFILLED}" } }\n`);
    scaleFiles.set(size, { file: path.join(model, 'config.pbtxt'), flagged: path.join(flagged, 'config.pbtxt'), text });
  }
}
if (ONLY.includes('scale')) {
  for (const size of sizes) {
    const { file, flagged } = scaleFiles.get(size);
    const rounds = size >= 1e7 ? Math.max(3, Math.ceil(ROUNDS / 3)) : ROUNDS;
    alternate(
      `scale.mjs ${label(size)}`,
      [
        { name: `tritonc lint --quiet, ${label(size)}`, run: (side) => tritonc(side, ['lint', '--quiet', file]) },
        { name: `tritonc fmt --check, ${label(size)}`, run: (side) => tritonc(side, ['fmt', '--check', file]) },
        { name: `tritonc lint, one finding, ${label(size)}`, run: (side) => tritonc(side, ['lint', flagged]) },
      ],
      rounds,
    );
  }
}

// ---- in process: bench/pbtxt.mjs (parse, print) and bench/scale.mjs (parse, lintText, lint in memory) ----
// Each measurement in a process of its own (this file with --worker), of one build, the builds
// taking turns: two builds in one heap would each pay for the other's garbage.
const fixturesDir = path.join(SIDES.after, 'test', 'fixtures', 'configs');
const corpusDir = path.resolve(process.env.TRITONC_CORPUS ?? path.join(SIDES.after, '..', 'shared', 'corpus', 'triton-configs'));
const SETS = ['fixtures', ...(fs.existsSync(path.join(corpusDir, 'MANIFEST.tsv')) ? ['corpus'] : []), 'large 130K', 'large 540K'];
if (ONLY.includes('inprocess')) {
  const jobs = [
    ...SETS.flatMap((set) => ['parse', 'print'].map((op) => ({ group: 'pbtxt.mjs', name: `${op} ${set}`, job: { kind: 'set', set, op } }))),
    ...sizes.flatMap((size) =>
      ['parseConfig', 'lintText', 'lintSync, the directory in memory,'].map((op) => ({
        group: 'scale.mjs in process',
        name: `${op} ${label(size)}`,
        size,
        job: { kind: 'size', op, size, file: scaleFiles.get(size).file },
      })),
    ),
  ];
  const match = new RegExp(opt('--match', ''));
  for (const { group, name, size, job } of jobs.filter((j) => match.test(j.name))) {
    const rounds = size >= 1e7 ? Math.max(3, Math.ceil(ROUNDS / 3)) : ROUNDS;
    const samples = { wall: { before: [], after: [] }, cpu: { before: [], after: [] } };
    for (let r = 0; r < rounds; r++) {
      for (const side of order(r)) {
        const out = execFileSync(
          process.execPath,
          [
            '--expose-gc',
            fileURLToPath(import.meta.url),
            '--worker',
            path.join(SIDES[side], 'dist', 'index.js'),
            JSON.stringify({ ...job, fixturesDir, corpusDir, work }),
          ],
          { encoding: 'utf8', maxBuffer: 1 << 28 },
        );
        const m = JSON.parse(out.trim().split('\n').at(-1));
        samples.wall[side].push(m.wall);
        samples.cpu[side].push(m.cpu);
      }
    }
    record(group, `${name}: fastest pass`, 'ms', { before: [Math.min(...samples.wall.before)], after: [Math.min(...samples.wall.after)] });
    record(group, `${name}: CPU per pass`, 'ms', samples.cpu);
  }
}

// ---- each checkout's own bench script, taking turns: lsp.mjs and remote.mjs ----
function script(group, file, figures, rounds) {
  const samples = {};
  for (let r = 0; r < rounds; r++) {
    for (const side of order(r)) {
      const out = execFileSync(process.execPath, [file], { cwd: SIDES[side], encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 28 });
      for (const [k, v] of Object.entries(figures(out))) (samples[k] ??= { before: [], after: [] })[side].push(v);
    }
  }
  for (const [k, s] of Object.entries(samples)) record(group, k, '', s);
}
if (ONLY.includes('lsp')) {
  script(
    'lsp.mjs',
    'bench/lsp.mjs',
    (out) => {
      const m = /median ([\d.]+) ms, p90 ([\d.]+) ms/.exec(out);
      return { 'keystroke to diagnostics, median ms': Number(m[1]), 'keystroke to diagnostics, p90 ms': Number(m[2]) };
    },
    ROUNDS,
  );
}
if (ONLY.includes('remote')) {
  script(
    'remote.mjs',
    'bench/remote.mjs',
    (out) => ({
      'tritonc lint s3://..., ms': Number(/tritonc lint s3:\/\/\.\.\.\s+(\d+) ms/.exec(out)[1]),
      'requests per model': Number(/requests per model\s+([\d.]+)/.exec(out)[1]),
      'MiB read per model': Number(/bytes read per model\s+([\d.]+) MiB/.exec(out)[1]),
    }),
    Math.min(ROUNDS, 3),
  );
}

fs.rmSync(work, { recursive: true, force: true });
console.log(`\nbefore: ${SIDES.before}\nafter:  ${SIDES.after}\n(${os.cpus().length} CPUs, node ${process.version}, ${ROUNDS} rounds)\n`);
console.log('| bench | figure | before | after | after / before |');
console.log('|---|---|---|---|---|');
const num = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
for (const r of rows) console.log(`| ${r.group} | ${r.name} | ${num(r.before)} ${r.unit} | ${num(r.after)} ${r.unit} | ${r.ratio.toFixed(2)} |`);

/**
 * One in-process measurement of one build (`--worker <dist/index.js> <job>`): after a second of
 * warm-up, `passes` passes, each timed (wall) and its CPU time taken (process.cpuUsage: every thread,
 * the collector's included); prints the fastest pass and the CPU time per pass, as JSON.
 */
async function worker(index, job) {
  const lib = await import(pathToFileURL(index).href);
  let fn;
  let passes;
  if (job.kind === 'set') {
    const texts = setTexts(job.set, job.fixturesDir, job.corpusDir);
    passes = { fixtures: 200, corpus: 20, 'large 130K': 10, 'large 540K': 5 }[job.set];
    if (job.op === 'parse')
      fn = () => {
        for (const t of texts) lib.parseConfig(t);
      };
    else {
      const docs = texts.map((t) => lib.parseConfig(t));
      fn = () => {
        for (const d of docs) lib.printConfig(d.value);
      };
    }
  } else {
    const text = fs.readFileSync(job.file, 'utf8');
    passes = job.size <= 1e3 ? 500 : job.size <= 1e5 ? 40 : job.size <= 1e6 ? 8 : job.size <= 1e7 ? 3 : 2;
    if (job.op === 'parseConfig') fn = () => lib.parseConfig(text, job.file);
    else if (job.op === 'lintText') fn = () => lib.lintText(text, { file: job.file });
    else {
      const files = memoryFiles(path.dirname(path.dirname(job.file)));
      fn = () => lib.lintSync([job.file], { cwd: job.work, files });
    }
  }
  const warmUntil = performance.now() + 1000;
  do fn();
  while (performance.now() < warmUntil && passes > 3);
  globalThis.gc?.();
  let wall = Infinity;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < passes; i++) {
    const t0 = performance.now();
    fn();
    wall = Math.min(wall, performance.now() - t0);
  }
  const c = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ wall, cpu: (c.user + c.system) / 1000 / passes }));
}

/** bench/pbtxt.mjs's sets of configs. */
function setTexts(set, fixturesDir, corpusDir) {
  if (set === 'fixtures')
    return fs
      .readdirSync(fixturesDir)
      .filter((f) => f.endsWith('.pbtxt'))
      .map((f) => fs.readFileSync(path.join(fixturesDir, f), 'utf8'));
  if (set === 'corpus')
    return fs
      .readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .filter((r) => r[3] !== 'template')
      .map((r) => fs.readFileSync(path.join(corpusDir, r[0]), 'utf8'));
  const n = set === 'large 130K' ? 500 : 2000;
  const parts = ['name: "large"', 'backend: "onnxruntime"', 'max_batch_size: 64'];
  for (let i = 0; i < n; i++) {
    parts.push(`input { name: "input_${i}" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] }`);
    parts.push(`output { name: "output_${i}" data_type: TYPE_FP16 dims: [ 1000 ] label_filename: "labels_${i}.txt" }`);
    parts.push(`parameters { key: "param_${i}" value { string_value: "value ${i} \\"quoted\\"" } }  # comment ${i}`);
  }
  parts.push('dynamic_batching { preferred_batch_size: [ 8, 16, 32 ] max_queue_delay_microseconds: 5000 }');
  return [`${parts.join('\n')}\n`];
}

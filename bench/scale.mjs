#!/usr/bin/env node
// Bench (issue 14): one config.pbtxt from 1 KB to 50 MB (parameters entries, as the large configs of
// the issue), beside Google's Python text_format.Parse of the same text. Two comparisons:
// - in process, warm, the fastest of several passes: tritonc's parse (parseConfig) and lint
//   (lintText: the parse and every rule) against Python's parse; neither interpreter's start counted.
//   Target: >= 5x Python at every size.
// - as processes, with peak memory (max RSS): `tritonc lint` and `tritonc fmt --check`, start
//   included, against Python's parse alone. Targets: at 50 MB no more memory than Python; fmt
//   within 2x of lint.
//
//   node bench/scale.mjs [--max-mb 50]   (npm run bench runs it with --max-mb 10)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintSync, lintText, parseConfig } from '../dist/index.js';
import { fastest } from './fastest.mjs';
import { configText, memoryFiles } from './memory-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const maxMb = args.includes('--max-mb') ? Number(args[args.indexOf('--max-mb') + 1]) : 10;
const sizes = [1e3, 1e5, 1e6, 1e7, 5e7].filter((s) => s <= maxMb * 1e6);
const dir = mkdtempSync(join(tmpdir(), 'tritonc-bench-scale-'));
const python = process.env.TRITONC_REFERENCE_PYTHON ?? '/usr/bin/python3';

// Python: compile the schema once, then one process per file timing text_format.Parse alone.
const pyOut = join(dir, 'py');
mkdirSync(pyOut);
const protoc = spawnSync('protoc', [`--proto_path=${join(root, 'schemas')}`, `--python_out=${pyOut}`, 'model_config.proto']);
const havePython = protoc.status === 0;
const PY = `import resource, sys, time\nsys.path.insert(0, sys.argv[1])\nimport model_config_pb2\nfrom google.protobuf import text_format\ntext = open(sys.argv[2]).read()\nbest = None\nfor _ in range(int(sys.argv[3])):\n    t0 = time.perf_counter()\n    m = model_config_pb2.ModelConfig()\n    text_format.Parse(text, m)\n    ms = (time.perf_counter() - t0) * 1000\n    best = ms if best is None else min(best, ms)\nprint(best, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n`;

/** Wall ms and max RSS (KiB) of a process, from inside it (node: process.resourceUsage). */
function tritonc(argv) {
  const probe = `const t0=performance.now();process.on('exit',()=>{process.stderr.write('\\nBENCH '+(performance.now()-t0)+' '+process.resourceUsage().maxRSS+'\\n')});process.argv[1]=${JSON.stringify(join(root, 'bin', 'tritonc.js'))};await import(${JSON.stringify(join(root, 'bin', 'tritonc.js'))});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, 'x', ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /BENCH ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`tritonc ${argv.join(' ')}: ${r.stderr.slice(-500)}`);
  return { ms: Number(m[1]), kib: Number(m[2]) };
}

const mb = (kib) => `${(kib / 1024).toFixed(0)} MB`;
const label = (size) => (size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`);
/** Passes of each in-process measurement: enough for a stable fastest pass, few for the large files. */
const passes = (size) => (size <= 1e3 ? 500 : size <= 1e5 ? 40 : size <= 1e6 ? 8 : size <= 1e7 ? 2 : 1);

const rows = [];
for (const size of sizes) {
  // Each size in a repository of its own: lint reads every model of the repository it is given.
  const model = join(dir, `repo-${size}`, 'model');
  mkdirSync(join(model, '1'), { recursive: true });
  writeFileSync(join(model, '1', 'model.py'), '');
  const text = configText(size);
  const file = join(model, 'config.pbtxt');
  writeFileSync(file, text);
  const pyRun = (runs) => {
    const r = havePython ? spawnSync(python, ['-c', PY, pyOut, file, String(runs)], { encoding: 'utf8' }) : undefined;
    return r?.status === 0 ? r.stdout.trim().split(' ').map(Number) : [NaN, NaN];
  };
  const [pyOnceMs, pyKib] = pyRun(1);
  const [pyBestMs] = passes(size) > 1 ? pyRun(passes(size)) : [pyOnceMs];
  const parseMs = fastest(() => parseConfig(text, file), passes(size));
  const lintMs = fastest(() => lintText(text, { file }), passes(size));
  const files = memoryFiles(join(dir, `repo-${size}`));
  const memoryLintMs = fastest(() => lintSync([file], { cwd: dir, files }), passes(size));
  const lint = tritonc(['lint', '--quiet', file]);
  const fmt = tritonc(['fmt', '--check', file]);
  // The same config with one finding on its last parameter (an unfilled placeholder): the finding
  // must be located among all the parameters.
  const flagged = join(dir, `repo-${size}-flagged`, 'model');
  mkdirSync(join(flagged, '1'), { recursive: true });
  writeFileSync(join(flagged, '1', 'model.py'), '');
  writeFileSync(join(flagged, 'config.pbtxt'), `${text}parameters { key: "flagged" value: { string_value: "\${UNFILLED}" } }\n`);
  const finding = tritonc(['lint', join(flagged, 'config.pbtxt')]);
  rows.push({ size, pyOnceMs, pyKib, pyBestMs, parseMs, lintMs, memoryLintMs, lint, fmt, finding });
}

const times = (a, b) => (Number.isFinite(a) ? `${(a / b).toFixed(1)}x` : '-');
console.log(`\nscale: one config from 1 KB to ${maxMb} MB, in process (warm, fastest pass): tritonc beside Python's text_format.Parse`);
console.log('  size      python parse   tritonc parse          tritonc lint (parse, rules, reads)   lint, the directory in memory');
for (const r of rows) {
  console.log(
    `  ${label(r.size).padEnd(8)}  ${`${r.pyBestMs.toFixed(2)} ms`.padEnd(13)}  ${`${r.parseMs.toFixed(2)} ms (${times(r.pyBestMs, r.parseMs)} python)`.padEnd(22)} ${`${r.lintMs.toFixed(2)} ms (${times(r.pyBestMs, r.lintMs)} python)`.padEnd(36)} ${r.memoryLintMs.toFixed(2)} ms (${times(r.pyBestMs, r.memoryLintMs)} python)`,
  );
}
console.log('  target: parse and lint >= 5x python at every size (the last column: the lint without its reads of the model directory)');
console.log(`\nscale: as processes (tritonc's start included; Python's parse alone), wall time and peak memory`);
console.log('  size      python parse       tritonc lint                 tritonc fmt --check          lint, one finding');
for (const r of rows) {
  console.log(
    `  ${label(r.size).padEnd(8)}  ${`${r.pyOnceMs.toFixed(0)} ms ${mb(r.pyKib)}`.padEnd(17)}  ${`${r.lint.ms.toFixed(0)} ms ${mb(r.lint.kib)} (${times(r.pyOnceMs, r.lint.ms)} python)`.padEnd(28)} ${`${r.fmt.ms.toFixed(0)} ms ${mb(r.fmt.kib)} (${(r.fmt.ms / r.lint.ms).toFixed(2)}x lint)`.padEnd(28)} ${r.finding.ms.toFixed(0)} ms ${mb(r.finding.kib)}`,
  );
}
console.log('  targets: at 50 MB lint memory <= python; fmt <= 2x lint');
if (!havePython) console.log('  (Python reference not available: install python3-protobuf and protobuf-compiler)');
rmSync(dir, { recursive: true, force: true });

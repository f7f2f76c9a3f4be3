#!/usr/bin/env node
// Bench (issue 14): one config.pbtxt from 1 KB to 50 MB (parameters entries, as the large configs of
// the issue), each through `tritonc lint` and `tritonc fmt --check` as their own processes, beside
// Google's Python text_format.Parse of the same file (its own process), with wall time and peak
// memory (max RSS) of each. Targets: lint >= 5x as fast as Python at every size; at 50 MB no more
// memory than Python; fmt within 2x of lint.
//
//   node bench/scale.mjs [--max-mb 50]   (npm run bench runs it with --max-mb 10)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
const PY = `import resource, sys, time\nsys.path.insert(0, sys.argv[1])\nimport model_config_pb2\nfrom google.protobuf import text_format\ntext = open(sys.argv[2]).read()\nt0 = time.perf_counter()\nm = model_config_pb2.ModelConfig()\ntext_format.Parse(text, m)\nprint((time.perf_counter() - t0) * 1000, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n`;

/** Wall ms and max RSS (KiB) of a process, from inside it (node: process.resourceUsage). */
function tritonc(argv) {
  const probe = `const t0=performance.now();process.on('exit',()=>{process.stderr.write('\\nBENCH '+(performance.now()-t0)+' '+process.resourceUsage().maxRSS+'\\n')});process.argv[1]=${JSON.stringify(join(root, 'bin', 'tritonc.js'))};await import(${JSON.stringify(join(root, 'bin', 'tritonc.js'))});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, 'x', ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /BENCH ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`tritonc ${argv.join(' ')}: ${r.stderr.slice(-500)}`);
  return { ms: Number(m[1]), kib: Number(m[2]) };
}

const mb = (kib) => `${(kib / 1024).toFixed(0)} MB`;
console.log(`\nscale: one config from 1 KB to ${maxMb} MB (lint and fmt --check as processes; Python text_format.Parse alone)`);
console.log('  size      python parse       tritonc lint                 tritonc fmt --check');
for (const size of sizes) {
  // Each size in a repository of its own: lint reads every model of the repository it is given.
  const model = join(dir, `repo-${size}`, 'model');
  mkdirSync(join(model, '1'), { recursive: true });
  writeFileSync(join(model, '1', 'model.py'), '');
  const parts = ['backend: "python"', 'max_batch_size: 8', 'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]', 'output [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]'];
  let text = `${parts.join('\n')}\n`;
  const line = (i) => `parameters { key: "setting_${i}" value: { string_value: "value number ${i} of the bench" } }\n`;
  const chunks = [text];
  let n = text.length;
  for (let i = 0; n < size; i++) {
    const l = line(i);
    chunks.push(l);
    n += l.length;
  }
  text = chunks.join('');
  const file = join(model, 'config.pbtxt');
  writeFileSync(file, text);
  const py = havePython ? spawnSync(python, ['-c', PY, pyOut, file], { encoding: 'utf8' }) : undefined;
  const [pyMs, pyKib] = py?.status === 0 ? py.stdout.trim().split(' ').map(Number) : [NaN, NaN];
  const lint = tritonc(['lint', '--quiet', file]);
  const fmt = tritonc(['fmt', '--check', file]);
  const label = size >= 1e6 ? `${size / 1e6} MB` : `${size / 1e3} KB`;
  const speed = (ms) => (Number.isFinite(pyMs) ? `${(pyMs / ms).toFixed(2)}x python` : 'no python');
  console.log(`  ${label.padEnd(8)}  ${`${pyMs.toFixed(0)} ms ${mb(pyKib)}`.padEnd(17)}  ${`${lint.ms.toFixed(0)} ms ${mb(lint.kib)} (${speed(lint.ms)})`.padEnd(28)} ${fmt.ms.toFixed(0)} ms ${mb(fmt.kib)} (${(fmt.ms / lint.ms).toFixed(2)}x lint)`);
}
console.log('  targets: lint >= 5x python at every size; at 50 MB memory <= python; fmt <= 2x lint');
if (!havePython) console.log('  (Python reference not available: install python3-protobuf and protobuf-compiler)');
rmSync(dir, { recursive: true, force: true });

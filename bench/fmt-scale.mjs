#!/usr/bin/env node
// Bench (issue 42, item 8): memory of `tritonc fmt`, `fmt --canonical`, `lint` and the language server's
// hover against input size, on the worst shape for a tree: one `dims` list of 1-character elements
// (`1, ` is 3 bytes an element; the issue's 9 MB config held 3,000,000). Sizes n, 2n and 4n side by
// side: linear memory doubles its growth over the start with each size, and the constant is that
// growth per input byte (docs/performance.md states it). Peak RSS of each process (the kernel's
// high-water mark), its start included; the start alone is measured on a 1 KB config.
//
//   node bench/fmt-scale.mjs [--mb 3]   (n in MB; npm run bench runs it with the default)
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  ShutdownRequest,
  ExitNotification,
} from 'vscode-languageserver-protocol/node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'tritonc.js');
const args = process.argv.slice(2);
const baseMb = args.includes('--mb') ? Number(args[args.indexOf('--mb') + 1]) : 3;
const dir = mkdtempSync(join(tmpdir(), 'tritonc-bench-fmt-scale-'));

/** A config of about `bytes` bytes whose bulk is one list of `1`s. */
function listConfig(bytes) {
  const n = Math.max(1, Math.floor((bytes - 150) / 3));
  return `name: "m"\nbackend: "python"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ ${'1, '.repeat(n - 1)}1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n`;
}

/** A model directory holding `text` as its config; the config's path. */
function model(name, text) {
  const m = join(dir, name, 'm');
  mkdirSync(join(m, '1'), { recursive: true });
  writeFileSync(join(m, '1', 'model.py'), '');
  writeFileSync(join(m, 'config.pbtxt'), text);
  return join(m, 'config.pbtxt');
}

/** Peak RSS (MiB) and wall ms of one tritonc command, read from inside the process as it exits. */
function peak(argv) {
  const probe = `const t0=performance.now();process.on('exit',()=>{process.stderr.write('\\nBENCH '+(performance.now()-t0)+' '+process.resourceUsage().maxRSS+'\\n')});process.argv[1]=${JSON.stringify(bin)};await import(${JSON.stringify(bin)});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, 'x', ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /BENCH ([\d.]+) (\d+)/.exec(r.stderr);
  if (!m) throw new Error(`tritonc ${argv.join(' ')}: ${r.stderr.slice(-500)}`);
  return { ms: Number(m[1]), mib: Number(m[2]) / 1024 };
}

/** The kernel's high-water mark of a process's RSS, in MiB (Linux); NaN elsewhere. */
function vmHwm(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** `tritonc lsp --stdio` on the config: open, its diagnostics, then 10 hovers; peak RSS and the hovers' times. */
async function lsp(file, text) {
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const c = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const uri = pathToFileURL(file).href;
  let diagnosed;
  const published = new Promise((resolve) => (diagnosed = resolve));
  c.onNotification(PublishDiagnosticsNotification.type, (p) => p.uri === uri && diagnosed());
  c.listen();
  await c.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {}, workspaceFolders: null });
  await c.sendNotification(InitializedNotification.type, {});
  const t0 = performance.now();
  await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'pbtxt', version: 1, text } });
  await published;
  const lintMs = performance.now() - t0;
  const hovers = [];
  for (let i = 0; i < 10; i++) {
    const h0 = performance.now();
    // On `max_batch_size` (line 3), and on the list itself (line 4).
    await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 2 + (i % 2), character: i % 2 ? 40 : 3 } });
    hovers.push(performance.now() - h0);
  }
  const mib = vmHwm(child.pid);
  await c.sendRequest(ShutdownRequest.type);
  await c.sendNotification(ExitNotification.type);
  c.dispose();
  child.kill();
  return { mib, lintMs, first: hovers[0], rest: Math.max(...hovers.slice(1)) };
}

const start = model('start', listConfig(1000));
const base = { fmt: peak(['fmt', '--check', start]).mib, lint: peak(['lint', '--quiet', start]).mib, lsp: (await lsp(start, readFileSync(start, 'utf8'))).mib };
const rows = [];
for (const k of [1, 2, 4]) {
  const text = listConfig(baseMb * k * 1e6);
  const file = model(`n${k}`, text);
  rows.push({
    k,
    bytes: text.length,
    fmt: peak(['fmt', '--check', file]),
    canonical: peak(['fmt', '--check', '--canonical', file]),
    lint: peak(['lint', '--quiet', file]),
    lsp: await lsp(file, text),
  });
}
rmSync(dir, { recursive: true, force: true });

const mb = (x) => `${x.toFixed(0)} MB`;
/** Heap growth over the start, per input byte. */
const perByte = (mib, start, bytes) => ((mib - start) * 1048576) / bytes;
console.log(
  `\nfmt-scale: one config whose bulk is a list of 1s, at n = ${baseMb} MB, 2n and 4n; peak RSS (the start alone: fmt ${mb(base.fmt)}, lint ${mb(base.lint)}, lsp ${mb(base.lsp)})`,
);
console.log('  size      lint                fmt --check                    fmt --canonical               lsp: open+lint, 10 hovers (first / slowest other)');
for (const r of rows) {
  const cell = (m, b) => `${mb(m.mib)} ${perByte(m.mib, b, r.bytes).toFixed(1)} B/B`;
  console.log(
    `  ${`${(r.bytes / 1e6).toFixed(0)} MB`.padEnd(8)}  ${cell(r.lint, base.lint).padEnd(18)}  ${`${cell(r.fmt, base.fmt)} (${(r.fmt.mib / r.lint.mib).toFixed(2)}x lint)`.padEnd(29)}  ${`${cell(r.canonical, base.fmt)} (${(r.canonical.mib / r.lint.mib).toFixed(2)}x)`.padEnd(28)}  ${mb(r.lsp.mib)} ${perByte(r.lsp.mib, base.lsp, r.bytes).toFixed(1)} B/B, ${r.lsp.lintMs.toFixed(0)} ms, ${r.lsp.first.toFixed(0)} / ${r.lsp.rest.toFixed(0)} ms`,
  );
}
const growth = (key) => rows.map((r) => ((key === 'lsp' ? r.lsp.mib : r[key].mib) - base[key === 'canonical' ? 'fmt' : key]).toFixed(0)).join(' : ');
console.log(
  `  growth over the start at n : 2n : 4n (linear: 1 : 2 : 4): lint ${growth('lint')}, fmt ${growth('fmt')}, canonical ${growth('canonical')}, lsp ${growth('lsp')} MB`,
);
console.log(
  '  B/B: peak RSS over the start, per input byte. Stated (docs/performance.md): fmt <= 40, fmt --canonical <= 80, lint <= 30, lsp <= 130 B/B; each growth linear; fmt <= 2x lint',
);
const over = rows.filter(
  (r) => perByte(r.fmt.mib, base.fmt, r.bytes) > 40 || perByte(r.canonical.mib, base.fmt, r.bytes) > 80 || perByte(r.lsp.mib, base.lsp, r.bytes) > 130,
);
console.log(
  over.length
    ? `  OVER THE STATED CONSTANT at ${over.map((r) => `${(r.bytes / 1e6).toFixed(0)} MB`).join(', ')} (below about 3 MB the start's own growth counts)`
    : '  within the stated constants',
);

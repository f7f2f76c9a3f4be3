// Text-format throughput: tritonc's parser and printer side by side with Google's Python text_format
// (the reference implementation) on the same inputs, as ratios. Target: parse >= 5x the reference.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig, printConfig } from '../dist/index.js';
import { fastest } from './fastest.mjs';
import { largeConfig } from './memory-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The repository's own fixture configs always; the corpus of real configs (kept outside the
// repository: TRITONC_CORPUS, or a checkout beside this one) when it is there.
const fixturesDir = join(root, 'test', 'fixtures', 'configs');
const fixtures = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.pbtxt'))
  .map((f) => readFileSync(join(fixturesDir, f), 'utf8'));
const corpusDir = resolve(process.env.TRITONC_CORPUS ?? join(root, '..', 'shared', 'corpus', 'triton-configs'));
let corpus;
if (existsSync(join(corpusDir, 'MANIFEST.tsv'))) {
  const rows = readFileSync(join(corpusDir, 'MANIFEST.tsv'), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  corpus = rows.filter((r) => r[3] !== 'template').map((r) => readFileSync(join(corpusDir, r[0]), 'utf8'));
} else {
  console.log(`text format: no corpus at ${corpusDir} (set TRITONC_CORPUS to add it); benchmarking the fixture and synthetic configs`);
}

const sets = { fixtures, ...(corpus ? { corpus } : {}), 'large 130K': [largeConfig(500)], 'large 540K': [largeConfig(2000)] };
const repeat = { fixtures: 200, corpus: 20, 'large 130K': 10, 'large 540K': 5 };

const ours = {};
for (const [name, texts] of Object.entries(sets)) {
  const parseMs = fastest(() => {
    for (const t of texts) parseConfig(t);
  }, repeat[name]);
  const docs = texts.map((t) => parseConfig(t));
  const printMs = fastest(() => {
    for (const d of docs) printConfig(d.value);
  }, repeat[name]);
  ours[name] = { parse_ms: parseMs, print_ms: printMs };
}

const dir = mkdtempSync(join(tmpdir(), 'tritonc-bench-'));
const specPath = join(dir, 'spec.json');
writeFileSync(specPath, JSON.stringify({ sets, repeat }));
const python = process.env.TRITONC_REFERENCE_PYTHON ?? '/usr/bin/python3';
const ref = spawnSync(python, [join(root, 'bench', 'pbtxt_reference.py'), join(root, 'schemas', 'model_config.proto'), specPath], { encoding: 'utf8' });
rmSync(dir, { recursive: true, force: true });
const theirs = ref.status === 0 ? JSON.parse(ref.stdout) : undefined;
if (!theirs) console.log(`reference not available (${ref.stderr?.trim() || ref.error}); install python3-protobuf and protobuf-compiler`);

const bytes = (texts) => texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
console.log('\ntext format: tritonc vs Python text_format (fastest pass of several, lower is better)');
console.log('set          files    bytes   op      tritonc ms  python ms   ratio (python/tritonc)');
const missed = [];
for (const name of Object.keys(sets)) {
  for (const op of ['parse', 'print']) {
    const a = ours[name][`${op}_ms`];
    const b = theirs?.[name]?.[`${op}_ms`];
    const ratio = b === undefined ? undefined : b / a;
    if (op === 'parse' && ratio !== undefined && ratio < 5) missed.push(`${name} ${ratio.toFixed(1)}x`);
    console.log(
      `${name.padEnd(12)} ${String(sets[name].length).padStart(5)} ${String(bytes(sets[name])).padStart(8)}   ${op.padEnd(6)} ${a.toFixed(2).padStart(10)} ${b === undefined ? '         -' : b.toFixed(2).padStart(10)}   ${ratio === undefined ? '-' : `${ratio.toFixed(1)}x`}`,
    );
  }
}
if (theirs)
  console.log(missed.length ? `target (parse >= 5x the reference) missed on: ${missed.join(', ')}` : 'target met: parse >= 5x the reference on every set');

// The static checks of `npm test` (docs/architecture.md, "House tools"): the type-check, ESLint,
// Prettier and knip, run side by side. Each is one process on one core, so on a machine with two or
// more they take about as long as the longest (ESLint) instead of their sum. Each one's output is
// printed whole when it ends, under its name; the run fails if any of them does.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const CHECKS = [
  // The longest first, so that it is never the one left waiting for a core.
  { name: 'eslint', args: [bin('eslint', 'bin/eslint.js'), '.'] },
  { name: 'typecheck', args: [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'prettier', args: [bin('prettier', 'bin/prettier.cjs'), '--check', '.'] },
  { name: 'knip', args: [bin('knip', 'bin/knip.js')] },
];

function run({ name, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : ` (${signal ?? `exit ${code}`})`}\n`);
      if (!ok || out.length) process.stdout.write(Buffer.concat(out));
      resolve(ok);
    });
  });
}

// As many at once as there are cores, at least two: the checks wait on the disk at times too.
const width = Math.max(2, availableParallelism());
const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(width, queue.length) }, async () => {
    for (let check = queue.shift(); check; check = queue.shift()) results.push(await run(check));
  }),
);
if (results.some((ok) => !ok)) process.exitCode = 1;

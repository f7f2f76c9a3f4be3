// Runs a TypeScript file of this project (a fixture builder, a one-off script): bundles it with
// esbuild next to node_modules and imports it. Usage: node scripts/run-ts.mjs FILE.ts [args...]
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/run-ts.mjs FILE.ts [args...]');
  process.exit(2);
}
const outDir = resolve('node_modules', '.cache', 'tritonc-run-ts');
mkdirSync(outDir, { recursive: true });
const out = join(outDir, `run-${process.pid}.mjs`);
await build({ entryPoints: [file], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: out, logLevel: 'warning' });
process.argv = [process.argv[0], file, ...rest];
try {
  await import(pathToFileURL(out).href);
} finally {
  rmSync(out, { force: true });
}

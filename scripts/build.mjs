// Builds dist/: the CLI as one bundled file (fast cold start), the library entry, and type declarations.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  define: { __TRITONC_VERSION__: JSON.stringify(pkg.version) },
  // Optional, large, native: loaded lazily only by `verify --runtime ort`.
  external: ['onnxruntime-node'],
  // Bundled CommonJS dependencies still call require().
  banner: { js: "import { createRequire as __tritoncRequire } from 'node:module'; const require = __tritoncRequire(import.meta.url);" },
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/cli/bin.ts'], outfile: 'dist/cli.js' });
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js', packages: 'external' });
if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}

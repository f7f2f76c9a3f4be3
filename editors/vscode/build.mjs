// Bundles the extension into dist/extension.js: vscode-languageclient inside, `vscode` provided by the editor.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  external: ['vscode'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// Builds dist/: the CLI as one bundled CommonJS file (loaded with V8's code cache for a fast cold
// start, see bin/tritonc.js), the library entry (ESM), and type declarations.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// TRITONC_ESBUILD: esbuild installed apart, where an install from git has no devDependencies (scripts/prepare.mjs).
const { build } = await import(process.env.TRITONC_ESBUILD ? pathToFileURL(process.env.TRITONC_ESBUILD).href : 'esbuild');

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// Dependencies' work at load that no tritonc command needs, taken out of the bundle. Each patch
// names the files it applies to; where its text is not found (another version of the dependency),
// the file is bundled as it is and the build says so.
const dependencyPatches = [
  {
    // yargs' string-width packages make, when they load, an Intl.Segmenter (some 10 ms each, three
    // copies) and regular expressions of Unicode properties (\p{RGI_Emoji} alone costs 17 ms: ICU
    // gathers every emoji sequence), for text tritonc measures only when it prints help: both made
    // on first use instead. Each `const x = /...\p{...}/flags;` becomes a function that makes it
    // once, and every use of x calls it.
    file: /[\\/]string-width[\\/]index\.js$/,
    patch(source) {
      const eager = 'const segmenter = new Intl.Segmenter();';
      if (!source.includes(eager)) return undefined;
      let out = source.replace(eager, 'let made; const segmenter = { segment: (text) => (made ??= new Intl.Segmenter()).segment(text) };');
      const names = [];
      out = out.replace(/^const (\w+) = (\/.*\\p\{.*\/[a-z]*);$/gm, (_, name, literal) => {
        names.push(name);
        return `let ${name}$made; const ${name}$ = () => (${name}$made ??= ${literal});`;
      });
      for (const name of names) out = out.replace(new RegExp(`\\b${name}\\b(?![\\w$])`, 'g'), `${name}$()`);
      return out;
    },
  },
  {
    // yargs() guesses a version for --version when made (yargs-factory.js: yargs.version()): it looks
    // for a package.json up from the entry script, and where it finds none node:assert throws, with
    // a stack trace whose lines V8 counts through the whole bundle. tritonc gives its version
    // (cli/main.ts: .version(VERSION)), so the guess is left out.
    file: /[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/,
    patch(source) {
      const guess = '        yargs.help();\n        yargs.version();\n';
      return source.includes(guess) ? source.replace(guess, '        yargs.help();\n') : undefined;
    },
  },
  {
    // yargs' platform shim imports node:assert for its checks of its own arguments (some 10 million
    // instructions of every start to load it, issue 47), which hold in every run: node:assert is loaded
    // only to throw its own error for one that fails (strictEqual and notStrictEqual compare with Object.is).
    file: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/,
    patch(source) {
      const eager = "import { notStrictEqual, strictEqual } from 'assert'\n";
      if (!source.includes(eager)) return undefined;
      return source.replace(
        eager,
        "const notStrictEqual = (a, b, m) => { if (Object.is(a, b)) process.getBuiltinModule('node:assert').notStrictEqual(a, b, m); };\n" +
          "const strictEqual = (a, b, m) => { if (!Object.is(a, b)) process.getBuiltinModule('node:assert').strictEqual(a, b, m); };\n",
      );
    },
  },
  {
    // zod names all its locales (some forty languages, 300 KB of the bundle) in one namespace object,
    // which every command would read and keep; tritonc's messages are its own, and zod's English is
    // the one it configures itself with (zod/v4/classic/external.js: config(en())): only that one is bundled.
    file: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/,
    patch: (source) => (source.includes('export { default as en } from "./en.js";') ? 'export { default as en } from "./en.js";' : undefined),
  },
];
const patchDependencies = {
  name: 'patch-dependencies',
  setup(b) {
    for (const { file, patch } of dependencyPatches) {
      b.onLoad({ filter: file }, (args) => {
        const patched = patch(readFileSync(args.path, 'utf8'));
        if (patched === undefined) console.warn(`scripts/build.mjs: ${args.path} is not the version its patch knows: bundled as it is`);
        return patched === undefined ? undefined : { contents: patched, loader: 'js' };
      });
    }
  },
};

// The ModelConfig schema, read from schemas/model_config.proto once here (src/config/schema-source.ts)
// and carried by the bundles as data: no command parses the .proto or loads protobufjs.
const schemaReader = 'dist/.schema-source.mjs';
await build({
  entryPoints: ['src/config/schema-source.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: schemaReader,
  logLevel: 'warning',
});
const schemaSource = (await import(new URL(`../${schemaReader}`, import.meta.url).href)).readSchemaSource();
rmSync(schemaReader);
const compiledSchema = {
  name: 'compiled-schema',
  setup(b) {
    b.onResolve({ filter: /^\.\/schema-source\.js$/ }, () => ({ path: 'schema-source', namespace: 'compiled-schema' }));
    b.onLoad({ filter: /.*/, namespace: 'compiled-schema' }, () => ({
      contents: "export function readSchemaSource() { throw new Error('tritonc: this build carries the schema as __TRITONC_SCHEMA__'); }",
      loader: 'js',
    }));
  },
};

// A JSON import (src/triton/data/*.json) as JSON.parse of its text: V8 parses JSON text several
// times faster than it evaluates the same object literal, and every start evaluates it.
const jsonAsParse = {
  name: 'json-as-parse',
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, (args) => ({
      contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

// A `?raw` import (src/client/runtime-text.ts: the generated clients' runtimes, real .ts and .py files)
// as the file's text, as vite gives it under vitest.
const rawText = {
  name: 'raw-text',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, (args) => ({ path: join(args.resolveDir, args.path.slice(0, -'?raw'.length)), namespace: 'raw-text' }));
    b.onLoad({ filter: /.*/, namespace: 'raw-text' }, (args) => ({ contents: readFileSync(args.path, 'utf8'), loader: 'text', watchFiles: [args.path] }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  // Optional, large, native: loaded lazily only by `verify --runtime ort`. The language server's
  // libraries are required only by `tritonc lsp`: left out of the bundle, so no other command parses them.
  // The object-storage clients are optional too, loaded only for an s3://, gs:// or as:// repository.
  external: [
    'onnxruntime-node',
    'vscode-languageserver',
    'vscode-languageserver-textdocument',
    '@aws-sdk/client-s3',
    '@google-cloud/storage',
    '@azure/storage-blob',
    '@azure/identity',
  ],
  logLevel: 'warning',
  // ASCII only, and no comments or indentation: V8 then holds the bundle's source as one byte a
  // character, a third of the two-byte string one stray "µ" made it (every command pays for it).
  charset: 'ascii',
  minifyWhitespace: true,
  plugins: [patchDependencies, compiledSchema, jsonAsParse, rawText],
};
const schemaDefine = { __TRITONC_SCHEMA__: JSON.stringify(JSON.stringify(schemaSource)) };

await build({
  ...common,
  entryPoints: ['src/cli/bin.ts'],
  outfile: 'dist/cli.cjs',
  format: 'cjs',
  // Short local names: a smaller source to read and a smaller code cache to load at every start.
  // TRITONC_BUILD_NAMES=1 keeps the names, for a CPU profile that says which function is which.
  minifyIdentifiers: !process.env.TRITONC_BUILD_NAMES,
  // vm.Script can cache the compiled code of a script, not of an ES module: hence CommonJS here.
  define: { __TRITONC_VERSION__: JSON.stringify(pkg.version), ...schemaDefine, 'import.meta.url': '__tritoncModuleUrl' },
  banner: { js: "const __tritoncModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// bin/tritonc.js reads the bundle as latin1 (a one-byte string, no UTF-8 decoding): exact only for ASCII.
if (readFileSync('dist/cli.cjs').some((b) => b > 0x7f)) throw new Error('dist/cli.cjs is not ASCII: bin/tritonc.js reads it as latin1');
// The library (ESM) and its command-line subpath, tritonc/cli.
await build({
  ...common,
  entryPoints: { index: 'src/index.ts', cli: 'src/cli/index.ts' },
  outdir: 'dist',
  format: 'esm',
  packages: 'external',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __TRITONC_VERSION__: JSON.stringify(pkg.version), ...schemaDefine },
});
if (!process.argv.includes('--no-types')) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
// Warm the code cache with a typical run, so the first real command starts fast too. (Best effort:
// without the example repository, or with a read-only dist/, tritonc just compiles at first start.)
try {
  const example = existsSync('model_repository') ? ['lint', 'model_repository', '--format', 'json'] : ['--version'];
  execFileSync(process.execPath, ['bin/tritonc.js', ...example], { stdio: 'ignore' });
} catch {
  // lint exits 1 when it finds errors; the cache is written all the same
}

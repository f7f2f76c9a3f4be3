#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/cli.cjs) through vm.Script with V8's code cache, which saves
// most of the time a cold start spends compiling. The cache sits beside the bundle; when it is
// missing, stale (another Node version) or cannot be written, the CLI simply compiles as usual.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.cjs');
const cacheFile = `${file}.${process.versions.v8}.cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
// The bundle is ASCII (scripts/build.mjs checks): read as latin1, it needs no UTF-8 decoding.
const script = new vm.Script(Module.wrap(readFileSync(file, 'latin1')), {
  filename: file,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (!cachedData || script.cachedDataRejected) {
  // Made after the run, so the cache also holds the functions the run compiled lazily.
  process.once('exit', () => {
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
    } catch {
      // a read-only install: run without a cache
    }
  });
}
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));

#!/usr/bin/env node
// Launcher: runs the bundled CLI (dist/cli.cjs) through vm.Script with V8's code cache, which saves
// most of the time a cold start spends compiling. The cache sits beside the bundle; when it is
// missing, stale (another Node version) or cannot be written, the CLI simply compiles as usual.
// CommonJS (bin/package.json): an ES module as the entry point loads Node's ES module loader first,
// some 15-20 million instructions of every start (docs/performance.md, issue 47).
'use strict';
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire, Module } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const file = join(__dirname, '..', 'dist', 'cli.cjs');
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
const bundle = { exports: {} };
script.runInThisContext()(bundle.exports, createRequire(file), bundle, file, dirname(file));

// `npm run bench`: every benchmark, each printing its ratios side by side with its targets.
// Pass --quick to run the ONNX bench on smaller models and issue 47's goals (goals.mjs, last) with fewer rounds.
const benches = [
  './pbtxt.mjs',
  './onnx-inspect.mjs',
  './lint.mjs',
  './scale.mjs',
  './fmt-scale.mjs',
  './remote.mjs',
  './watch.mjs',
  './lsp.mjs',
  './fuzz.mjs',
  './readers-scale.mjs',
  './input-readers-scale.mjs',
  './goals.mjs',
];
for (const b of benches) await import(b);

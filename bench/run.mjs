// `npm run bench`: every benchmark, each printing its ratios side by side.
// Pass --quick to run the ONNX bench on smaller models.
const benches = ['./pbtxt.mjs', './onnx-inspect.mjs'];
for (const b of benches) await import(b);

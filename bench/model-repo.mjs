// The generated repository of bench/lint.mjs, bench/goals.mjs and bench/compare.mjs: image classifiers of a few sizes
// (config.pbtxt + a small ONNX model each), every config correct except one in fifty (dims with the
// batch axis) so a lint reports something, as real repositories do.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Writes `count` models into `repoDir`; `root` is the checkout whose ONNX writer (fixtures/onnx) makes the models. */
export async function makeRepo(root, repoDir, count) {
  // The ONNX writer is TypeScript: bundled into bench/.out/ first.
  const outfile = path.join(root, 'bench', '.out', 'model-repo-lib.mjs');
  await build({
    entryPoints: [path.join(root, 'fixtures/onnx/model-builder.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const { model, tensorInfo, floatTensor, encodeModel, T } = await import(pathToFileURL(outfile).href);
  const onnx = (classes) =>
    encodeModel(
      model({
        name: 'bench',
        node: [],
        initializer: [floatTensor('fc.weight', [classes, 8], new Float32Array(classes * 8))],
        input: [tensorInfo('input', T.FLOAT, ['batch', 3, 224, 224])],
        output: [tensorInfo('output', T.FLOAT, ['batch', classes])],
      }),
    );
  const models = [onnx(10), onnx(100), onnx(1000)];
  for (let i = 0; i < count; i++) {
    const name = `model_${String(i).padStart(4, '0')}`;
    const classes = [10, 100, 1000][i % 3];
    fs.mkdirSync(path.join(repoDir, name, '1'), { recursive: true });
    fs.writeFileSync(path.join(repoDir, name, '1', 'model.onnx'), models[i % 3]);
    const dims = i % 50 === 0 ? '[ 1, 3, 224, 224 ]' : '[ 3, 224, 224 ]';
    fs.writeFileSync(
      path.join(repoDir, name, 'config.pbtxt'),
      `name: "${name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n` +
        `input [ { name: "input" data_type: TYPE_FP32 dims: ${dims} } ]\n` +
        `output [ { name: "output" data_type: TYPE_FP32 dims: [ ${classes} ] } ]\n` +
        `dynamic_batching { max_queue_delay_microseconds: 2000 }\ninstance_group [ { count: 1 kind: KIND_GPU } ]\n`,
    );
  }
}

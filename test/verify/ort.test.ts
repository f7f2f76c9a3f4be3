// verify --runtime ort on real ONNX models (fixtures/onnx) with onnxruntime-node.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { verifyModel } from '../../src/verify/verify.js';
import { cleanOrtError, graphOptimizationLevel } from '../../src/verify/ort-runner.js';
import { classifierConfig, modelDir } from './helpers.js';
import { model, node, T, tensorInfo, writeModel } from '../../fixtures/onnx/model-builder.js';
import { tempDir } from '../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('verify --runtime ort', () => {
  it('loads the example classifier and answers at batch 1 and 32 as configured', async () => {
    const r = await verifyModel({ modelDir: 'model_repository/classifier', cwd: ROOT });
    expect(r.outcome).toBe('ok');
    expect(r.exitCode).toBe(0);
    expect(r.problems).toEqual([]);
    expect(r.modelFile).toBe(join('model_repository', 'classifier', '1', 'model.onnx'));
    expect(r.engine).toMatch(/^ONNX Runtime 1\.\d+\.\d+ \(CPU\)$/);
    expect(r.runs.map((x) => x.batchSize)).toEqual([1, 32]);
    for (const run of r.runs) {
      expect(run.ok).toBe(true);
      expect(run.ms).toBeGreaterThan(0);
      expect(run.inputs).toEqual([{ name: 'input', dataType: 'TYPE_FP32', shape: [run.batchSize!, 3, 224, 224] }]);
      expect(run.outputs).toEqual([
        { name: 'output', dataType: 'TYPE_FP32', shape: [run.batchSize!, 1000], expectedShape: [-1, 1000], expectedDataType: 'TYPE_FP32', ok: true },
      ]);
    }
    // The example asks for GPU instances and TensorRT, which a CPU session cannot exercise: said, not hidden.
    expect(r.notes.join('\n')).toContain('KIND_GPU instances and the tensorrt accelerator were not exercised');
  });

  it('feeds an input named __proto__ like any other (the feeds are a record with no prototype)', async () => {
    const dir = join(tempDir('tritonc-verify-proto-'), 'proto');
    mkdirSync(join(dir, '1'), { recursive: true });
    await writeModel(
      join(dir, '1', 'model.onnx'),
      model({
        name: 'proto',
        node: [node('Relu', ['__proto__'], ['constructor'])],
        input: [tensorInfo('__proto__', T.FLOAT, ['batch', 4])],
        output: [tensorInfo('constructor', T.FLOAT, ['batch', 4])],
      }),
    );
    writeFileSync(
      join(dir, 'config.pbtxt'),
      'backend: "onnxruntime"\nmax_batch_size: 2\ninput [ { name: "__proto__" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "constructor" data_type: TYPE_FP32 dims: [ 4 ] } ]\n',
    );
    const r = await verifyModel({ modelDir: dir });
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => [x.batchSize, x.ok, x.inputs.map((i) => i.name)])).toEqual([
      [1, true, ['__proto__']],
      [2, true, ['__proto__']],
    ]);
  });

  it('finds a graph that hard-codes batch 1 behind a dynamic batch axis', async () => {
    const { dir } = await modelDir(
      'batch1-reshape',
      [
        'backend: "onnxruntime"',
        'max_batch_size: 8',
        'input [ { name: "input" data_type: TYPE_FP32 dims: [ 4 ] } ]',
        'output [ { name: "output" data_type: TYPE_FP32 dims: [ 4 ] } ]',
        '',
      ].join('\n'),
    );
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([
      [1, true],
      [8, false],
    ]);
    const failed = r.runs[1]!;
    // ONNX Runtime's own words, without its C++ source path.
    expect(failed.error).toContain('The input tensor cannot be reshaped to the requested shape. Input shape:{8,4}, requested shape:{1,4}');
    expect(failed.error).not.toContain('onnxruntime_src');
    const messages = r.problems.map((p) => p.message).join('\n');
    expect(messages).toContain("the model fails at batch 8 (inputs 'input' [8,4]): ONNX Runtime: ");
    expect(messages).toContain('the model answers at batch 1 but fails at batch 8: its graph likely hard-codes batch 1');
  });

  it('refuses a config whose dims disagree with the model, naming the tensor and both shapes', async () => {
    const { dir } = await modelDir('classifier', classifierConfig({ inputDims: '[ 3, 256, 256 ]' }));
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    expect(r.problems).toEqual([
      {
        kind: 'io-shape',
        ruleId: 'io-shape',
        tensor: 'input',
        message:
          "input 'input': config.pbtxt's shape [-1,3,256,256] ([-1] + dims [3,256,256]) does not match the model's [batch,3,224,224]; set dims: [3,224,224]",
      },
    ]);
    expect(r.runs).toEqual([]);
    expect(r.notes).toContain('no inference was run: the inputs above do not match the model');
  });

  it('names a batch dim written into dims', async () => {
    const { dir } = await modelDir('classifier', classifierConfig({ inputDims: '[ 1, 3, 224, 224 ]' }));
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    expect(r.problems[0]).toMatchObject({ ruleId: 'batch-dim-in-dims', tensor: 'input' });
    expect(r.problems[0]!.message).toBe(
      "input 'input': dims [1,3,224,224] include the batch axis; with max_batch_size: 32 Triton expects dims [3,224,224] (full shape [-1,1,3,224,224] ([-1] + dims [1,3,224,224]) against the model's [batch,3,224,224])",
    );
  });

  it('checks output shapes exactly, as Triton does, and at every batch size', async () => {
    const { dir } = await modelDir('classifier', classifierConfig({ outputDims: '[ 10 ]' }));
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    const messages = r.problems.map((p) => p.message);
    expect(messages).toContain("output 'output': config.pbtxt's shape [-1,10] ([-1] + dims [10]) does not match the model's [batch,1000]; set dims: [1000]");
    expect(messages).toContain("output 'output' at batch 1: the model returned shape [1,1000], config.pbtxt declares [-1,10] ([-1] + dims [10])");
    expect(messages).toContain("output 'output' at batch 32: the model returned shape [32,1000], config.pbtxt declares [-1,10] ([-1] + dims [10])");
    expect(r.runs.map((x) => x.ok)).toEqual([false, false]);
  });

  it('reports wrong names and data types before running', async () => {
    const { dir } = await modelDir('classifier', classifierConfig({ inputName: 'images', inputType: 'TYPE_FP16' }));
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    expect(r.problems.map((p) => [p.kind, p.tensor])).toEqual([
      ['io-name', 'input'],
      ['io-name', 'images'],
    ]);
    expect(r.problems[1]!.message).toBe(
      "config input 'images' is not an input of the model; the model's inputs are 'input'. Use one of those names in config.pbtxt",
    );
    const typed = await modelDir('classifier', classifierConfig({ inputType: 'TYPE_FP16' }));
    const t = await verifyModel({ modelDir: typed.dir });
    expect(t.problems.map((p) => p.message)).toEqual([
      "input 'input': config.pbtxt says data_type: TYPE_FP16 but the model's input is TYPE_FP32; set data_type: TYPE_FP32",
    ]);
  });

  it('runs a model without batching once, at its fixed shape', async () => {
    const { dir } = await modelDir(
      'fixed-batch',
      [
        'backend: "onnxruntime"',
        'max_batch_size: 0',
        'input [ { name: "images" data_type: TYPE_FP32 dims: [ 1, 3, 32, 32 ] } ]',
        'output [ { name: "features" data_type: TYPE_FP32 dims: [ 1, 3, 32, 32 ] } ]',
        '',
      ].join('\n'),
    );
    const r = await verifyModel({ modelDir: dir });
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => [x.batchSize, x.ok, x.inputs[0]!.shape])).toEqual([[null, true, [1, 3, 32, 32]]]);
  });

  it('says a fixed first dim cannot batch', async () => {
    const { dir } = await modelDir(
      'fixed-batch',
      [
        'backend: "onnxruntime"',
        'max_batch_size: 8',
        'input [ { name: "images" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]',
        'output [ { name: "features" data_type: TYPE_FP32 dims: [ 3, 32, 32 ] } ]',
        '',
      ].join('\n'),
    );
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(1);
    expect(r.problems[0]).toMatchObject({ kind: 'missing-dynamic-axis', ruleId: 'missing-dynamic-axis', tensor: 'images' });
    expect(r.problems[0]!.message).toContain("max_batch_size is 8 but the model's shape [1,3,32,32] has no dynamic first dim");
  });

  it('sends every element type ONNX Runtime serves (strings, bools, FP16 as raw bits, 64-bit ints)', async () => {
    const golden = readFileSync(join(ROOT, 'test/generate/golden/ort-elem-types.pbtxt'), 'utf8');
    const { dir } = await modelDir('ort-elem-types', golden);
    const r = await verifyModel({ modelDir: dir });
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => x.batchSize)).toEqual([1, 4]);
    const types = r.runs[1]!.outputs.map((o) => o.dataType).sort();
    expect(types).toEqual([
      'TYPE_BOOL',
      'TYPE_FP16',
      'TYPE_FP32',
      'TYPE_FP64',
      'TYPE_INT16',
      'TYPE_INT32',
      'TYPE_INT64',
      'TYPE_INT8',
      'TYPE_STRING',
      'TYPE_UINT16',
      'TYPE_UINT32',
      'TYPE_UINT64',
      'TYPE_UINT8',
    ]);
    expect(r.runs[1]!.outputs.every((o) => o.shape.join() === '4,2')).toBe(true);
  });

  it('sizes -1 dims other than the batch dim small, and multi-io models run whole', async () => {
    const { dir } = await modelDir(
      'symbolic-dims',
      [
        'backend: "onnxruntime"',
        'max_batch_size: 2',
        'input [ { name: "input_ids" data_type: TYPE_INT64 dims: [ -1 ] }, { name: "attention_mask" data_type: TYPE_INT64 dims: [ -1 ] }, { name: "extra" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]',
        'output [ { name: "logits" data_type: TYPE_FP32 dims: [ -1 ] }, { name: "extra_out" data_type: TYPE_FP32 dims: [ -1, 4 ] } ]',
        '',
      ].join('\n'),
    );
    const r = await verifyModel({ modelDir: dir, dynamicDimSize: 3 });
    expect(r.problems).toEqual([]);
    expect(r.runs[1]!.inputs.map((i) => i.shape)).toEqual([
      [2, 3],
      [2, 3],
      [2, 3, 4],
    ]);
    expect(r.runs[1]!.outputs.map((o) => o.shape)).toEqual([
      [2, 3],
      [2, 3, 4],
    ]);
  });

  it('uses the graph optimization level Triton would (optimization.graph.level)', () => {
    expect([
      graphOptimizationLevel(undefined),
      graphOptimizationLevel(-1),
      graphOptimizationLevel(1),
      graphOptimizationLevel(2),
      graphOptimizationLevel(0),
    ]).toEqual(['all', 'basic', 'extended', 'disabled', 'all']);
  });

  it('cleans ONNX Runtime errors of C++ source paths and signatures', () => {
    const raw =
      "Non-zero status code returned while running Reshape node. Name:'r' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/reshape_helper.h:91 onnxruntime::ReshapeHelper::ReshapeHelper(const onnxruntime::TensorShape&, onnxruntime::TensorShapeVector&, bool) input_shape_size == requested_shape_size was false. The input tensor cannot be reshaped.\n";
    expect(cleanOrtError(raw)).toBe(
      "Non-zero status code returned while running Reshape node. Name:'r' Status Message: input_shape_size == requested_shape_size was false. The input tensor cannot be reshaped.",
    );
  });
});

describe('verify --runtime ort: could not run (exit 2)', () => {
  it('says how to install onnxruntime-node when it is absent', async () => {
    const missing = Object.assign(new Error("Cannot find package 'onnxruntime-node' imported from /x/dist/cli.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    const r = await verifyModel({ modelDir: 'model_repository/classifier', cwd: ROOT, deps: { ortLoader: () => Promise.reject(missing) } });
    expect(r.outcome).toBe('cannot-run');
    expect(r.exitCode).toBe(2);
    expect(r.error).toContain('npm install onnxruntime-node');
    expect(r.error).toContain('ONNXRUNTIME_NODE_INSTALL=skip');
    expect(r.error).not.toContain('.npmrc');
    expect(r.runs).toEqual([]);
  });

  it('reports a config that does not parse with file:line:column', async () => {
    const { dir, repo } = await modelDir('classifier', 'name: "classifier"\nmax_batch_size: 8\ninput [ { name: "input" data_type: FP32 } ]\n');
    const r = await verifyModel({ modelDir: dir, cwd: repo });
    expect(r.exitCode).toBe(2);
    expect(r.error).toMatch(/^classifier\/config\.pbtxt does not parse, so no runtime can load it:\nclassifier\/config\.pbtxt:3:36: /);
  });

  it('needs config.pbtxt, an ONNX model, and both inputs and outputs', async () => {
    const noConfig = await modelDir('classifier', '');
    const { rmSync } = await import('node:fs');
    rmSync(join(noConfig.dir, 'config.pbtxt'));
    expect((await verifyModel({ modelDir: noConfig.dir })).error).toContain('has no config.pbtxt to verify. Write one with: tritonc generate');
    const plan = await modelDir('classifier', 'backend: "tensorrt"\nmax_batch_size: 8\n');
    expect((await verifyModel({ modelDir: plan.dir })).error).toContain('--runtime ort runs ONNX models only');
    const partial = await modelDir(
      'classifier',
      'backend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "input" data_type: TYPE_FP32 dims: [3,224,224] } ]\n',
    );
    expect((await verifyModel({ modelDir: partial.dir })).error).toContain('config.pbtxt lists no outputs; Triton would auto-complete them');
    expect((await verifyModel({ modelDir: '/nonexistent/model' })).exitCode).toBe(2);
  });
});

describe('verify: the sizes sent for variable dims', () => {
  const CONV_CONFIG = [
    'backend: "onnxruntime"',
    'max_batch_size: 4',
    'input [ { name: "signal" data_type: TYPE_FP32 dims: [ 1, -1 ] } ]',
    'output [ { name: "frames" data_type: TYPE_FP32 dims: [ 1, -1 ] } ]',
    '',
  ].join('\n');

  it('a graph that needs a minimum length fails at batch 1 with size 1: exit 2, "pass --shape", not blamed on the config', async () => {
    const { dir } = await modelDir('min-length-conv', CONV_CONFIG);
    const r = await verifyModel({ modelDir: dir });
    expect(r.exitCode).toBe(2);
    expect(r.outcome).toBe('cannot-run');
    expect(r.error).toMatch(
      /^could not check the model at these input sizes: it fails at batch 1, before any batch-size question arises \(.+\)\. Variable dims were sent as 1; .* pass --shape signal:1,16 /,
    );
    expect(r.problems).toEqual([]);
  });

  it('--shape gives the sizes, and the model is checked at batch 1 and 4', async () => {
    const { dir } = await modelDir('min-length-conv', CONV_CONFIG);
    const r = await verifyModel({ modelDir: dir, shapes: [{ name: 'signal', dims: [1, 16] }] });
    expect(r.outcome).toBe('ok');
    expect(r.runs.map((x) => [x.batchSize, x.inputs[0]!.shape, x.outputs[0]!.shape])).toEqual([
      [1, [1, 1, 16], [1, 1, 14]],
      [4, [4, 1, 16], [4, 1, 14]],
    ]);
  });

  it("the config's model_warmup gives them when --shape does not", async () => {
    const warm = `${CONV_CONFIG}model_warmup [ { name: "sample" batch_size: 1 inputs { key: "signal" value: { data_type: TYPE_FP32 dims: [ 1, 400 ] zero_data: true } } } ]\n`;
    const { dir } = await modelDir('min-length-conv', warm);
    const r = await verifyModel({ modelDir: dir });
    expect(r.outcome).toBe('ok');
    expect(r.runs[0]!.inputs[0]!.shape).toEqual([1, 1, 400]);
  });

  it('a --shape that does not fit the input is exit 2 with the dims it needs', async () => {
    const { dir } = await modelDir('min-length-conv', CONV_CONFIG);
    const r = await verifyModel({ modelDir: dir, shapes: [{ name: 'signal', dims: [2, 16] }] });
    expect(r.exitCode).toBe(2);
    expect(r.error).toBe(
      "--shape signal:2,16: input 'signal' has dims [1,-1]; give one size per dim, without the batch dim, equal to the fixed ones (e.g. --shape signal:1,16)",
    );
    const unknown = await verifyModel({ modelDir: dir, shapes: [{ name: 'audio', dims: [1, 16] }] });
    expect(unknown.error).toContain("'audio' is not an input of config.pbtxt (its inputs: signal)");
  });
});

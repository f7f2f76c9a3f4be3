import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type FixtureName } from '../../fixtures/onnx/index.js';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { generateConfig } from '../../src/generate/generate.js';
import { readSignatureSync } from '../../src/onnx/reader.js';
import type { ModelSignature } from '../../src/model-file/signature.js';
import { tempDir } from '../support/cli.js';

const GOLDEN = new URL('./golden/', import.meta.url);
const sigs = new Map<string, ModelSignature>();

beforeAll(async () => {
  const dir = tempDir();
  for (const name of [
    'fixed-batch',
    'dynamic-batch',
    'symbolic-dims',
    'scalar',
    'multi-io',
    'all-elem-types',
    'ort-elem-types',
    'non-tensor-io',
    'initializers-as-inputs',
    'unknown-rank',
    'classifier',
  ] as FixtureName[]) {
    sigs.set(name, readSignatureSync(await buildFixture(name, dir)));
  }
});

const gen = (fixture: string, opts = {}) => generateConfig({ signature: sigs.get(fixture)!, modelName: fixture, shownPath: `${fixture}/1/model.onnx` }, opts);

describe('generate: golden configs (Triton ONNX auto-complete semantics)', () => {
  for (const fixture of ['fixed-batch', 'dynamic-batch', 'symbolic-dims', 'scalar', 'multi-io', 'ort-elem-types', 'initializers-as-inputs', 'classifier']) {
    it(fixture, () => {
      const r = gen(fixture);
      expect(r.problems).toEqual([]);
      const text = printConfig(r.config!);
      const file = new URL(`${fixture}.pbtxt`, GOLDEN);
      if (process.env.UPDATE_GOLDEN || !existsSync(file)) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, text);
      }
      expect(text).toBe(readFileSync(file, 'utf8'));
      expect(parseConfig(text).diagnostics).toEqual([]);
    });
  }
});

describe('generate: the rules', () => {
  it("batches a model with a dynamic first dim at Triton's default max_batch_size, with dynamic batching", () => {
    const c = gen('dynamic-batch').config!;
    expect(c.max_batch_size).toBe(4);
    expect(c.dynamic_batching).toEqual({});
    expect(c.input).toEqual([{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 32, 32] }]);
  });

  it('keeps dims whole and does not batch a model with a fixed first dim', () => {
    const c = gen('fixed-batch').config!;
    expect(c.max_batch_size).toBe(0);
    expect(c.dynamic_batching).toBeUndefined();
    expect(c.input![0]!.dims).toEqual([1, 3, 32, 32]);
  });

  it('writes symbolic, unset and -1 dims as -1', () => {
    const c = gen('symbolic-dims').config!;
    expect(c.input!.map((i) => i.dims)).toEqual([[-1], [-1], [-1, 4]]);
  });

  it('writes a scalar as dims [1] with an empty reshape when batching, and without when not', () => {
    const c = gen('scalar').config!;
    expect(c.max_batch_size).toBe(0);
    expect(c.input![1]).toEqual({ name: 'threshold', data_type: 'TYPE_FP32', dims: [1] });
  });

  it('writes a batch-only tensor ([batch]) as dims [1] with an empty reshape when batching', () => {
    const base = sigs.get('dynamic-batch')!;
    const t = (name: string) => ({ name, kind: 'tensor' as const, elemType: 'INT64', tritonType: 'TYPE_INT64', shape: ['batch'] });
    const sig: ModelSignature = { ...base, inputs: [t('id')], outputs: [t('score')], batchable: true };
    const c = generateConfig({ signature: sig, modelName: 'm' }).config!;
    expect(c.max_batch_size).toBe(4);
    expect(c.input).toEqual([{ name: 'id', data_type: 'TYPE_INT64', dims: [1], reshape: { shape: [] } }]);
    expect(printConfig(c)).toContain('reshape { shape: [ ] }');
  });

  it("keeps the model's order of inputs and outputs and their exact names", () => {
    const c = gen('multi-io').config!;
    expect(c.input!.map((i) => i.name)).toEqual(sigs.get('multi-io')!.inputs.map((i) => i.name));
    expect(c.output!.map((o) => o.name)).toEqual(sigs.get('multi-io')!.outputs.map((o) => o.name));
  });

  it('maps every ONNX element type Triton supports, and names the ones it does not', () => {
    const r = gen('all-elem-types');
    expect(r.config).toBeUndefined();
    const refused = r.problems.map((p) => p.tensor);
    expect(refused).toEqual(expect.arrayContaining(['in_COMPLEX64', 'in_FLOAT8E4M3FN', 'in_INT4', 'out_FLOAT4E2M1']));
    expect(refused).not.toContain('in_BFLOAT16');
    expect(r.problems[0]!.message).toMatch(/element type COMPLEX64, which Triton cannot serve/);
    const ok = gen('ort-elem-types').config!;
    expect(ok.input!.map((i) => i.data_type)).toEqual([
      'TYPE_FP32',
      'TYPE_UINT8',
      'TYPE_INT8',
      'TYPE_UINT16',
      'TYPE_INT16',
      'TYPE_INT32',
      'TYPE_INT64',
      'TYPE_STRING',
      'TYPE_BOOL',
      'TYPE_FP16',
      'TYPE_FP64',
      'TYPE_UINT32',
      'TYPE_UINT64',
    ]);
  });

  it('refuses non-tensor inputs and outputs by name', () => {
    const r = gen('non-tensor-io');
    expect(r.config).toBeUndefined();
    expect(r.problems.every((p) => p.code === 'unsupported-tensor')).toBe(true);
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(/is a sequence, not a tensor/);
  });

  it('leaves initializers listed as inputs (IR 3) out of the inputs', () => {
    const c = gen('initializers-as-inputs').config!;
    expect(c.input!.map((i) => i.name)).toEqual(sigs.get('initializers-as-inputs')!.inputs.map((i) => i.name));
    expect(sigs.get('initializers-as-inputs')!.overridableInitializers.length).toBeGreaterThan(0);
  });

  it('refuses to batch a model whose first dim is fixed, with its shapes and the fix (the dynamic axis mismatch)', () => {
    const r = gen('fixed-batch', { maxBatchSize: 8 });
    expect(r.config).toBeUndefined();
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.code).toBe('dynamic-axis-mismatch');
    expect(r.problems[0]!.message).toContain("input 'images' has shape [1,3,32,32] (first dim 1 is fixed)");
    expect(r.problems[0]!.message).toContain("dynamic_axes={'images': {0: 'batch'}, 'features': {0: 'batch'}}");
  });

  it('applies the production options: batching, queue delay, instances, TensorRT FP16', () => {
    const c = gen('classifier', {
      maxBatchSize: 32,
      preferredBatchSize: [8, 16, 32],
      maxQueueDelayMicroseconds: 5000,
      instances: 2,
      kind: 'gpu',
      accelerator: { name: 'tensorrt', precision: 'FP16' },
    }).config!;
    expect(c.max_batch_size).toBe(32);
    expect(c.input).toEqual([{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 224, 224] }]);
    expect(c.output).toEqual([{ name: 'output', data_type: 'TYPE_FP32', dims: [1000] }]);
    expect(c.dynamic_batching).toEqual({ preferred_batch_size: [8, 16, 32], max_queue_delay_microseconds: 5000 });
    expect(c.instance_group).toEqual([{ count: 2, kind: 'KIND_GPU' }]);
    expect(c.optimization).toEqual({ execution_accelerators: { gpu_execution_accelerator: [{ name: 'tensorrt', parameters: { precision_mode: 'FP16' } }] } });
  });

  it("refuses options that contradict each other or Triton's rules", () => {
    const msgs = (o: object) =>
      gen('classifier', o)
        .problems.map((p) => p.message)
        .join('\n');
    expect(msgs({ maxBatchSize: 8, preferredBatchSize: [16] })).toContain('larger than max_batch_size 8');
    expect(msgs({ kind: 'cpu', accelerator: { name: 'tensorrt', precision: 'FP16' } })).toContain('silently ignores GPU accelerators on KIND_CPU');
    expect(msgs({ maxBatchSize: 1, preferredBatchSize: [1] })).toContain('dynamic batching, which is off');
    expect(msgs({ kind: 'cpu', gpus: [0] })).toContain('--kind cpu');
  });

  it('can write platform instead of backend, and a model file name other than model.onnx', () => {
    const r = generateConfig({ signature: sigs.get('classifier')!, modelName: 'c', modelFileName: 'resnet.onnx' }, { field: 'platform' });
    expect(r.config).toMatchObject({ platform: 'onnxruntime_onnx', default_model_filename: 'resnet.onnx' });
    expect(r.config!.backend).toBeUndefined();
  });

  it('is deterministic', () => {
    expect(printConfig(gen('multi-io').config!)).toBe(printConfig(gen('multi-io').config!));
  });
});

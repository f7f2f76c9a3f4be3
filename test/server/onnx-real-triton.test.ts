// The tutorial's path on the real tritonserver 2.51.0 with Triton's own ONNX Runtime backend (r24.10,
// CPU; scripts/real-triton/setup.sh lays it out from ../shared/triton-backends): the example
// repository's image classifier (input [batch,3,224,224] FP32, output [batch,1000], opset 17, a
// dynamic batch axis) under the tutorial's config adapted to a CPU host (max_batch_size 32, preferred
// 8/16/32, a 5 ms queue delay, two KIND_CPU instances). It loads, answers what ONNX Runtime itself
// computes for the same input, and under concurrent requests the server's statistics show batches
// larger than one. Without the venv or the backend the suite is skipped with one line; under CI=true it runs.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeInferResponse, encodeInferRequest } from '../../src/verify/infer-body.js';
import { withPrivateTemp } from '../../src/util/private-temp.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';
import { readOnceCounted, realBackendsRun, startRealTriton, TUTORIAL_CPU_CONFIG, type RealTriton } from '../support/real-triton.js';

const runs = realBackendsRun('real ONNX Runtime backend tests', ['onnxruntime']);

const IMAGE = 3 * 224 * 224;

/** One image per request, each filled from its index so that answers cannot be mixed up unnoticed. */
function image(k: number): Float32Array {
  const x = new Float32Array(IMAGE);
  for (let i = 0; i < IMAGE; i++) x[i] = Math.sin(i * 0.001 + k) * 0.5;
  return x;
}

let server: RealTriton | undefined;
let modelPath = '';

async function infer(k: number): Promise<Float32Array> {
  const data = Buffer.from(image(k).buffer);
  const req = encodeInferRequest({ inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 3, 224, 224], data }], outputs: ['output'] });
  const r = await fetch(`${server!.url}/v2/models/classifier/infer`, {
    method: 'POST',
    body: req.body,
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(req.headerLength) },
  });
  const body = Buffer.from(await r.arrayBuffer());
  expect(r.status, body.toString('utf8', 0, 300)).toBe(200);
  const decoded = decodeInferResponse(body, Number(r.headers.get('inference-header-content-length')));
  if (!decoded.ok) throw new Error(decoded.reason);
  expect(decoded.response.outputs[0]!.shape).toEqual([1, 1000]);
  const out = decoded.binary.get('output')!;
  return new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}

describe.runIf(runs)('the tutorial classifier on the real ONNX Runtime backend', () => {
  beforeAll(async () => {
    const repo = tempDir('tritonc-onnx-real-');
    mkdirSync(join(repo, 'classifier', '1'), { recursive: true });
    modelPath = join(repo, 'classifier', '1', 'model.onnx');
    copyFileSync(join(ROOT, 'model_repository', 'classifier', '1', 'model.onnx'), modelPath);
    writeFileSync(join(repo, 'classifier', 'config.pbtxt'), TUTORIAL_CPU_CONFIG);
    server = await startRealTriton(repo);
    const load = await fetch(`${server.url}/v2/repository/models/classifier/load`, { method: 'POST', body: '{}' });
    expect(load.status, await load.text()).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('is served by the onnxruntime backend with the config as written', async () => {
    expect(server!.log()).toContain('TRITONBACKEND_Initialize: onnxruntime');
    const config = (await (await fetch(`${server!.url}/v2/models/classifier/config`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      platform: 'onnxruntime_onnx',
      backend: 'onnxruntime',
      max_batch_size: 32,
      dynamic_batching: { preferred_batch_size: [8, 16, 32], max_queue_delay_microseconds: 5000 },
      instance_group: [{ kind: 'KIND_CPU', count: 2 }],
    });
  });

  it('answers what ONNX Runtime computes for the same image', async () => {
    const ort = (await import('onnxruntime-node')) as unknown as {
      InferenceSession: {
        create(p: string): Promise<{ run(f: Record<string, unknown>): Promise<Record<string, { data: Float32Array }>>; release(): Promise<void> }>;
      };
      Tensor: new (t: string, d: Float32Array, dims: number[]) => unknown;
    };
    // onnxruntime-node litters $TMPDIR as the backend does (src/util/private-temp.ts).
    const expected = await withPrivateTemp(async () => {
      const session = await ort.InferenceSession.create(modelPath);
      try {
        return (await session.run({ input: new ort.Tensor('float32', image(7), [1, 3, 224, 224]) })).output!.data;
      } finally {
        await session.release();
      }
    });
    const got = await infer(7);
    expect(got.length).toBe(1000);
    let worst = 0;
    for (let i = 0; i < 1000; i++) worst = Math.max(worst, Math.abs(got[i]! - expected[i]!));
    expect(worst).toBeLessThan(1e-5);
  }, 60_000);

  it('batches concurrent requests dynamically across its two instances', async () => {
    const before = await stats();
    const n = 64;
    const answers = await Promise.all(Array.from({ length: n }, (_, k) => infer(k)));
    // Each answer is its own image's: the first logits differ between images.
    expect(new Set(answers.map((a) => a[0])).size).toBeGreaterThan(n / 2);
    const after = await readOnceCounted(stats, (s) => s.inference - before.inference >= n);
    expect(after.inference - before.inference).toBe(n);
    // Fewer executions than requests: the dynamic batcher put several requests into one execution.
    expect(after.execution - before.execution).toBeLessThan(n);
    expect(Math.max(...after.batchSizes)).toBeGreaterThan(1);
  }, 120_000);
});

async function stats(): Promise<{ inference: number; execution: number; batchSizes: number[] }> {
  const body = (await (await fetch(`${server!.url}/v2/models/classifier/stats`)).json()) as {
    model_stats: { inference_count: number; execution_count: number; batch_stats: { batch_size: number }[] }[];
  };
  const s = body.model_stats[0]!;
  return { inference: s.inference_count, execution: s.execution_count, batchSizes: s.batch_stats.map((b) => b.batch_size) };
}

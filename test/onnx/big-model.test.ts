// The streaming big-model generator and the reader on models whose weights dwarf their headers.
// Models over 2 GiB run only with TRITONC_BIG=1 (they are sparse files, so they cost seconds and no
// disk space, but still exercise offsets beyond 2^31 and 2^32).

import fs from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { enterPrivateTemp } from '../../src/util/private-temp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBigModel, type BigModelInfo } from '../../fixtures/onnx/index.js';
import { readSignature, readSignatureSync, type ModelSignature, type ReadStats } from '../../src/onnx/index.js';
import { makeTempDir, removeDir } from './helpers.js';

// ONNX Runtime leaves files in the temp dir of each process that creates a session.
let leaveTemp: () => void = () => {};
beforeAll(() => {
  leaveTemp = enterPrivateTemp();
});
afterAll(() => leaveTemp());

const BIG = process.env.TRITONC_BIG === '1';
const GiB = 1024 ** 3;

let dir: string;
beforeAll(() => {
  dir = makeTempDir('onnx-big');
});
afterAll(() => removeDir(dir));

function expectBigSignature(sig: ModelSignature, info: BigModelInfo): void {
  const io = (name: string) => ({ name, kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', info.hidden] });
  expect(sig.inputs).toEqual([io('X')]);
  expect(sig.outputs).toEqual([io('Y')]);
  expect(sig.opsets).toEqual([{ domain: '', version: 17 }]);
  expect(sig.producer).toEqual({ name: 'tritonc-bench', version: '1.0' });
  expect(sig.initializers.count).toBe(info.initializers);
  expect(sig.initializers.bytes).toBe(info.weightBytes);
  expect(sig.batchable).toBe(true);
}

describe('streamed models (small)', () => {
  it('a 24 MB model: the reader sees every layer, reads a sliver of the file, and ORT agrees', async () => {
    const info = await writeBigModel(path.join(dir, 'small', 'model.onnx'), { targetBytes: 24e6, hidden: 512 });
    expect(fs.statSync(info.path).size).toBe(info.fileBytes);
    const stats: ReadStats = { reads: 0, bytesRead: 0 };
    const sig = await readSignature(info.path, { stats });
    expectBigSignature(sig, info);
    expect(sig.initializers.externalBytes).toBe(0);
    // One window per initializer crossed, not the file.
    expect(stats.reads).toBeLessThanOrEqual(info.initializers + 2);
    expect(stats.bytesRead).toBeLessThan(info.fileBytes / 4);
    const session = await ort.InferenceSession.create(info.path, { graphOptimizationLevel: 'disabled', logSeverityLevel: 3 });
    try {
      expect(session.inputMetadata).toEqual([{ name: 'X', isTensor: true, type: 'float32', shape: ['batch', 512] }]);
      expect(session.outputMetadata).toEqual([{ name: 'Y', isTensor: true, type: 'float32', shape: ['batch', 512] }]);
    } finally {
      await session.release();
    }
  });

  it('the external-data variant: weights in <model>.data, ORT loads it', async () => {
    const info = await writeBigModel(path.join(dir, 'ext', 'model.onnx'), { targetBytes: 8e6, hidden: 256, externalData: true });
    expect(info.externalDataPath).toBe(path.join(dir, 'ext', 'model.onnx.data'));
    expect(fs.statSync(info.externalDataPath!).size).toBe(info.weightBytes);
    const sig = readSignatureSync(info.path);
    expectBigSignature(sig, info);
    expect(sig.initializers.externalBytes).toBe(info.weightBytes);
    expect(sig.externalDataFiles).toEqual(['model.onnx.data']);
    const session = await ort.InferenceSession.create(info.path, { graphOptimizationLevel: 'disabled', logSeverityLevel: 3 });
    await session.release();
  });
});

describe('models over 2 GiB and 4 GiB', () => {
  const title = (size: string) => `${size}${BIG ? '' : ' (skipped: set TRITONC_BIG=1 to run)'}`;

  for (const [size, target] of [
    ['2.1 GiB', 2.1 * GiB],
    ['5 GiB', 5 * GiB],
  ] as const) {
    it.skipIf(!BIG)(
      title(size),
      async () => {
        const info = await writeBigModel(path.join(dir, size.replace(/\W/g, ''), 'model.onnx'), { targetBytes: target, fill: 'holes' });
        expect(info.fileBytes).toBeGreaterThan(target);
        const stats: ReadStats = { reads: 0, bytesRead: 0 };
        const sig = await readSignature(info.path, { stats });
        expectBigSignature(sig, info);
        expect(stats.bytesRead).toBeLessThan(16 * 1024 * 1024);
        expect(readSignatureSync(info.path)).toEqual(sig);
        fs.rmSync(path.dirname(info.path), { recursive: true, force: true });
      },
      120_000,
    );
  }
});

// ONNX Runtime as an oracle: on every fixture it loads, its session metadata must agree with the
// reader's names, types and shapes, within the known blind spots of ORT's session metadata:
// - a dim with neither value nor param, and dim_value -1, both come back as '';
// - a scalar and an unknown rank both come back as [];
// - non-tensor values come back as { isTensor: false } with no type;
// - initializers listed as graph inputs are left out of inputMetadata.

import ort from 'onnxruntime-node';
import { enterPrivateTemp } from '../../src/util/private-temp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, FIXTURE_NAMES, buildClassifier, type FixtureName } from '../../fixtures/onnx/index.js';
import { readSignature, type TensorInfo } from '../../src/onnx/index.js';
import { buildAllFixtures, makeTempDir, removeDir } from './helpers.js';

// ONNX Runtime leaves files in the temp dir of each process that creates a session.
let leaveTemp: () => void = () => {};
beforeAll(() => {
  leaveTemp = enterPrivateTemp();
});
afterAll(() => leaveTemp());

const ORT_TYPE: Record<string, string> = {
  FLOAT: 'float32',
  UINT8: 'uint8',
  INT8: 'int8',
  UINT16: 'uint16',
  INT16: 'int16',
  INT32: 'int32',
  INT64: 'int64',
  STRING: 'string',
  BOOL: 'bool',
  FLOAT16: 'float16',
  DOUBLE: 'float64',
  UINT32: 'uint32',
  UINT64: 'uint64',
};

const SESSION_OPTIONS = { graphOptimizationLevel: 'disabled', logSeverityLevel: 3 } as const;

interface OrtValueMetadata {
  name: string;
  isTensor: boolean;
  type?: string;
  shape?: readonly (number | string)[];
}

/** What ORT would report for a value the reader describes. */
function asOrtSees(t: TensorInfo): OrtValueMetadata {
  if (t.kind !== 'tensor') return { name: t.name, isTensor: false };
  const shape = (t.shape ?? []).map((d) => (d === null || d === -1 ? '' : d));
  return { name: t.name, isTensor: true, type: ORT_TYPE[t.elemType ?? ''] ?? `unmapped ${t.elemType}`, shape };
}

function ortView(list: readonly OrtValueMetadata[]): OrtValueMetadata[] {
  return list.map((m) => (m.isTensor ? { name: m.name, isTensor: true, type: m.type, shape: [...(m.shape ?? [])] } : { name: m.name, isTensor: false }));
}

let dir: string;
let files: Record<FixtureName, string>;

beforeAll(async () => {
  dir = makeTempDir('onnx-oracle');
  files = await buildAllFixtures(dir);
});
afterAll(() => removeDir(dir));

const loadable = FIXTURE_NAMES.filter((n) => FIXTURES[n].ort === true && n !== 'batch1-output');

describe('reader agrees with onnxruntime-node', () => {
  it.each(loadable)('%s', async (name) => {
    const session = await ort.InferenceSession.create(files[name], SESSION_OPTIONS);
    try {
      const sig = await readSignature(files[name]);
      expect(ortView(session.inputMetadata as readonly OrtValueMetadata[])).toEqual(sig.inputs.map(asOrtSees));
      expect(ortView(session.outputMetadata as readonly OrtValueMetadata[])).toEqual(sig.outputs.map(asOrtSees));
    } finally {
      await session.release();
    }
  });

  it('fixtures marked not loadable really are refused by ORT', async () => {
    for (const name of FIXTURE_NAMES.filter((n) => FIXTURES[n].ort !== true)) {
      await expect(ort.InferenceSession.create(files[name], SESSION_OPTIONS), name).rejects.toThrow();
    }
  });

  it('batch1-output: ORT replaces the declared dim_param with the inferred 1 (the reader reports the declaration)', async () => {
    const session = await ort.InferenceSession.create(files['batch1-output'], SESSION_OPTIONS);
    try {
      const sig = await readSignature(files['batch1-output']);
      expect(sig.outputs[0]!.shape).toEqual(['batch', 4]);
      expect(ortView(session.outputMetadata as readonly OrtValueMetadata[])).toEqual([{ name: 'output', isTensor: true, type: 'float32', shape: [1, 4] }]);
      expect(ortView(session.inputMetadata as readonly OrtValueMetadata[])).toEqual(sig.inputs.map(asOrtSees));
    } finally {
      await session.release();
    }
  });
});

describe('runnable fixtures', () => {
  it('classifier runs at batch 1 and 3 and gives [N,1000]', async () => {
    const file = await buildClassifier(`${dir}/runnable/classifier.onnx`);
    const session = await ort.InferenceSession.create(file, SESSION_OPTIONS);
    try {
      for (const n of [1, 3]) {
        const data = new Float32Array(n * 3 * 224 * 224).map((_, i) => (i % 251) / 251);
        const out = await session.run({ input: new ort.Tensor('float32', data, [n, 3, 224, 224]) });
        expect(out.output!.dims).toEqual([n, 1000]);
        expect(Array.from(out.output!.data as Float32Array).every(Number.isFinite)).toBe(true);
      }
    } finally {
      await session.release();
    }
  });

  it('batch1-reshape runs at batch 1 and fails at batch 2', async () => {
    const session = await ort.InferenceSession.create(files['batch1-reshape'], SESSION_OPTIONS);
    try {
      const one = await session.run({ input: new ort.Tensor('float32', new Float32Array(4).fill(1), [1, 4]) });
      expect(one.output!.dims).toEqual([1, 4]);
      // logSeverityLevel 4 keeps ORT's own error log of the failed run off the test output.
      await expect(session.run({ input: new ort.Tensor('float32', new Float32Array(8), [2, 4]) }, { logSeverityLevel: 4 })).rejects.toThrow(/Reshape/);
    } finally {
      await session.release();
    }
  });

  it('external-data runs with weights read from the side files', async () => {
    const session = await ort.InferenceSession.create(files['external-data'], SESSION_OPTIONS);
    try {
      const out = await session.run({ X: new ort.Tensor('float32', new Float32Array(8).fill(1), [1, 8]) });
      // X·W: each column sums 8 x ±0.25 -> ±2, + B (0) then * C (1).
      expect(Array.from(out.Y!.data as Float32Array)).toEqual([-2, 2, -2, 2, -2, 2, -2, 2]);
    } finally {
      await session.release();
    }
  });
});

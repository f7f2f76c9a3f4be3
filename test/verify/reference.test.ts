// The parts of verify --reference that need no server: seeded inputs, half precision, the comparison
// (numpy's allclose rule, Model Navigator's largest absolute and relative errors), and the flags.
import { describe, expect, it } from 'vitest';
import { compareOutput, halfBits, halfValue, seededInputs, valuesOf } from '../../src/verify/reference.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

const spec = (name: string, dataType: string, dims: number[]) => ({ name, dataType, dims, modelDims: dims, optional: false });

describe('seeded inputs', () => {
  it('are the same on every run, shaped as verify sends them, in range', () => {
    const a = seededInputs([spec('x', 'TYPE_FP32', [4]), spec('ids', 'TYPE_INT64', [3])], 2, 1, new Map());
    const b = seededInputs([spec('x', 'TYPE_FP32', [4]), spec('ids', 'TYPE_INT64', [3])], 2, 1, new Map());
    expect(a.map((i) => [i.name, i.datatype, i.shape, i.bytes.length])).toEqual([
      ['x', 'FP32', [2, 4], 32],
      ['ids', 'INT64', [2, 3], 48],
    ]);
    expect(a[0]!.bytes.equals(b[0]!.bytes)).toBe(true);
    expect([...valuesOf('FP32', a[0]!.bytes)].every((v) => v >= -1 && v < 1)).toBe(true);
    expect([...valuesOf('INT64', a[1]!.bytes)].every((v) => Number.isInteger(v) && v >= 0 && v < 8)).toBe(true);
    expect(new Set(valuesOf('FP32', a[0]!.bytes)).size).toBeGreaterThan(1);
  });

  it('refuse a type that cannot be compared number by number', () => {
    expect(() => seededInputs([spec('text', 'TYPE_STRING', [1])], 1, 1, new Map())).toThrow(
      "--reference ort compares numeric tensors; input 'text' is TYPE_STRING",
    );
  });
});

describe('half precision', () => {
  it('round-trips the values FP16 holds exactly, and rounds the others to the nearest', () => {
    for (const v of [0, 1, -2, 0.5, 65504, 2 ** -24, -0.0999755859375]) expect(halfValue(halfBits(v))).toBe(v);
    expect(halfBits(1)).toBe(0x3c00);
    expect(halfValue(halfBits(0.1))).toBeCloseTo(0.1, 3);
    expect(halfValue(halfBits(1e6))).toBe(Infinity);
    expect(Number.isNaN(halfValue(halfBits(NaN)))).toBe(true);
  });
});

describe('compareOutput', () => {
  const ref = { dims: [1, 3], values: Float64Array.from([1, 2, 0]) };
  it('reports the largest absolute and relative errors, and fails past atol + rtol * |ref|', () => {
    const served = { shape: [1, 3], values: Float64Array.from([1.001, 2, 0.0005]) };
    expect(compareOutput('y', served, ref, 1e-3, 1e-3)).toMatchObject({ ok: true, mismatched: 0, elements: 3 });
    const strict = compareOutput('y', served, ref, 1e-5, 1e-5);
    expect(strict).toMatchObject({ ok: false, mismatched: 2 });
    expect(strict.maxAbsError).toBeCloseTo(0.001, 9);
    expect(strict.maxRelError).toBeCloseTo(0.001, 9);
  });
  it('a missing output, another shape, NaN or inf is a failure of its own', () => {
    expect(compareOutput('y', undefined, ref, 1, 1).problem).toBe('the server did not send it');
    expect(compareOutput('y', { shape: [3], values: ref.values }, ref, 1, 1).problem).toBe('the server sent shape [3], ONNX Runtime [1,3]');
    expect(compareOutput('y', { shape: [1, 3], values: Float64Array.from([1, NaN, Infinity]) }, ref, 1, 1)).toMatchObject({
      ok: false,
      problem: '2 of its elements are NaN or infinite',
    });
  });
});

describe('the flags', () => {
  it('--atol, --rtol and --reference-model need --reference; --reference needs a Triton to compare', async () => {
    const repo = await writeRepo({ 'm/config.pbtxt': CLASSIFIER_CONFIG.replace('"classifier"', '"m"'), 'm/1/model.onnx': CLASSIFIER });
    expect((await cli(['verify', 'm', '--runtime', 'server', '--server', 'http://127.0.0.1:1', '--atol', '1e-3'], { cwd: repo })).stderr).toBe(
      'tritonc verify: --reference-model, --atol, --rtol, --input and --inputs apply to --reference ort\n',
    );
    expect((await cli(['verify', 'm', '--reference', 'ort'], { cwd: repo })).stderr).toContain('--reference applies to --runtime docker and local and server');
    expect(
      (await cli(['verify', 'm', '--runtime', 'server', '--server', 'http://127.0.0.1:1', '--reference', 'ort', '--rtol', 'close'], { cwd: repo })).stderr,
    ).toContain('--rtol takes a number of 0 or more');
  });
});

// The ONNX Runtime each release bundles and what it loads (src/triton/backends/onnxruntime/releases.ts),
// against the sources they were read from where those are here: server's compatibility table (the
// mirror is not in CI, so the table is compared with what tritonc says rather than read), and ONNX
// Runtime 1.19.2 itself (24.10's) where its library is installed.
import { describe, expect, it } from 'vitest';
import { RELEASES, releaseNamed } from '../../src/triton/releases/catalog.js';
import { ortIn, ortRefusal, ONNXRUNTIME_CHANGES } from '../../src/triton/backends/onnxruntime/releases.js';
import { RELEASE_CHANGES } from '../../src/triton/releases/index.js';
import { changesBetween } from '../../src/triton/releases/changes.js';
import { autoCompleteOnnx } from '../../src/triton/backends/onnxruntime/autocomplete.js';
import { parseTarget } from '../../src/triton/releases/target.js';
import type { ModelSignature } from '../../src/model-file/signature.js';

describe('ONNX Runtime by release', () => {
  it("gives each release the ONNX Runtime server r26.08's compatibility table names", () => {
    // docs/introduction/compatibility.md "ONNX Runtime Versions" at r26.08, a few rows either side of each change.
    const table: [string, string][] = [
      ['24.05', '1.18.0'],
      ['24.06', '1.18.0'],
      ['24.07', '1.18.1'],
      ['24.10', '1.19.2'],
      ['24.11', '1.19.2'],
      ['24.12', '1.20.1'],
      ['25.02', '1.20.1'],
      ['25.03', '1.21.0'],
      ['25.07', '1.22.0'],
      ['25.08', '1.23.0+1d1712fdaf'],
      ['26.01', '1.23.2'],
      ['26.02', '1.24.1'],
      ['26.06', '1.24.4'],
      ['26.07', '1.27.0'],
      ['26.08', '1.28.0'],
    ];
    for (const [release, ort] of table) expect(ortIn(releaseNamed(release as never)).version, release).toBe(ort);
  });

  it('knows the limits of every release', () => {
    for (const r of RELEASES) expect(ortIn(r).limits.irVersion, r.container).toBeGreaterThanOrEqual(10);
  });

  it('24.10 refuses IR 11 and opset 22, and names 25.08 and 25.03 as the first releases that load them', () => {
    const r = releaseNamed('24.10');
    expect(ortRefusal({ irVersion: 11, opsets: [{ domain: '', version: 13 }] }, r)).toMatchObject({ kind: 'ir', maxIr: 10, loadsFrom: { container: '25.08' } });
    expect(ortRefusal({ irVersion: 8, opsets: [{ domain: '', version: 22 }] }, r)).toMatchObject({
      kind: 'opset',
      domain: 'ai.onnx',
      max: 21,
      loadsFrom: { container: '25.03' },
    });
    expect(ortRefusal({ irVersion: 10, opsets: [{ domain: '', version: 21 }] }, r)).toBeUndefined();
  });

  it('lists every ONNX Runtime fact in RELEASE_CHANGES, so that 24.10 -> 26.07 names the BF16 and ONNX Runtime changes', () => {
    for (const c of ONNXRUNTIME_CHANGES) expect(RELEASE_CHANGES).toContain(c);
    const whats = changesBetween(RELEASE_CHANGES, releaseNamed('24.10'), releaseNamed('26.07')).map((c) => `${c.direction} ${c.change.what}`);
    expect(whats).toContain('gained Triton bundles ONNX Runtime 1.27.0');
    expect(whats).toContain('lost Triton bundles ONNX Runtime 1.19.2');
    expect(whats).toContain('gained ONNX Runtime loads models up to IR version 13, ai.onnx opset 26 and ai.onnx.ml opset 5');
    expect(whats.some((w) => w.startsWith('gained the ONNX Runtime backend serves BFLOAT16'))).toBe(true);
    expect(whats.some((w) => w.startsWith('gained the TensorRT accelerator of the ONNX Runtime backend takes precision_mode BF16'))).toBe(true);
    // Stretches tile the releases: each ONNX Runtime version holds from one release until the next.
    const bundles = ONNXRUNTIME_CHANGES.filter((c) => c.what.startsWith('Triton bundles'));
    expect(bundles.map((c) => c.releases.since ?? '24.05')).toEqual([
      '24.05',
      '24.07',
      '24.09',
      '24.12',
      '25.03',
      '25.05',
      '25.08',
      '25.09',
      '25.10',
      '25.11',
      '26.02',
      '26.03',
      '26.04',
      '26.07',
      '26.08',
    ]);
  });
});

describe("the ONNX Runtime backend's auto-complete of BF16 tensors, by release", () => {
  const sig = {
    path: 'm/1/model.onnx',
    format: 'onnx',
    irVersion: 8,
    producer: { name: '', version: '' },
    opsets: [{ domain: '', version: 17 }],
    inputs: [{ name: 'x', kind: 'tensor', elemType: 'BFLOAT16', tritonType: 'TYPE_BF16', shape: [-1, 4] }],
    outputs: [{ name: 'y', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: [-1, 4] }],
    initializers: { count: 0, bytes: 0, externalBytes: 0, constantBytes: 0 },
    batchable: true,
    metadata: [],
    overridableInitializers: [],
    weightsInline: true,
    externalDataFiles: [],
  } as ModelSignature;
  it("26.02 writes TYPE_INVALID and core refuses it (tritonserver 2.51: \"model input 'x' must specify 'data_type'\"); 26.03 writes TYPE_BF16", () => {
    const before = autoCompleteOnnx({ name: 'm', backend: 'onnxruntime' }, sig, { target: parseTarget('26.02') });
    expect(before.problems).toEqual([expect.objectContaining({ message: "model input 'x' must specify 'data_type' for m" })]);
    expect(before.problems[0]!.fix).toContain('serves only from 26.03 on');
    const from = autoCompleteOnnx({ name: 'm', backend: 'onnxruntime' }, sig, { target: parseTarget('26.03') });
    expect(from.problems).toEqual([]);
    expect(from.config.input).toEqual([{ name: 'x', data_type: 'TYPE_BF16', dims: [4] }]);
  });
});

// `tritonc generate`, `inspect` and `resolve` on OpenVINO IRs (the exported fixtures): generate writes the
// openvino backend with the names, types and dims the backend sees and a config lint finds clean;
// inspect reads model.xml; resolve gives what Triton gives (see also test/conformance/openvino.test.ts).
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from '../support/cli.js';
import { OPENVINO_FIXTURES } from './fixtures.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('openvino-cli');
  cpSync(OPENVINO_FIXTURES, dir, { recursive: true });
});

describe('tritonc generate on an OpenVINO model', () => {
  it('a dynamic-batch model: backend openvino, batching from the layouts, static dims kept, the smallest name of each tensor', async () => {
    const r = await cli(['generate', 'openvino_classifier'], { cwd: dir });
    expect(r.code).toBe(0);
    const body = r.stdout
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
    expect(body).toBe(`name: "openvino_classifier"
backend: "openvino"
max_batch_size: 4
input [
  {
    name: "pixel_values"
    data_type: TYPE_FP32
    dims: [ 3, 8, 8 ]
  },
  {
    name: "input_ids"
    data_type: TYPE_INT64
    dims: [ -1 ]
  }
]
output [
  {
    name: "classifier/add:0"
    data_type: TYPE_FP32
    dims: [ 10 ]
  },
  {
    name: "probabilities"
    data_type: TYPE_FP32
    dims: [ 10 ]
  }
]
dynamic_batching { }
`);
    // The model file given directly reads the same.
    expect((await cli(['generate', 'openvino_classifier/1/model.xml'], { cwd: dir })).stdout).toBe(r.stdout);
  });

  it('a model without batch layouts: max_batch_size 0 and the full shapes', async () => {
    const r = await cli(['generate', 'openvino_fixed_batch'], { cwd: dir });
    expect(r.stdout).toContain('backend: "openvino"\nmax_batch_size: 0\n');
    expect(r.stdout).toContain('name: "Func/PartitionedCall/input/_0:0"\n    data_type: TYPE_INT32\n    dims: [ 1, 4 ]');
  });

  it('refuses --max-batch-size 0 for a model whose layouts batch: the backend would make it 4', async () => {
    const r = await cli(['generate', 'openvino_classifier', '--max-batch-size', '0'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("max_batch_size 0 does not stay: at load Triton's OpenVINO backend makes it 4");
  });

  it('what it writes lints clean', async () => {
    expect((await cli(['generate', '.', '--write'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, 'openvino_int8_int8_int8', 'config.pbtxt'), 'utf8')).toContain('backend: "openvino"');
    const lint = await cli(['lint', '.', '--format', 'json'], { cwd: dir });
    const errors = (JSON.parse(lint.stdout) as { messages: { severity: number | string; ruleId: string }[] }[])
      .flatMap((f) => f.messages)
      .filter((m) => m.severity === 2 || m.severity === 'error');
    expect(errors).toEqual([]);
  });
});

describe('tritonc inspect model.xml', () => {
  it('text: element types, Triton types, shapes with ranges, layouts, the .bin', async () => {
    const r = await cli(['inspect', 'openvino_classifier/1/model.xml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('weights: 3 Const layers, 144 B (model.bin)');
    expect(r.stdout).toMatch(/input +input_ids +i64 +TYPE_INT64 +\[-1, 1\.\.128\] +\[N,SEQ\]/);
    expect(r.stdout).toMatch(/output +classifier\/add:0 +f32 +TYPE_FP32 +\[-1, 10\] +\[N,C\]/);
  });
  it('json, from the model directory', async () => {
    const r = await cli(['inspect', 'openvino_int8_int8_int8', '--format', 'json'], { cwd: dir });
    const sig = JSON.parse(r.stdout) as { format: string; inputs: { name: string; tritonType: string; shape: number[] }[]; initializers: { bytes: number } };
    expect(sig.format).toBe('openvino');
    expect(sig.inputs.map((t) => [t.name, t.tritonType, t.shape])).toEqual([
      ['INPUT0', 'TYPE_INT8', [8, 16]],
      ['INPUT1', 'TYPE_INT8', [8, 16]],
    ]);
    expect(sig.initializers.bytes).toBe(16);
  });
});

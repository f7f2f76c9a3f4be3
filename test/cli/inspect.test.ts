import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture } from '../../fixtures/onnx/index.js';
import { writeOnnx } from '../triton/helpers.js';
import { cli, tempDir } from '../support/cli.js';

let dir: string;
beforeAll(async () => {
  dir = tempDir();
  for (const n of ['classifier', 'symbolic-dims', 'unknown-rank', 'scalar', 'external-data'] as const) await buildFixture(n, dir);
});

describe('tritonc inspect', () => {
  it('prints the JSON contract', async () => {
    const r = await cli(['inspect', 'classifier/model.onnx', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['path', 'irVersion', 'producer', 'opsets', 'inputs', 'outputs', 'initializers', 'batchable']);
    expect(j.path).toBe('classifier/model.onnx');
    expect(j.inputs).toEqual([{ name: 'input', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', 3, 224, 224] }]);
    expect(j.outputs).toEqual([{ name: 'output', kind: 'tensor', elemType: 'FLOAT', tritonType: 'TYPE_FP32', shape: ['batch', 1000] }]);
    expect(j.batchable).toBe(true);
    expect(j.initializers.count).toBe(4);
  });

  it('takes a model directory, as every other command does: the file Triton would load in it', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const r = await cli(['inspect', 'model_repository/classifier', '--format', 'json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe('model_repository/classifier/1/model.onnx');
    const none = await cli(['inspect', 'model_repository'], { cwd: root });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('model_repository: a directory with no ONNX model Triton would load');
  });

  it('reads a TensorFlow SavedModel directory: its serving signature, weights from variables/', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const at = 'fixtures/models/tensorflow/savedmodel_tf2_scale_float32/1/model.savedmodel';
    const j = await cli(['inspect', at, '--format', 'json'], { cwd: root });
    expect(j.code, j.stderr).toBe(0);
    const sig = JSON.parse(j.stdout);
    expect(sig.path).toBe(at);
    expect(sig.inputs).toEqual([{ name: 'x', kind: 'tensor', elemType: 'DT_FLOAT', tritonType: 'TYPE_FP32', shape: [-1, 16] }]);
    expect(sig.outputs).toEqual([{ name: 'output_0', kind: 'tensor', elemType: 'DT_FLOAT', tritonType: 'TYPE_FP32', shape: [-1, 16] }]);
    const text = await cli(['inspect', at], { cwd: root });
    expect(text.stdout).toContain('files in variables/');
    expect(text.stdout).toContain('signature serving_default of the meta graph tagged serve');
    expect(text.stdout).toMatch(/input\s+x\s+DT_FLOAT\s+TYPE_FP32\s+\[-1, 16\]/);
  });

  it('shows null for an unset dim, [] for a scalar, null for unknown rank', async () => {
    const sym = JSON.parse((await cli(['inspect', 'symbolic-dims/model.onnx', '--format', 'json'], { cwd: dir })).stdout);
    expect(sym.inputs[2].shape).toEqual([-1, null, 4]);
    const scalar = JSON.parse((await cli(['inspect', 'scalar/model.onnx', '--format', 'json'], { cwd: dir })).stdout);
    expect(scalar.inputs[1].shape).toEqual([]);
    const unknown = JSON.parse((await cli(['inspect', 'unknown-rank/model.onnx', '--format', 'json'], { cwd: dir })).stdout);
    expect(unknown.inputs[0].shape).toBeNull();
  });

  it('prints a readable table', async () => {
    const r = await cli(['inspect', 'classifier/model.onnx'], { cwd: dir });
    expect(r.stdout).toContain('batchable: yes');
    expect(r.stdout).toMatch(/input\s+input\s+FLOAT\s+TYPE_FP32\s+\[batch, 3, 224, 224\]/);
    const ext = await cli(['inspect', 'external-data/model.onnx'], { cwd: dir });
    expect(ext.stdout).toMatch(/in external data/);
  });

  it('prints a table for tensor names of 8 MiB: columns are padded to a bounded width', async () => {
    const long = 'x'.repeat(8 * 2 ** 20);
    await writeOnnx(join(dir, 'long-names', 'model.onnx'), {
      inputs: [
        { name: long, type: 'TYPE_FP32', shape: [-1, 4] },
        { name: 'b', type: 'TYPE_FP32', shape: [-1, 4] },
      ],
      outputs: [
        { name: 'y', type: 'TYPE_FP32', shape: [-1, 4] },
        { name: 'z', type: 'TYPE_FP32', shape: [-1, 4] },
      ],
    });
    const r = await cli(['inspect', 'long-names/model.onnx'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(long);
    expect(r.stdout.length).toBeLessThan(long.length + 2000);
    expect(r.stdout).toMatch(/\n {2}output +y +FLOAT +TYPE_FP32 +\[batch|\n {2}output +y +FLOAT +TYPE_FP32 +\[-1/);
  });

  it('exits 2 with the file and byte offset for a file that is not ONNX', async () => {
    writeFileSync(join(dir, 'notes.onnx'), 'this is not a model\n');
    const r = await cli(['inspect', 'notes.onnx'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tritonc inspect: notes.onnx: /);
    expect((await cli(['inspect', 'missing.onnx'], { cwd: dir })).stderr).toBe('tritonc inspect: missing.onnx: no such file or directory\n');
  });
});

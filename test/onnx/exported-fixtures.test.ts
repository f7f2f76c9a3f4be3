// The ONNX exports of Triton's qa/L0_model_config cases (fixtures/models/onnx, written by
// scripts/model-exports/onnx/export.py): the reader sees the models Triton's qa generators make, and,
// where the exporters are installed, a fresh export reads the same as the committed files.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSignatureSync } from '../../src/onnx/index.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { tempDir } from '../support/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'fixtures', 'models', 'onnx');
const MODELS = ['onnx_int32_int8_int8', 'onnx_nobatch_int32_int8_int8', 'onnx_zero_1_float16'];

const view = (dir: string, model: string) => {
  const s = readSignatureSync(join(dir, model, '1', 'model.onnx'));
  const io = (ts: typeof s.inputs) => ts.map((t) => [t.name, t.tritonType, t.shape]);
  return { inputs: io(s.inputs), outputs: io(s.outputs), batchable: s.batchable };
};

describe('fixtures/models/onnx', () => {
  it('are the models of the qa cases: names, types, shapes, batching', () => {
    const addSub = (batch: (string | null)[]) => ({
      inputs: [
        ['INPUT0', 'TYPE_INT32', [...batch, 16]],
        ['INPUT1', 'TYPE_INT32', [...batch, 16]],
      ],
      outputs: [
        ['OUTPUT0', 'TYPE_INT8', [...batch, 16]],
        ['OUTPUT1', 'TYPE_INT8', [...batch, 16]],
      ],
    });
    expect(view(FIXTURES, 'onnx_int32_int8_int8')).toEqual({ ...addSub([null]), batchable: true });
    expect(view(FIXTURES, 'onnx_nobatch_int32_int8_int8')).toEqual({ ...addSub([]), batchable: false });
    expect(view(FIXTURES, 'onnx_zero_1_float16')).toEqual({
      inputs: [['INPUT0', 'TYPE_FP16', [null, 'var_0', 'var_1']]],
      outputs: [['OUTPUT0', 'TYPE_FP16', [null, 'var_2', 'var_3']]],
      batchable: true,
    });
  });

  it.runIf(exportersRun('the ONNX re-export check'))('a fresh export reads the same as the committed files', () => {
    const out = tempDir('tritonc-onnx-export-');
    execFileSync(EXPORTS_PYTHON, [join(ROOT, 'scripts', 'model-exports', 'onnx', 'export.py'), out], { stdio: 'pipe' });
    for (const m of MODELS) expect(view(out, m), m).toEqual(view(FIXTURES, m));
  });
});

// ONNX models exported from PyTorch as Triton's tutorial exports its classifier (fixtures/models/torch-onnx,
// written by scripts/model-exports/torch-onnx/export.py with torch 2.5.1): the tutorial's export batches;
// one with the batch axis on the input only (its output fixed at 1) and one on the output only cannot,
// and inspect, generate and lint each say so with the re-export that fixes it, where before generate
// wrote max_batch_size 0 silently and lint said nothing. Where the exporters are installed, a fresh
// export reads the same as the committed files.
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSignatureSync } from '../../src/onnx/index.js';
import { cli } from '../support/cli.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const FIXTURES = join(ROOT, 'fixtures', 'models', 'torch-onnx');
const MODELS = ['tutorial_classifier', 'input_only_dynamic', 'output_only_dynamic'];
const view = (dir: string, model: string) => {
  const s = readSignatureSync(join(dir, model, '1', 'model.onnx'));
  const io = (ts: typeof s.inputs) => ts.map((t) => [t.name, t.tritonType, t.shape]);
  return { inputs: io(s.inputs), outputs: io(s.outputs), batchable: s.batchable, producer: s.producer };
};
const FIX = "dynamic_axes={'input': {0: 'batch'}, 'output': {0: 'batch'}}";

describe('fixtures/models/torch-onnx', () => {
  it("are the tutorial's export and the two half-dynamic ones", () => {
    const producer = { name: 'pytorch', version: '2.5.1' };
    expect(view(FIXTURES, 'tutorial_classifier')).toEqual({
      inputs: [['input', 'TYPE_FP32', ['batch_size', 3, 224, 224]]],
      outputs: [['output', 'TYPE_FP32', ['batch_size', 1000]]],
      batchable: true,
      producer,
    });
    expect(view(FIXTURES, 'input_only_dynamic')).toEqual({
      inputs: [['input', 'TYPE_FP32', ['batch_size', 3, 224, 224]]],
      outputs: [['output', 'TYPE_FP32', [1, 1000]]],
      batchable: false,
      producer,
    });
    expect(view(FIXTURES, 'output_only_dynamic')).toEqual({
      inputs: [['input', 'TYPE_FP32', [1, 3, 224, 224]]],
      outputs: [['output', 'TYPE_FP32', ['batch_size', 1000]]],
      batchable: false,
      producer,
    });
  });

  it.runIf(exportersRun('the torch.onnx.export re-export check'))('a fresh export reads the same as the committed files', () => {
    const out = tempDir('tritonc-torch-onnx-');
    execFileSync(EXPORTS_PYTHON, [join(ROOT, 'scripts', 'model-exports', 'torch-onnx', 'export.py'), out], { stdio: 'pipe' });
    for (const m of MODELS) expect(view(out, m), m).toEqual(view(FIXTURES, m));
  });
});

describe('a batch axis on the input only', () => {
  const model = (): string => {
    const dir = join(tempDir('tritonc-partial-axis-'), 'classifier');
    cpSync(join(FIXTURES, 'input_only_dynamic'), dir, { recursive: true });
    return dir;
  };

  it('inspect says why it cannot batch and how to re-export (text and JSON)', async () => {
    const dir = model();
    const text = await cli(['inspect', dir]);
    expect(text.stdout).toContain(
      `batchable: no: input 'input' has a dynamic first dim, but output 'output' is fixed at [1, 1000] (the batch axis exported on part of the tensors; re-export with ${FIX})`,
    );
    const json = JSON.parse((await cli(['inspect', dir, '--format', 'json'])).stdout) as { batchable: boolean; partialBatchAxis: unknown };
    expect(json.batchable).toBe(false);
    expect(json.partialBatchAxis).toEqual({
      dynamic: [{ direction: 'input', name: 'input', shape: ['batch_size', 3, 224, 224] }],
      fixed: [{ direction: 'output', name: 'output', shape: [1, 1000] }],
    });
  });

  it('generate warns (exit 0, max_batch_size 0), unless --max-batch-size 0 asks for it', async () => {
    const dir = model();
    const r = await cli(['generate', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('max_batch_size: 0');
    expect(r.stderr).toMatch(
      /^warning: .*model\.onnx cannot batch, so the config has max_batch_size 0 and Triton runs one request at a time: input 'input' has a dynamic first dim, but output 'output' has the fixed shape \[1,1000\]\./,
    );
    expect(r.stderr).toContain(`torch.onnx.export(..., ${FIX})`);
    const knowingly = await cli(['generate', dir, '--max-batch-size', '0']);
    expect(knowingly.code).toBe(0);
    expect(knowingly.stderr).toBe('');
    const tutorial = await cli(['generate', join(FIXTURES, 'tutorial_classifier')]);
    expect(tutorial.stderr).toBe('');
    expect(tutorial.stdout).toContain('max_batch_size: 4');
  });

  it('lint warns on the generated config, at its max_batch_size', async () => {
    const dir = model();
    expect((await cli(['generate', dir, '--write'])).code).toBe(0);
    const r = await cli(['lint', dir, '--format', 'json']);
    expect(r.code).toBe(0);
    const found = (JSON.parse(r.stdout) as { messages: { ruleId: string; messageId: string; level: string; line: number; message: string }[] }[])
      .flatMap((f) => f.messages)
      .filter((m) => m.ruleId === 'missing-dynamic-axis');
    expect(found.map((m) => [m.messageId, m.level, m.line])).toEqual([['partialBatchAxis', 'warning', 5]]);
    expect(found[0]!.message).toContain(
      `fixed on output 'output' [1,1000], a batch axis exported on part of the tensors. Re-export with the batch axis on every input and output (torch.onnx.export(..., ${FIX}))`,
    );
  });
});

// generate for a Python model: the config Triton completes from model.py's auto_complete_config
// (Triton's qa model.py files), written out; resolving the written config gives what Triton loads
// without it, and lint finds nothing. A function that cannot be read is a problem, never a guess.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/models/python');

function model(repo: string, name: string, source: string): string {
  const dir = join(repo, name);
  mkdirSync(join(dir, '1'), { recursive: true });
  copyFileSync(source, join(dir, '1', 'model.py'));
  return dir;
}

describe('tritonc generate for a Python model', () => {
  it("writes the config auto_complete_config completes; resolve of it equals Triton's completion without it", async () => {
    const repo = tempDir('tritonc-gen-py-');
    const qa = model(repo, 'qa', join(FIXTURES, 'auto_complete', 'model.py'));
    const decoupled = model(repo, 'decoupled', join(FIXTURES, 'L0_model_config/autofill_noplatform_success/python/model_transaction_policy/model.py'));
    const batching = model(repo, 'batching', join(FIXTURES, 'L0_model_config/autofill_noplatform_success/python/dynamic_batching/model.py'));
    const before = [qa, decoupled, batching].map((d) => resolveModelDir(d, { gpus: 0 }).config);
    const r = await cli(['generate', repo, '--write'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const written = parseConfig(readFileSync(join(decoupled, 'config.pbtxt'), 'utf8')).value;
    expect(written).toMatchObject({ name: 'decoupled', backend: 'python', max_batch_size: 4, model_transaction_policy: { decoupled: true } });
    expect(written.input!.map((t) => [t.name, t.data_type, t.dims])).toEqual([
      ['INPUT0', 'TYPE_FP32', [4]],
      ['INPUT1', 'TYPE_FP32', [4]],
    ]);
    expect(parseConfig(readFileSync(join(batching, 'config.pbtxt'), 'utf8')).value.dynamic_batching).toEqual({});
    expect([qa, decoupled, batching].map((d) => resolveModelDir(d, { gpus: 0 }).config)).toEqual(before);
    const lint = await cli(['lint', repo, '--quiet'], { cwd: repo });
    expect(lint.code, lint.stdout).toBe(0);
  });

  it("a function it cannot read, and options that are the model file's: problems, nothing written", async () => {
    const repo = tempDir('tritonc-gen-py-');
    mkdirSync(join(repo, 'part', '1'), { recursive: true });
    writeFileSync(
      join(repo, 'part', '1', 'model.py'),
      'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        c.set_max_batch_size(compute())\n        return c\n',
    );
    const r = await cli(['generate', join(repo, 'part')], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('auto_complete_config cannot be read past line 4 (the argument of set_max_batch_size: the result of compute() on line 4)');
    const qa = model(repo, 'qa', join(FIXTURES, 'auto_complete', 'model.py'));
    const o = await cli(['generate', qa, '--max-batch-size', '8'], { cwd: repo });
    expect(o.code).toBe(1);
    expect(o.stderr).toContain('only --name, --instances, --kind and --gpus apply (not maxBatchSize)');
  });
});

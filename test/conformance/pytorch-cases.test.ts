// Triton's qa L0_model_config PyTorch cases, deployed as test.sh deploys them (the case directory
// copied as one model named after it, auto-complete on: --strict-model-config=false), with the model
// file they load: qa_model_repository's libtorch_float32_float32_float32, here the same AddSubNet
// exported by scripts/model-exports/pytorch/export.py (fixtures/models/pytorch). The refusals are
// caught with Triton's message, by id and data; the cases Triton loads get no error or warning.
import { copyFileSync, cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const CASES = join(CORPUS_DIR, 'triton-inference-server__server/qa/L0_model_config');
const MODEL = join(ROOT, 'fixtures/models/pytorch/libtorch_float32_float32_float32/1/model.pt');

function deploy(suite: string, name: string): string {
  const repo = tempDir('tritonc-pytorch-case-');
  const dir = join(repo, name);
  cpSync(join(CASES, suite, 'pytorch', name), dir, { recursive: true });
  mkdirSync(join(dir, '1'), { recursive: true });
  copyFileSync(MODEL, join(dir, '1', 'model.pt'));
  return dir;
}

const lint = (dir: string) => lintSync([dir], { cwd: dir }).results.flatMap((r) => r.diagnostics);

describe("Triton's PyTorch refusals (autofill_noplatform/pytorch)", () => {
  it.each([
    [
      'too_few_inputs',
      'torchInputsMissing',
      { model: 'too_few_inputs', expected: 0, provided: 2, arguments: "'INPUT0', 'INPUT1'", missing: "'INPUT0', 'INPUT1'" },
    ],
    ['too_few_outputs', 'torchNoOutputs', { returns: 'Tuple[Tensor, Tensor]', names: "'OUTPUT__0', 'OUTPUT__1'" }],
  ])('%s: io-name %s, with the expected message', (name, messageId, data) => {
    const expected = readFileSync(join(CASES, 'autofill_noplatform/pytorch', name, 'expected'), 'utf8').trim();
    const errors = lint(deploy('autofill_noplatform', name)).filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.ruleId, d.messageId, d.data])).toEqual([['io-name', messageId, data]]);
    expect(errors[0]!.message).toContain(expected);
  });
});

describe('what Triton loads stays clean (autofill_noplatform_success/pytorch: TYPE_INT32 for a float32 model)', () => {
  it.each(['cpu_instance', 'no_name_platform'])('%s', (name) => {
    const found = lint(deploy('autofill_noplatform_success', name)).filter((d) => d.severity !== 'info');
    expect(found.map((d) => `${d.ruleId}/${d.messageId}: ${d.message}`)).toEqual([]);
  });
});

// Fixes are text edits: applied to the config, each one removes the finding it came with and
// changes nothing else. Linted on real files, fixed, written back and linted again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { applyEdits } from '../../src/config/text-edits.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo, type OnnxSpec } from './harness.js';

const settings = { ...DEFAULT_SETTINGS, rules: { 'unused-suppression': { level: 'warning' as const } } };

async function lintOne(config: string, onnx: OnnxSpec | undefined, dir = 'classifier'): Promise<{ file: string; found: Diagnostic[] }> {
  const repo = await writeRepo({ [`${dir}/config.pbtxt`]: config, ...(onnx ? { [`${dir}/1/model.onnx`]: onnx } : { [`${dir}/1/model.py`]: '' }) });
  const file = join(repo, dir, 'config.pbtxt');
  return { file, found: lintSync([join(repo, dir)], { cwd: repo, rules: RULES, settings }).results.flatMap((r) => r.diagnostics) };
}

/**
 * Lints, applies the one fix of `ruleId` (or, with `suggestion`, its one suggestion, which must come
 * without a fix), lints again: the finding is gone and the text is returned.
 */
async function fixOnce(config: string, onnx: OnnxSpec | undefined, ruleId: string, messageId: string, dir?: string, suggestion = false): Promise<string> {
  const { file, found } = await lintOne(config, onnx, dir);
  const d = found.find((x) => x.ruleId === ruleId && x.messageId === messageId);
  expect(d, `${ruleId}.${messageId} reports`).toBeDefined();
  const change = suggestion ? d!.suggestions?.[0] : d!.fix;
  expect(change, `${ruleId}.${messageId} carries a ${suggestion ? 'suggestion' : 'fix'}`).toBeDefined();
  // A did-you-mean might be wrong: lint --fix never applies it.
  if (suggestion) expect(d!.fix, `${ruleId}.${messageId} carries no fix`).toBeUndefined();
  const fixed = applyEdits(readFileSync(file, 'utf8'), change!.edits);
  writeFileSync(file, fixed);
  const again = lintSync([file], { rules: RULES, settings }).results.flatMap((r) => r.diagnostics);
  expect(again.filter((x) => x.ruleId === ruleId)).toEqual([]);
  return fixed;
}

describe('fixes as text edits', () => {
  it('batch-dim-in-dims: drops the batch axis from dims', async () => {
    const fixed = await fixOnce(
      CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'),
      CLASSIFIER,
      'batch-dim-in-dims',
      'includesBatchAxis',
    );
    expect(fixed).toBe(CLASSIFIER_CONFIG);
  });

  it("io-datatype: sets the model's data type", async () => {
    const fixed = await fixOnce(
      CLASSIFIER_CONFIG.replace('data_type: TYPE_FP32 dims: [ 3', 'data_type: TYPE_FP16 dims: [ 3'),
      CLASSIFIER,
      'io-datatype',
      'dataTypeMismatch',
    );
    expect(fixed).toBe(CLASSIFIER_CONFIG);
  });

  it("io-name: suggests renaming a near miss to the model's tensor", async () => {
    const fixed = await fixOnce(CLASSIFIER_CONFIG.replace('name: "input"', 'name: "inptu"'), CLASSIFIER, 'io-name', 'misspeltInput', undefined, true);
    expect(fixed).toBe(CLASSIFIER_CONFIG);
  });

  it('platform-backend: suggests the platform of the backend', async () => {
    const config = CLASSIFIER_CONFIG.replace('platform: "onnxruntime_onnx"', 'backend: "onnxruntime"\nplatform: "onnxruntime_onx"');
    const fixed = await fixOnce(config, CLASSIFIER, 'platform-backend', 'platformBackendMismatch', undefined, true);
    expect(fixed).toBe(CLASSIFIER_CONFIG.replace('platform: "onnxruntime_onnx"', 'backend: "onnxruntime"\nplatform: "onnxruntime_onnx"'));
  });

  it('platform-backend: suggests the backend a misspelt one is near', async () => {
    const config = CLASSIFIER_CONFIG.replace('platform: "onnxruntime_onnx"', 'backend: "onnxruntme"');
    const fixed = await fixOnce(config, CLASSIFIER, 'platform-backend', 'misspeltBackend', undefined, true);
    expect(fixed).toBe(CLASSIFIER_CONFIG.replace('platform: "onnxruntime_onnx"', 'backend: "onnxruntime"'));
  });

  it("name-matches-directory: sets name to the directory's", async () => {
    const fixed = await fixOnce(CLASSIFIER_CONFIG.replace('name: "classifier"', 'name: "Classifier"'), CLASSIFIER, 'name-matches-directory', 'nameCaseDiffers');
    expect(fixed).toBe(CLASSIFIER_CONFIG);
  });

  it('invalid-suppression: suggests the rule id a misspelt one is near', async () => {
    const config = `# tritonc-disable-next-line queue-dealy\n${CLASSIFIER_CONFIG}`;
    const fixed = await fixOnce(config, CLASSIFIER, 'invalid-suppression', 'unknownRuleDidYouMean', undefined, true);
    expect(fixed).toBe(`# tritonc-disable-next-line queue-delay\n${CLASSIFIER_CONFIG}`);
  });

  it('unused-suppression: removes a comment that suppresses nothing, with its line', async () => {
    const config = CLASSIFIER_CONFIG.replace('dynamic_batching { }', '# tritonc-disable-next-line\ndynamic_batching { }');
    const fixed = await fixOnce(config, CLASSIFIER, 'unused-suppression', 'unused');
    expect(fixed).toBe(CLASSIFIER_CONFIG);
  });

  it('a value not written at one place gets no fix: dims given element by element', async () => {
    const config = CLASSIFIER_CONFIG.replace('dims: [ 3, 224, 224 ]', 'dims: 1 dims: 3 dims: 224 dims: 224');
    const { found } = await lintOne(config, CLASSIFIER);
    const d = found.find((x) => x.ruleId === 'batch-dim-in-dims');
    expect(d?.messageId).toBe('includesBatchAxis');
    expect(d?.fix).toBeUndefined();
  });

  it('applyEdits refuses overlapping edits', () => {
    const at = (offset: number) => ({ line: 1, column: offset + 1, offset });
    expect(
      applyEdits('abcdef', [
        { range: { start: at(4), end: at(5) }, text: 'E' },
        { range: { start: at(0), end: at(1) }, text: 'A' },
      ]),
    ).toBe('AbcdEf');
    expect(() =>
      applyEdits('abcdef', [
        { range: { start: at(0), end: at(3) }, text: '' },
        { range: { start: at(2), end: at(4) }, text: '' },
      ]),
    ).toThrow(/overlapping/);
  });
});

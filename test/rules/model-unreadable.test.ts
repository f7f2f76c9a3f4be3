import { describe, expect, it } from 'vitest';
import { CLASSIFIER, CLASSIFIER_CONFIG, lintModel, findings } from '../lint/harness.js';

describe('model-unreadable', () => {
  it('valid: a readable model', async () => {
    const { result } = await lintModel(CLASSIFIER_CONFIG, CLASSIFIER);
    expect(findings(result, 'model-unreadable')).toEqual([]);
  });
  it('invalid: a Git LFS pointer instead of the model: error in the model file, names the object and git lfs pull', async () => {
    const pointer = new TextEncoder().encode('version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 123456\n');
    const { dir, result } = await lintModel(CLASSIFIER_CONFIG, pointer);
    const [f, ...rest] = findings(result, 'model-unreadable', dir);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ file: 'm/1/model.onnx', severity: 'error', line: 1, column: 1 });
    expect(f!.message).toBe(
      'the model file is a Git LFS pointer, not the model: the object it stands for (121 KiB, sha256:0123) was never fetched, so Triton cannot load it (its parser fails on the pointer text); run git lfs pull in this repository (with actions/checkout, set lfs: true)',
    );
    const [d] = result.results.flatMap((r) => r.diagnostics).filter((x) => x.ruleId === 'model-unreadable');
    expect(d).toMatchObject({ messageId: 'lfsPointer', data: { oid: 'sha256:0123', objectBytes: 123456 } });
    // The model-aware rules do not run without a signature; the config's other rules still do.
    expect(result.errorCount).toBe(1);
  });
  it('invalid: a truncated model names the byte where it stops', async () => {
    const { dir, result } = await lintModel(CLASSIFIER_CONFIG, new Uint8Array([0x08, 0x08, 0x3a, 0xff, 0x01, 0x0a]));
    const [f] = findings(result, 'model-unreadable', dir);
    expect(f!.message).toMatch(/at byte \d+/);
    expect(result.results.find((r) => r.filePath.endsWith('model.onnx'))!.diagnostics[0]!.data).toMatchObject({ kind: 'format' });
  });
});

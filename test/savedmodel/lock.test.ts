// A SavedModel under --configs-only: tritonc lock records the directory (its total size, its serving
// signature), and a checkout without the weights is linted against the lock as against the model.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { buildLock } from '../../src/workspace/lock-build.js';
import { LOCK_FILE_NAME, serializeLock } from '../../src/workspace/lock.js';
import { Workspace } from '../../src/workspace/workspace.js';
import { tempDir } from '../support/temp.js';
import { savedModelDir } from './helpers.js';
import { parseTarget } from '../../src/triton/releases/target.js';

const root = tempDir('tritonc-tf-lock-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const verdicts = (repo: string, configsOnly: boolean): string[] =>
  // 25.02: the last release with the TensorFlow backend (a later one refuses every SavedModel).
  lintSync([repo], { cwd: root, rules: RULES, configsOnly, server: { target: parseTarget('25.02') } })
    .results.flatMap((r) => r.diagnostics)
    .filter((d) => d.severity !== 'info')
    .map((d) => `${d.ruleId}/${d.messageId}`)
    .sort();

describe('a SavedModel and tritonc.lock.json', () => {
  it('locks the directory, and lints against the lock where the weights are elsewhere', () => {
    const repo = path.join(root, 'repo');
    fs.mkdirSync(path.join(repo, 'm', '1'), { recursive: true });
    fs.cpSync(savedModelDir('savedmodel_tf2_scale_float32'), path.join(repo, 'm', '1', 'model.savedmodel'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'm', 'config.pbtxt'), 'max_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP16 dims: [16] } ]\n');
    const lock = buildLock(new Workspace(), repo).lock;
    const v = lock.models.m!.versions['1']!;
    expect(v.file).toBe('1/model.savedmodel');
    expect(v.signature?.format).toBe('savedmodel');
    expect(v.weightBytes).toBeGreaterThan(0);
    expect(v.size).toBeGreaterThan(v.weightBytes);
    fs.writeFileSync(path.join(repo, LOCK_FILE_NAME), serializeLock(lock));

    const withWeights = verdicts(repo, false);
    expect(withWeights).toEqual(['io-datatype/dataTypeMismatch']);
    fs.rmSync(path.join(repo, 'm', '1'), { recursive: true });
    expect(verdicts(repo, true)).toEqual(withWeights);
  });
});

// No valid config gets an error: the repository's fixture configs, each in a model directory named
// after it with the labels files it names, linted with core's own checks and the contract rules (no
// model files, so the rules that need one stay silent). test/conformance/ does the same for the corpus's valid configs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { CORE_RULES } from '../../src/lint/rules/index.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';
import { placeLabelFiles } from '../support/labels.js';
import { tempDir } from '../support/temp.js';
import { OWN_RULES } from './harness.js';
import { parseTarget } from '../../src/triton/releases/target.js';

// The Triton release a fixture is valid for, where not every release tritonc knows: a TensorFlow
// config needs a release that still builds the backend (the last is 25.02).
const RELEASE_OF: Record<string, string> = { 'legacy-syntax': '25.02' };

describe('valid configs get no errors', () => {
  it.each(FIXTURE_CONFIGS)('$name', ({ name, text }) => {
    const repo = tempDir('tritonc-valid-');
    mkdirSync(join(repo, name));
    writeFileSync(join(repo, name, 'config.pbtxt'), text);
    placeLabelFiles(join(repo, name), text);
    const rules = [...CORE_RULES, ...OWN_RULES.filter((r) => !CORE_RULES.includes(r))];
    const release = RELEASE_OF[name];
    const errors = lintSync([join(repo, name)], { cwd: repo, rules, ...(release ? { server: { target: parseTarget(release) } } : {}) })
      .results.flatMap((r) => r.diagnostics)
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.range.start.line}:${d.range.start.column} ${d.ruleId}: ${d.message}`);
    expect(errors).toEqual([]);
  });

  it('and the same checks do find an error in one of them, broken', () => {
    const { name, text } = FIXTURE_CONFIGS.find((c) => c.name === 'priority-queues')!;
    const repo = tempDir('tritonc-valid-');
    mkdirSync(join(repo, name));
    writeFileSync(join(repo, name, 'config.pbtxt'), text.replace('default_priority_level: 2', 'default_priority_level: 7'));
    const ids = lintSync([join(repo, name)], { cwd: repo, rules: CORE_RULES })
      .results.flatMap((r) => r.diagnostics)
      .map((d) => d.ruleId);
    expect(ids).toContain('priority-queue');
  });
});

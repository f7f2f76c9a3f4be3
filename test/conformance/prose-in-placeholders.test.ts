// No placeholder holds English (issue 30), measured on the corpus: every finding of every rule on
// each real config, alone in a repository as <its directory>/config.pbtxt, templates and broken
// files included (test/rules/coverage.test.ts measures the rule pages' examples and corrupted
// fixtures; no rule has an allowance: the model readers' and JSON's errors are message ids too).
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { proseOfAllRules } from '../support/rule-tester.js';

describe('corpus: no placeholder carries English prose', () => {
  it('every finding of every rule on every config of the corpus', () => {
    const prose: string[] = [];
    const rules = new Set<string>();
    let findings = 0;
    for (const row of corpusRows()) {
      const model = basename(dirname(row.path));
      const r = proseOfAllRules({ [`${model}/config.pbtxt`]: readCorpusFile(row) });
      prose.push(...r.prose.map((p) => `${row.file}: ${p}`));
      findings += r.findings.length;
      for (const d of r.findings) rules.add(d.ruleId);
    }
    expect(prose).toEqual([]);
    expect(findings).toBeGreaterThan(1000);
    expect(rules.has('syntax') && rules.has('tensorrtllm-parameters') && rules.has('unfilled-placeholder')).toBe(true);
  });
});

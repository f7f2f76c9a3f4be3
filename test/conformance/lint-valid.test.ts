// The shared corpus of real Triton configs, linted without their models (the corpus has none): no
// config Triton loads may get an error from the engine's rules or the contract rules. (The model-aware
// rules are tested against the corpus's qa configs with fixtures of the right signature in test/rules.)
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/lint/engine.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { OWN_RULES } from '../lint/harness.js';

describe('corpus: valid configs get no errors', () => {
  const rows = corpusRows().filter((r) => r.kind === 'valid');
  it(`${rows.length} valid configs`, () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const result = lintText(readCorpusFile(row), { file: row.path, rules: OWN_RULES });
      for (const d of result.results.flatMap((r) => r.diagnostics)) {
        if (d.severity === 'error') wrong.push(`${row.file}:${d.range.start.line}: ${d.ruleId}: ${d.message}`);
      }
    }
    expect(wrong).toEqual([]);
    console.log(`corpus: ${rows.length} valid configs linted, 0 errors`);
  });
});

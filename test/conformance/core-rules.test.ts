// The core rules against the whole corpus: no valid row gets an error, and every invalid row they
// cover gets the error carrying its expected Triton message (the table in core-support.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { lintSync } from '../../src/lint/engine.js';
import { CORE_RULES as coreRules } from '../../src/lint/rules/index.js';
import { corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { tempDir } from '../support/temp.js';
import { CORE_COVERAGE, corpusRow, MISLABELED_VALID, MODEL_STUB, modelStub, placeLabelFiles, reportsExpected, rowRelease } from './support.js';

const short = (row: CorpusRow): string => row.file.replace(/^triton-inference-server__/, '');

/**
 * A valid row deployed as its test deploys it: in a directory named as the model (config name, else
 * its own directory), with the stub model file its `needs-model:<kind>` note says the test copies in
 * and the labels files its repository keeps beside the config.
 */
function lintValidRow(row: CorpusRow, repo: string): { ruleId: string; message: string; severity: string }[] {
  const text = readCorpusFile(row);
  const name = parseConfig(text).value.name || basename(dirname(row.path));
  const dir = join(repo, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), text);
  placeLabelFiles(dir, text);
  const kind = /needs-model:([a-z0-9.-]+)/.exec(row.note)?.[1];
  if (kind) {
    mkdirSync(join(dir, '1'), { recursive: true });
    writeFileSync(join(dir, '1', MODEL_STUB[kind]!), modelStub(kind));
  }
  return lintSync([dir], { cwd: repo, rules: coreRules, ...rowRelease(parseConfig(text).value) }).results.flatMap((r) => r.diagnostics);
}

describe('core rules', () => {
  it('no valid corpus row gets an error (each deployed with the model file its test copies in)', () => {
    const rows = corpusRows().filter((r) => r.kind === 'valid');
    const blamed: string[] = [];
    let warnings = 0;
    for (const [i, row] of rows.entries()) {
      if (MISLABELED_VALID.includes(short(row))) continue;
      const found = lintValidRow(row, join(tempDir('tritonc-valid-'), String(i)));
      warnings += found.filter((f) => f.severity !== 'error').length;
      for (const f of found.filter((d) => d.severity === 'error')) blamed.push(`${short(row)}: ${f.ruleId}: ${f.message}`);
    }
    console.log(
      `core rules on ${rows.length - MISLABELED_VALID.length} valid corpus rows: 0 errors expected, ${blamed.length} found; ${warnings} warnings/notes`,
    );
    expect(blamed).toEqual([]);
  });

  it.each(MISLABELED_VALID)('%s is labelled valid, but Triton core would refuse it (a parser fixture never loaded)', (file) => {
    const row = corpusRow(file);
    const found = lintValidRow(row, tempDir('tritonc-mislabeled-')).filter((f) => f.severity === 'error');
    expect(found.map((f) => f.ruleId).sort()).toEqual(expect.arrayContaining(['platform-backend', 'preferred-batch-size', 'priority-queue']));
  });

  describe('invalid rows: the covering rule reports the expected Triton message', () => {
    let covered = 0;
    for (const c of CORE_COVERAGE) {
      const trials = c.platforms ?? [undefined];
      it(`${c.file} -> ${c.rule}`, () => {
        const row = corpusRow(c.file);
        expect(row.kind).toBe('invalid');
        for (const platform of trials) expect(reportsExpected(row, c.rule, platform ? { platform } : {}), platform ?? 'as stored').toBe(true);
        covered++;
      });
    }
    it('counts', () => {
      const staticRows = corpusRows().filter((r) => r.kind === 'invalid' && /check=(static|repo-layout)/.test(r.note));
      console.log(
        `core rules cover ${CORE_COVERAGE.length} invalid corpus rows (${covered} verified here) of ${staticRows.length} rows marked check=static/repo-layout`,
      );
      expect(new Set(CORE_COVERAGE.map((c) => c.file)).size).toBe(CORE_COVERAGE.length);
    });
  });
});

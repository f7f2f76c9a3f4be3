// Conformance with Triton's own test suites: the corpus rows (MANIFEST.tsv) that quote the message Triton gives.
//
// - Every invalid row a linter can judge without the real model (check=static, static(...), repo,
//   repo-layout) is linted the way Triton sees it in its test: the model directory (or, for
//   repository-level tests, the whole repository) copied to a temp dir, with what the test script
//   creates (version directories, the platform it appends, the base config a fragment is added to).
//   It must get at least one error from a rule that covers the expected Triton message; COVERAGE below
//   says which rule covers which message.
// - The rows of autofill_noplatform/onnx (check=model) are linted with an ONNX fixture of the
//   signature of the model the test loads, and must get an error from the covering rule too.
// - Invalid rows are linted under the server flags of their test (the note's flags=...: noautofill
//   sections run with --strict-model-config=true / --disable-auto-complete-config), and the
//   noautofill_platform rows once per platform the test substitutes.
// - Valid rows must get no error. They are linted without the models and sibling models their tests
//   put beside them, as a checkout of configs whose weights are elsewhere (--configs-only), and
//   ensembles may run models from elsewhere (ensemble-models' externalModels). A few rows are labelled valid although
//   Triton would refuse them as they stand; DOUBTFUL_VALID lists them with the evidence.
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import type { LintResult } from '../../src/lint/results.js';
import { RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS, type LintSettings } from '../../src/lint/settings.js';
import type { ServerOptions } from '../../src/triton/server-options.js';
import { QA_MODEL, QA_MODEL_NOBATCH } from '../rules/qa-model.js';
import { corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { writeOnnx, type OnnxSpec } from '../lint/harness.js';
import { parseConfig } from '../../src/config/document.js';
import { rowRelease } from './support.js';
import {
  COVERAGE,
  checkOf,
  coverageOf,
  expectedTexts,
  IN_SCOPE,
  invalidLayout,
  serverOf,
  temp,
  trialsOf,
  unescapeGrep,
  validLayout,
  VERBATIM_RULES,
  write,
  type Layout,
} from './deploy.js';

export { COVERAGE };

/**
 * Rows labelled valid that Triton would refuse as they stand: the evidence, and the rules expected to
 * say so. They are reported, not counted as clean.
 */
const DOUBTFUL_VALID: Record<string, { why: string; rules: string[] }> = {
  'triton-inference-server__model_navigator/tests/assets/configs/full_config.pbtxt': {
    why: 'a fixture of model_navigator\'s own config parser, not a Triton model: platform "tensorrt" (a backend name, not a platform) with no backend, preferred_batch_size 32 > max_batch_size 16, preserve_ordering with 3 priority levels and DELAY queue policies',
    rules: ['platform-backend', 'preferred-batch-size', 'priority-queue', 'name-matches-directory'],
  },
  'triton-inference-server__pytriton/tests/unit/assets/full_config.pbtxt': {
    why: 'the same fixture in pytriton (also response_cache on a decoupled model)',
    rules: ['platform-backend', 'preferred-batch-size', 'priority-queue', 'response-cache', 'name-matches-directory'],
  },
  'triton-inference-server__tutorials/Feature_Guide/Data_Pipelines/model_repository/ensemble_model/1/config.pbtxt': {
    why: "only an ensemble_scheduling block (no name, platform, input or output), inside the version directory where Triton never reads a config (core GetModelConfigFullPath); the tutorial's ensemble_model has no config.pbtxt of its own, and version-dirs says to move this one up",
    rules: ['version-dirs'],
  },
};

const VALID_SETTINGS: LintSettings = {
  ...DEFAULT_SETTINGS,
  // The corpus holds configs, no model files and no empty directories: the weights are elsewhere.
  configsOnly: true,
  rules: {
    // Ensembles' composing models are often copied in by the test from elsewhere.
    'ensemble-models': { level: 'error', options: { externalModels: true } },
  },
};

function lintLayout(
  layout: Layout,
  settings: LintSettings = DEFAULT_SETTINGS,
  server: Partial<ServerOptions> = {},
): { result: LintResult; errors: Diagnostic[] } {
  const result = lintSync([layout.target], { settings, rules: RULES, server });
  const errors = result.results.filter((r) => r.filePath === layout.file).flatMap((r) => r.diagnostics.filter((d) => d.severity === 'error'));
  if (layout.tmp) rmSync(layout.tmp, { recursive: true, force: true });
  return { result, errors };
}

const show = (errors: Diagnostic[]): string => errors.map((d) => `  [${d.ruleId}] ${d.message}`).join('\n') || '  (no errors)';

// ---- the rows --------------------------------------------------------------------------------------

const rows = corpusRows();
const invalidRows = rows.filter((r) => r.kind === 'invalid' && IN_SCOPE.has(checkOf(r) ?? ''));
const validRows = rows.filter((r) => r.kind === 'valid');
const ONNX_SUITE = 'triton-inference-server__server/qa/L0_model_config/autofill_noplatform/onnx/';
const onnxRows = rows.filter((r) => r.kind === 'invalid' && r.file.startsWith(ONNX_SUITE));
/** The model each autofill_noplatform/onnx test loads (read from the test's model.onnx). */
const onnxModelOf = (row: CorpusRow): OnnxSpec => (row.file.includes('/bad_max_batch_size/') ? QA_MODEL_NOBATCH : QA_MODEL);

/** Valid rows of autofill_noplatform_success/onnx, with the model their tests load. */
const FP16_IDENTITY: OnnxSpec = { inputs: [['INPUT0', 'FLOAT16', ['a', 'b', 'c']]], outputs: [['OUTPUT0', 'FLOAT16', ['a', 'b', 'c']]] };
const ONNX_VALID: Record<string, OnnxSpec> = {
  'triton-inference-server__server/qa/L0_model_config/autofill_noplatform_success/onnx/cpu_instance/config.pbtxt': FP16_IDENTITY,
  'triton-inference-server__server/qa/L0_model_config/autofill_noplatform_success/onnx/empty_config/config.pbtxt': QA_MODEL,
  'triton-inference-server__server/qa/L0_model_config/autofill_noplatform_success/onnx/no_config_no_batch/config.pbtxt': QA_MODEL_NOBATCH,
};

const outcome = {
  covered: [] as string[],
  verbatim: 0,
  uncovered: [] as { file: string; expected: string; why: string }[],
  onnxCovered: [] as string[],
  onnxUncovered: [] as string[],
  validClean: 0,
  validDirty: [] as string[],
  doubtful: [] as string[],
};

const short = (file: string): string => file.replace('triton-inference-server__', '').replace('server/qa/L0_model_config/', '');

describe('conformance with the corpus', () => {
  it('covers the rows the issue names', () => {
    expect(invalidRows.length).toBeGreaterThan(90);
    expect(onnxRows).toHaveLength(7);
    // Every rule in the table exists.
    const ids = new Set(RULES.map((r) => r.meta.id));
    expect(COVERAGE.flatMap((c) => c.rules).filter((id) => !ids.has(id))).toEqual([]);
  });

  describe('invalid rows (check=static, repo, repo-layout), under the flags of their test, on every platform it tries: an error from the covering rule', () => {
    for (const row of invalidRows) {
      for (const trial of trialsOf(row)) {
        it(`${short(row.file)}${trial ? ` (platform: "${trial}")` : ''}`, () => {
          const coverage = coverageOf(row.expectedError);
          if (!coverage) {
            outcome.uncovered.push({ file: row.file, expected: row.expectedError, why: 'no rule in the table covers this message' });
            expect.fail(`no COVERAGE entry matches the expected message: ${row.expectedError}`);
          }
          const { errors } = lintLayout(invalidLayout(row, trial), DEFAULT_SETTINGS, serverOf(row));
          const hits = errors.filter((d) => coverage.rules.includes(d.ruleId));
          const where = `${row.file}${trial ? ` with platform "${trial}"` : ''}`;
          if (hits.length) outcome.covered.push(where);
          else outcome.uncovered.push({ file: where, expected: row.expectedError, why: `no error from ${coverage.rules.join(' or ')}` });
          expect(
            hits.length,
            `Triton: ${unescapeGrep(row.expectedError)}\nexpected an error from ${coverage.rules.join(' or ')}, got:\n${show(errors)}`,
          ).toBeGreaterThan(0);
          const texts = expectedTexts(row);
          const verbatim = hits.some((d) => texts.some((t) => t.test(d.message)));
          if (verbatim) outcome.verbatim++;
          if (hits.some((d) => VERBATIM_RULES.has(d.ruleId)))
            expect(verbatim, `Triton's message is not quoted:\n${texts.join('\n')}\n${show(hits)}`).toBe(true);
        });
      }
    }
  });

  describe('invalid rows that need the ONNX model (autofill_noplatform/onnx), with a fixture of its signature', () => {
    for (const row of onnxRows) {
      it(short(row.file), async () => {
        const coverage = coverageOf(row.expectedError);
        expect(coverage, row.expectedError).toBeDefined();
        const tmp = temp();
        const modelDir = join(tmp, 'models', basename(dirname(row.path)));
        write(join(modelDir, 'config.pbtxt'), readCorpusFile(row));
        await writeOnnx(join(modelDir, '1', 'model.onnx'), onnxModelOf(row));
        const { errors } = lintLayout({ target: modelDir, file: join(modelDir, 'config.pbtxt'), tmp });
        const hit = errors.some((d) => coverage!.rules.includes(d.ruleId));
        (hit ? outcome.onnxCovered : outcome.onnxUncovered).push(row.file);
        expect(hit, `Triton: ${unescapeGrep(row.expectedError)}\nexpected an error from ${coverage!.rules.join(' or ')}, got:\n${show(errors)}`).toBe(true);
      });
    }
  });

  describe('valid rows: no errors', () => {
    for (const row of validRows) {
      it(short(row.file), () => {
        const { errors } = lintLayout(validLayout(row), VALID_SETTINGS, rowRelease(parseConfig(readCorpusFile(row)).value).server ?? {});
        const doubtful = DOUBTFUL_VALID[row.file];
        if (doubtful) {
          outcome.doubtful.push(row.file);
          // Triton would refuse it: the rules that say so must.
          expect(errors.map((d) => d.ruleId).filter((id) => doubtful.rules.includes(id)).length, show(errors)).toBeGreaterThan(0);
          return;
        }
        if (errors.length) outcome.validDirty.push(row.file);
        else outcome.validClean++;
        expect(errors, `${row.file}\n${show(errors)}`).toEqual([]);
      });
    }
  });

  describe('valid rows that need the ONNX model (autofill_noplatform_success/onnx), with a fixture of its signature: no errors', () => {
    for (const [file, spec] of Object.entries(ONNX_VALID)) {
      it(short(file), async () => {
        const row = rows.find((r) => r.file === file)!;
        expect(row.kind).toBe('valid');
        const tmp = temp();
        const modelDir = join(tmp, 'models', basename(dirname(row.path)));
        write(join(modelDir, 'config.pbtxt'), readCorpusFile(row));
        await writeOnnx(join(modelDir, '1', 'model.onnx'), spec);
        const { errors } = lintLayout({ target: modelDir, file: join(modelDir, 'config.pbtxt'), tmp });
        expect(errors, show(errors)).toEqual([]);
      });
    }
  });

  afterAll(() => {
    const lines = [
      `conformance: invalid rows (check=static/repo/repo-layout), each platform its test tries, under its flags, covered ${outcome.covered.length}/${invalidRows.reduce((n, r) => n + trialsOf(r).length, 0)} (the finding quotes the expected message verbatim in ${outcome.verbatim})`,
      `conformance: invalid rows needing the ONNX model, with fixtures, covered ${outcome.onnxCovered.length}/${onnxRows.length}`,
      `conformance: valid rows without errors ${outcome.validClean}/${validRows.length - outcome.doubtful.length} (${outcome.doubtful.length} rows labelled valid that Triton would refuse, reported by the rules: ${outcome.doubtful.map(short).join(', ')})`,
    ];
    for (const u of outcome.uncovered) lines.push(`  uncovered: ${short(u.file)}: ${u.why} (Triton: ${unescapeGrep(u.expected)})`);
    for (const f of outcome.onnxUncovered) lines.push(`  uncovered (ONNX fixture): ${short(f)}`);
    for (const f of outcome.validDirty) lines.push(`  valid row with errors: ${short(f)}`);
    console.log(lines.join('\n'));
  });
});

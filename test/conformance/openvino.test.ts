// Conformance with Triton itself, for the OpenVINO backend.
//
// 1. autofill_noplatform/openvino: each refusal's config (the corpus row) linted with the IR its test.sh
//    copies in (fixed_batch): an error from the rule COVERAGE names for Triton's expected message.
// 2. autofill_noplatform_success/openvino: server/qa/L0_model_config/
// autofill_noplatform_success/openvino holds, per case, the config.pbtxt Triton was started with (or
// none) and the effective configs Triton reported (`expected`, `expected.1`, ...: the same config with
// inputs/outputs in the orders Triton's map can produce). Each case's model directory gets the IR its
// test.sh copies in (qa/openvino_models/fixed_batch or dynamic_batch, or gen_qa_models' openvino_int8,
// as scripts/model-exports/openvino/export.py exports them: fixtures/models/openvino), and resolve must
// equal one of Triton's answers as a value (and as the JSON GET /config returns).
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { printConfig } from '../../src/config/print.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { tritonConfigJson } from '../../src/triton/triton-json.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { OPENVINO_FIXTURES, type OpenVinoModel } from '../openvino/fixtures.js';
import { CORPUS_DIR, corpusRows, readCorpusFile } from '../support/corpus.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { coverageOf, unescapeGrep } from './deploy.js';

const SUITE_DIR = `${CORPUS_DIR}triton-inference-server__server/qa/L0_model_config/autofill_noplatform_success/openvino/`;

/** The model test.sh copies into each case (qa/L0_model_config/test.sh). */
const MODEL_OF: Record<string, OpenVinoModel> = {
  dynamic_batch: 'openvino_dynamic_batch',
  empty_config: 'openvino_fixed_batch',
  no_config: 'openvino_fixed_batch',
  partial_config: 'openvino_int8_int8_int8',
};

const canonical = (v: ModelConfig): unknown => toProtoJson(v as Record<string, unknown>, loadSchema().modelConfig);
const tmp = mkdtempSync(join(tmpdir(), 'tritonc-ov-resolve-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const REFUSALS = 'triton-inference-server__server/qa/L0_model_config/autofill_noplatform/openvino/';

describe('autofill_noplatform/openvino: every refusal caught with the exported fixed_batch IR', () => {
  const rows = corpusRows().filter((r) => r.file.startsWith(REFUSALS) && r.kind === 'invalid');
  it('has the six cases', () =>
    expect(rows.map((r) => r.file.slice(REFUSALS.length).split('/')[0]).sort()).toEqual([
      'bad_input_dims',
      'bad_output_dims',
      'too_few_inputs',
      'too_many_inputs',
      'unknown_input',
      'unknown_output',
    ]));
  for (const row of rows) {
    const name = row.file.slice(REFUSALS.length).split('/')[0]!;
    it(`${name}: ${unescapeGrep(row.expectedError)}`, () => {
      const coverage = coverageOf(row.expectedError);
      expect(coverage, row.expectedError).toBeDefined();
      const dir = join(tmp, 'refusals', name);
      cpSync(join(OPENVINO_FIXTURES, 'openvino_fixed_batch'), dir, { recursive: true });
      writeFileSync(join(dir, 'config.pbtxt'), readCorpusFile(row));
      const errors = lintSync([dir], { rules: RULES })
        .results.flatMap((r) => r.diagnostics)
        .filter((d) => d.severity === 'error');
      expect(errors.filter((d) => coverage!.rules.includes(d.ruleId)).length, errors.map((d) => `[${d.ruleId}] ${d.message}`).join('\n')).toBeGreaterThan(0);
    });
  }
});

describe("resolve reproduces Triton's autofill_noplatform_success/openvino expectations, and lint finds them clean", () => {
  const cases = readdirSync(SUITE_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  it('covers every case directory in the corpus', () => expect(cases).toEqual(Object.keys(MODEL_OF)));

  for (const name of cases) {
    it(`${name}: equals one of Triton's expected configs`, () => {
      const dir = join(tmp, name);
      const model = MODEL_OF[name]!;
      cpSync(join(OPENVINO_FIXTURES, model), dir, { recursive: true });
      const caseFiles = readdirSync(join(SUITE_DIR, name));
      if (caseFiles.includes('config.pbtxt')) copyFileSync(join(SUITE_DIR, name, 'config.pbtxt'), join(dir, 'config.pbtxt'));
      const expected = caseFiles
        .filter((f) => /^expected(\.\d+)?$/.test(f))
        .map((f) => {
          const doc = parseConfig(readFileSync(join(SUITE_DIR, name, f), 'utf8'), f);
          expect(doc.diagnostics, f).toEqual([]);
          return doc.value;
        });
      expect(expected.length).toBeGreaterThan(0);

      // The qa host had a GPU (CUDA_VISIBLE_DEVICES=0): the backend's preferred KIND_CPU group still wins.
      const result = resolveModelDir(dir, { gpus: 1 });
      expect(result.problems).toEqual([]);
      expect(result.status).toBe('ok');
      const got = result.config!;
      expect(expected.map(canonical)).toContainEqual(canonical(got));
      expect(expected.map((e) => tritonConfigJson(e))).toContainEqual(tritonConfigJson(got));
      expect(canonical(parseConfig(printConfig(got)).value)).toEqual(canonical(got));
      const errors = lintSync([dir], { rules: RULES })
        .results.flatMap((r) => r.diagnostics)
        .filter((d) => d.severity === 'error');
      expect(errors.map((d) => `[${d.ruleId}] ${d.message}`)).toEqual([]);
    });
  }
});

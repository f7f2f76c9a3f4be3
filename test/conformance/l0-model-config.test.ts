// Triton's qa/L0_model_config suites replayed as its test.sh runs them (issue 32's proof), once per
// edition (l0.ts EDITIONS: the newest release branch's suites told `--triton-version 26.08`, and
// r24.10's told `--triton-version 24.10`: issue 45's proof):
// autofill_noplatform (each case must fail to load), autofill_noplatform_success (each must load) and
// noautofill_platform (each case 3 platforms x 2 flag sets, each must fail). For every case the model
// repository is built in a temp dir exactly as test.sh builds it (server e1db8a603,
// qa/L0_model_config/test.sh): one model named after the case directory when it has a config.pbtxt
// (or is one of the no_config* successes), else the directory's contents as a whole repository; the
// model files test.sh copies in, here the committed exports of fixtures/models (cases ->
// l0-model-config-cases.json); the empty version directories, stand-in libraries and TensorRT
// dummy_file.txt it makes; noautofill's platform rewrite. Then `tritonc lint --model-repository=models`
// runs in-process with test.sh's server flags and the edition's release, and per case:
// - a case Triton loads must get no error-severity finding at all;
// - a case Triton refuses must get an error from the rule that reports the same thing (RULES_FOR maps
//   the expected* message to rule ids), unless EXPECTED_MISSES lists it with why. A listed case that is
//   caught fails too (take it off the list), so the count only goes up.
// Each edition's agreement table is printed; TRITONC_WRITE_L0_DOC=1 writes it into
// docs/conformance-l0.md, and the test fails when the doc's table is not the one this run makes.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonFileResult } from '../../src/report/json.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { fromGrep, unescapeGrep } from './deploy.js';
import {
  BACKEND_DIRECTORY,
  buildRepository,
  CASES,
  EDITIONS,
  FIXTURES,
  formatOf,
  GPUS,
  rulesFor,
  runsOf,
  stageSuites,
  SUITES,
  withoutCode,
  type Edition,
  type Run,
} from './l0.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = join(ROOT, 'docs', 'conformance-l0.md');

// ---- the cases that are expected to be missed: the one list to edit ------------------------------

const TENSORRT = "needs a TensorRT runtime: the plan's bindings, profiles and formats are not readable without it";

/**
 * Refusals tritonc does not catch today, each with why. When a reader merges, delete its lines: the
 * test fails for a listed case that is caught, and for an unlisted case that is missed. Keys are the
 * test names: `<suite>/<backend>/<case>`, and `noautofill_platform/<case> [<platform>, <flag>]`.
 */
export const EXPECTED_MISSES: Record<string, string> = {
  'autofill_noplatform/tensorrt/bad_dynamic_shapes_max': TENSORRT,
  'autofill_noplatform/tensorrt/bad_dynamic_shapes_min': TENSORRT,
  'autofill_noplatform/tensorrt/bad_input_dims': TENSORRT,
  'autofill_noplatform/tensorrt/bad_input_shape': TENSORRT,
  'autofill_noplatform/tensorrt/bad_input_shape_tensor': TENSORRT,
  'autofill_noplatform/tensorrt/bad_input_type': TENSORRT,
  'autofill_noplatform/tensorrt/bad_output_dims': TENSORRT,
  'autofill_noplatform/tensorrt/bad_output_shape': TENSORRT,
  'autofill_noplatform/tensorrt/bad_output_shape_tensor': TENSORRT,
  'autofill_noplatform/tensorrt/bad_output_type': TENSORRT,
  'autofill_noplatform/tensorrt/mixed_batch_hint_dims': TENSORRT,
  'autofill_noplatform/tensorrt/mixed_batch_hint_shape_values': TENSORRT,
  'autofill_noplatform/tensorrt/too_few_inputs': TENSORRT,
  'autofill_noplatform/tensorrt/too_many_inputs': TENSORRT,
  'autofill_noplatform/tensorrt/unknown_input': TENSORRT,
  'autofill_noplatform/tensorrt/unknown_output': TENSORRT,
};

/**
 * Formats whose fixtures are not committed yet (their reader's branch brings them): cases that need
 * them are not replayed, and say so in the table. Remove the format when its fixtures land.
 */
export const FIXTURES_PENDING = new Set(['openvino', 'pytorch'].filter((f) => !existsSync(join(FIXTURES, f))));

interface Finding {
  ruleId: string;
  level: string;
  message: string;
  file: string;
}

async function lintRepository(cwd: string, run: Run, edition: Edition, staged: string): Promise<Finding[]> {
  const r = await cli(
    [
      'lint',
      '--format',
      'json',
      '--model-repository=models',
      ...run.flags,
      '--triton-version',
      edition.release,
      // The ONNX files are our exports (opset 22) standing in for Triton's qa models, which test.sh's
      // release loads: what each release's ONNX Runtime loads is onnx-runtime-version's own tests'.
      '--rule',
      'onnx-runtime-version=off',
      '--gpus',
      GPUS,
      `--backend-directory=${join(staged, BACKEND_DIRECTORY)}`,
    ],
    { cwd },
  );
  // 0: no errors, 1: errors; anything else is tritonc failing to lint the repository.
  expect([0, 1], `${run.id}: tritonc lint exited ${r.code}: ${r.stderr}`).toContain(r.code);
  const files = JSON.parse(r.stdout) as JsonFileResult[];
  return files.flatMap((f) => f.messages.map((m) => ({ ruleId: m.ruleId, level: m.level, message: m.message, file: f.filePath.slice(cwd.length + 1) })));
}

// ---- the outcome ----------------------------------------------------------------------------------

interface Outcome {
  run: Run;
  refuses: boolean;
  /** Not replayed: why. */
  skipped?: string;
  errors: Finding[];
  rules: string[];
  caught: boolean;
  verbatim: boolean;
  miss?: string;
}
for (const edition of EDITIONS) replay(edition);

function replay(edition: Edition): void {
  const outcomes: Outcome[] = [];
  const staged = tempDir('tritonc-l0-');
  const pending = stageSuites(staged, edition);
  const runs = runsOf(staged, edition);
  const tensorflow = edition.tensorflow ? 7 : 0;

  describe(`qa/L0_model_config of ${edition.release} replayed as test.sh runs it, tritonc told --triton-version ${edition.release}`, () => {
    it('stages every case of the three suites, with a model for every case that takes one', () => {
      expect(runs.filter((r) => r.suite === 'autofill_noplatform')).toHaveLength(85 + tensorflow);
      expect(runs.filter((r) => r.suite === 'noautofill_platform')).toHaveLength(58 * 2 * edition.trials.length);
      // Every case test.sh copies a model into is in the cases file (or TensorFlow's), and every case there exists.
      const cased = Object.keys(CASES);
      const withModel = runs.filter((r) => r.suite !== 'noautofill_platform' && /\/(onnx|openvino|pytorch|python|tensorrt)$/.test(r.group));
      for (const r of withModel)
        expect(
          cased.some((id) => id === r.id || id.startsWith(`${r.id}/`)),
          `${r.id}: not in l0-model-config-cases.json`,
        ).toBe(true);
      for (const r of runs.filter((x) => /\/tensorflow_\w+$/.test(x.group))) expect(readdirSync(join(r.caseDir, '1')), r.id).toHaveLength(1);
      for (const id of cased) expect(existsSync(join(SUITES, id.split('/').slice(0, 3).join('/'))), id).toBe(true);
      for (const [id, why] of pending) expect(FIXTURES_PENDING.has(formatOf(CASES[id]!)!), `${id}: ${why}`).toBe(true);
    });

    for (const run of runs) {
      it(run.id, async () => {
        const caseId = run.suite === 'noautofill_platform' ? `noautofill_platform/${basename(run.caseDir)}` : run.id;
        const refuses = run.suite !== 'autofill_noplatform_success';
        const pend = [...pending].find(([id]) => id === caseId || id.startsWith(`${caseId}/`));
        if (pend) {
          outcomes.push({ run, refuses, skipped: pend[1], errors: [], rules: [], caught: false, verbatim: false, miss: EXPECTED_MISSES[run.id] });
          if (refuses) expect(EXPECTED_MISSES[run.id], `${run.id}: not replayed (${pend[1]}) and not in EXPECTED_MISSES`).toBeDefined();
          return;
        }
        const dir = tempDir('tritonc-l0-run-');
        const { expected } = buildRepository(run, dir);
        const findings = await lintRepository(dir, run, edition, staged);
        const errors = findings.filter((f) => f.level === 'error');
        const show = errors.map((e) => `  ${e.file}: [${e.ruleId}] ${e.message}`).join('\n') || '  (no errors)';
        if (!refuses) {
          outcomes.push({ run, refuses, errors, rules: [], caught: false, verbatim: false });
          expect(errors, `${run.id} loads in Triton ${edition.release}; tritonc reports:\n${show}`).toEqual([]);
          return;
        }
        expect(expected.length, `${run.id}: no expected* file`).toBeGreaterThan(0);
        const rules = rulesFor(expected);
        expect(rules.length, `${run.id}: no rule in RULES_FOR reports ${expected.join(' | ')}`).toBeGreaterThan(0);
        const hits = errors.filter((e) => rules.includes(e.ruleId));
        const caught = hits.length > 0;
        const patterns = expected.map((e) => fromGrep(withoutCode(e)));
        const verbatim = hits.some((h) => patterns.some((p) => p.test(h.message)));
        const miss = EXPECTED_MISSES[run.id];
        outcomes.push({ run, refuses, errors, rules, caught, verbatim, miss });
        const triton = expected.map(unescapeGrep).join('\n  or: ');
        if (miss) expect(caught, `${run.id} is caught by ${hits.map((h) => h.ruleId).join(', ')} now: take it off EXPECTED_MISSES ("${miss}")`).toBe(false);
        else
          expect(
            caught,
            `${run.id}: Triton ${edition.release} refuses it ("${triton}"); expected an error from ${rules.join(' or ')}, tritonc reports:\n${show}`,
          ).toBe(true);
      });
    }

    it('EXPECTED_MISSES names only refusals of these suites', () => {
      const ids = new Set(runs.filter((r) => r.suite !== 'autofill_noplatform_success').map((r) => r.id));
      expect(Object.keys(EXPECTED_MISSES).filter((k) => !ids.has(k))).toEqual([]);
    });

    afterAll(() => {
      const table = agreementTable(outcomes);
      console.log(table);
      if (outcomes.length !== runs.length) return;
      if (process.env.TRITONC_WRITE_L0_DOC === '1') writeDocTable(edition, table);
      else if (existsSync(DOC))
        expect(
          docTable(readFileSync(DOC, 'utf8'), edition),
          `docs/conformance-l0.md: the ${edition.release} table is not this run's; regenerate with TRITONC_WRITE_L0_DOC=1`,
        ).toBe(table);
    });
  });
}

// ---- the table ------------------------------------------------------------------------------------

function agreementTable(all: Outcome[]): string {
  const groups = [...new Set(all.map((o) => o.run.group))];
  const lines = [
    '| suite / backend | runs | Triton refuses | caught (expected rule) | missed | Triton loads | clean | not replayed |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const sum = { runs: 0, refuses: 0, caught: 0, missed: 0, loads: 0, clean: 0, skipped: 0 };
  const row = (label: string, os: Outcome[]) => {
    const r = {
      runs: os.length,
      refuses: os.filter((o) => o.refuses).length,
      caught: os.filter((o) => o.refuses && o.caught).length,
      missed: os.filter((o) => o.refuses && !o.caught).length,
      loads: os.filter((o) => !o.refuses).length,
      clean: os.filter((o) => !o.refuses && !o.skipped && o.errors.length === 0).length,
      skipped: os.filter((o) => o.skipped).length,
    };
    lines.push(`| ${label} | ${r.runs} | ${r.refuses} | ${r.caught} | ${r.missed} | ${r.loads} | ${r.clean} | ${r.skipped} |`);
    return r;
  };
  for (const g of groups) {
    const r = row(
      g,
      all.filter((o) => o.run.group === g),
    );
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += r[k];
  }
  lines.push(`| **all** | ${sum.runs} | ${sum.refuses} | ${sum.caught} | ${sum.missed} | ${sum.loads} | ${sum.clean} | ${sum.skipped} |`);
  const auto = all.filter((o) => o.run.suite === 'autofill_noplatform');
  lines.push(
    '',
    `autofill_noplatform: ${auto.filter((o) => o.caught).length} of ${auto.length} refusals caught by the expected rule (${auto.filter((o) => o.verbatim).length} quoting Triton's message).`,
  );
  const reasons = new Map<string, string[]>();
  for (const o of all.filter((x) => x.refuses && !x.caught)) {
    const why = o.miss ?? 'NOT EXPECTED';
    reasons.set(why, [...(reasons.get(why) ?? []), o.run.id.replace(/^autofill_noplatform\//, '')]);
  }
  if (reasons.size) lines.push('', 'Missed, by reason:', '');
  for (const [why, ids] of reasons) lines.push(`- ${why} (${ids.length}): ${ids.join(', ')}`);
  const skipped = all.filter((o) => o.skipped && !o.refuses);
  if (skipped.length)
    lines.push(
      '',
      `Not replayed (Triton loads them; their fixtures are pending): ${skipped.map((o) => o.run.id.replace(/^autofill_noplatform_success\//, '')).join(', ')}`,
    );
  return lines.join('\n');
}

const markers = (edition: Edition): [string, string] => [
  `<!-- l0-table ${edition.release}: begin (TRITONC_WRITE_L0_DOC=1 npx vitest run test/conformance/l0-model-config.test.ts) -->`,
  `<!-- l0-table ${edition.release}: end -->`,
];

function docTable(doc: string, edition: Edition): string | undefined {
  const [begin, end] = markers(edition);
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  return a < 0 || b < a ? undefined : doc.slice(a + begin.length, b).trim();
}

function writeDocTable(edition: Edition, table: string): void {
  const [begin, end] = markers(edition);
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${DOC}: no ${begin} ... ${end} block`);
  writeFileSync(DOC, `${doc.slice(0, a + begin.length)}\n${table}\n${doc.slice(b)}`);
}

// Triton's qa/L0_model_config suites replayed as its test.sh runs them (issue 32's proof):
// autofill_noplatform (each case must fail to load), autofill_noplatform_success (each must load) and
// noautofill_platform (each case 3 platforms x 2 flag sets, each must fail). For every case the model
// repository is built in a temp dir exactly as test.sh builds it (server e1db8a603,
// qa/L0_model_config/test.sh): one model named after the case directory when it has a config.pbtxt
// (or is one of the no_config* successes), else the directory's contents as a whole repository; the
// model files test.sh copies in, here the committed exports of fixtures/models (cases ->
// l0-model-config-cases.json); the empty version directories, stand-in libraries and TensorRT
// dummy_file.txt it makes; noautofill's platform rewrite. Then `tritonc lint --model-repository=models`
// runs in-process with test.sh's server flags, and per case:
// - a case Triton loads must get no error-severity finding at all;
// - a case Triton refuses must get an error from the rule that reports the same thing (RULES_FOR maps
//   the expected* message to rule ids), unless EXPECTED_MISSES lists it with why. A listed case that is
//   caught fails too (take it off the list), so the count only goes up.
// The agreement table is printed; TRITONC_WRITE_L0_DOC=1 writes it into docs/conformance-l0.md, and
// the test fails when the doc's table is not the one this run makes.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonFileResult } from '../../src/report/json.js';
import { cli } from '../support/cli.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { tempDir } from '../support/temp.js';
import { COVERAGE, fromGrep, rewritePlatform, unescapeGrep } from './deploy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUITES = `${CORPUS_DIR}triton-inference-server__server/qa/L0_model_config`;
const FIXTURES = join(ROOT, 'fixtures', 'models');
const DOC = join(ROOT, 'docs', 'conformance-l0.md');

// ---- the cases that are expected to be missed: the one list to edit ------------------------------

const TENSORRT = 'needs a TensorRT runtime: the plan\'s bindings, profiles and formats are not readable without it';
const PENDING = (format: string): string => `the ${format} reader is not merged yet`;

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

// ---- which rule reports which Triton message ------------------------------------------------------

/**
 * The rule ids that report each expected message: the corpus conformance table (deploy.ts COVERAGE)
 * and the messages of the backends' load-time checks that only a model file tells.
 */
const RULES_FOR: { triton: RegExp; rules: string[] }[] = [
  ...COVERAGE,
  { triton: /unable to find backend library for backend '.*'/, rules: ['backend-library', 'platform-backend'] },
  // python_backend's ModelConfig helpers (triton_python_backend_utils.py), called by auto_complete_config
  { triton: /in auto-complete-config function for model '.*' (specified max_batch_size|tries to set scheduling_choice)/, rules: ['python-autocomplete'] },
  { triton: /^Configuration specified scheduling_choice as '.*', but auto-complete-config function/, rules: ['python-autocomplete'] },
  { triton: /^(input|output)( '.*')? in auto-complete-config function for model '.*' (is missing '.*' property|contains property other than)/, rules: ['python-autocomplete'] },
  { triton: /^model transaction property in auto-complete-config function|^trying to change decoupled property in auto-complete-config/, rules: ['python-autocomplete'] },
  { triton: /^auto_complete_config function in model '.*' must return a valid pb\.ModelConfig object/, rules: ['python-autocomplete'] },
  { triton: /^unable to load model '.*', configuration expects datatype/, rules: ['python-autocomplete'] },
  { triton: /^model '.*', tensor '.*': the model expects dims /, rules: ['io-shape', 'python-autocomplete'] },
  // pytorch_backend (pt/model_instance_state.cc): the outputs are checked once the inputs pass
  { triton: /^model configuration must contain at least one (input|output), none were specified/, rules: ['io-name', 'io-dims'] },
  // tensorrt_backend: from the plan's bindings and profiles
  { triton: /^model configuration specified invalid shape for input/, rules: ['io-shape'] },
  // The plan says the tensor is linear; io-dims reports the same flag on the same tensor from the
  // config alone (a non-linear format tensor needs 3 dims: core's ValidateNonLinearFormatIO, which
  // Model::Init runs after the backend's check), so either way is_non_linear_format_io must go.
  { triton: /uses a linear IO format, but 'is_non_linear_format_io' is incorrectly set to true/, rules: ['io-dims'] },
  { triton: /is incorrectly specified as a shape tensor/, rules: ['io-dims', 'io-shape'] },
  { triton: /^unexpected datatype .* for inference (input|output)/, rules: ['io-datatype'] },
  { triton: /model tensor configurations are contradicting each other in terms of whether batching is supported/, rules: ['missing-dynamic-axis', 'autocomplete-surprises', 'io-shape'] },
  { triton: /^failed to specify the dimensions of all input tensors/, rules: ['io-name'] },
];

const rulesFor = (expected: string[]): string[] => [...new Set(expected.flatMap((e) => RULES_FOR.filter((c) => c.triton.test(unescapeGrep(e))).flatMap((c) => c.rules)))];

// ---- what test.sh makes beside the suites' files --------------------------------------------------

interface CaseModel {
  /** A model directory under fixtures/models (<format>/<qa model>) whose contents test.sh copies into the case. */
  model?: string;
  /** The model's file is in Triton's tree (the corpus holds configs only): copied like the others. */
  in_tree?: boolean;
  /** A model.py under fixtures/models that test.sh copies into 1/ (and that sits beside the config in-tree). */
  python?: string;
  /** The TensorRT plan test.sh copies (qa_*_model_repository/...): a stand-in file here. */
  tensorrt?: string;
  /** Files test.sh adds beside the model: dummy_file.txt in 1/, output0_labels.txt beside the config. */
  also?: string[];
}
const CASES: Record<string, CaseModel> = JSON.parse(readFileSync(new URL('./l0-model-config-cases.json', import.meta.url), 'utf8'));

/** test.sh lines 124-177, 243-258: version directories made empty (ensembles and their steps, custom backends, instance groups). */
const EMPTY_VERSION_DIRS = [
  ...['invalid_input_map', 'invalid_output_map', 'unmapped_input', 'self_circular_dependency'].flatMap((c) =>
    [c, 'fp32_dim1_batch4', 'fp32_dim1_batch4_input4', 'fp32_dim1_batch4_output3'].map((m) => `autofill_noplatform/ensemble/${c}/${m}/1`)),
  ...['invalid_batch_size', 'fp32_dim1_batch2', 'fp32_dim1_batch4'].map((m) => `autofill_noplatform/ensemble/invalid_batch_size/${m}/1`),
  'autofill_noplatform/ensemble/invalid_decoupled_branching/invalid_decoupled_branching/1',
  'autofill_noplatform/ensemble/invalid_decoupled_branching/int32_dim1_nobatch_output2/1',
  'autofill_noplatform/ensemble/invalid_decoupled_branching_2/invalid_decoupled_branching_2/1',
  ...['inconsistent_shape', 'fp32_dim1_batch4', 'fp32_dim3_batch4'].map((m) => `autofill_noplatform/ensemble/inconsistent_shape/${m}/1`),
  ...['inconsistent_data_type', 'fp32_dim1_batch2', 'int32_dim1_batch4'].map((m) => `autofill_noplatform/ensemble/inconsistent_data_type/${m}/1`),
  ...['non_existing_model', 'fp32_dim1_batch4', 'fp32_dim1_batch4_output3'].map((m) => `autofill_noplatform/ensemble/non_existing_model/${m}/1`),
  'autofill_noplatform/ensemble/circular_dependency/circular_dependency/1',
  'autofill_noplatform/ensemble/circular_dependency/circular_dependency_2/1',
  ...['no_required_version', 'no_required_version_2', 'no_required_version_3'].flatMap((c) => [c, 'simple'].map((m) => `autofill_noplatform/ensemble/${c}/${m}/1`)),
  ...['embedded_ensemble', 'fp32_dim1_batch4', 'inner_ensemble'].map((m) => `autofill_noplatform_success/ensemble/embedded_ensemble/${m}/1`),
  ...['inconsistent_shape', 'inconsistent_shape_2'].flatMap((c) => [c, 'fp32_dim1_batch4', 'fp32_dim2_nobatch'].map((m) => `autofill_noplatform_success/ensemble/${c}/${m}/1`)),
  ...['unmapped_output', 'fp32_dim1_batch4_output3'].map((m) => `autofill_noplatform_success/ensemble/unmapped_output/${m}/1`),
  'autofill_noplatform/custom/no_delimiter/1',
  'autofill_noplatform/custom/unknown_backend.unknown/1',
  'autofill_noplatform_success/custom/empty_config.identity/1',
  'autofill_noplatform_success/custom/no_backend.identity/1',
  'noautofill_platform/invalid_cpu/1',
  'noautofill_platform/invalid_gpu/1',
  'noautofill_platform/negative_gpu/1',
];
/** test.sh lines 179-184: the repeat backend's library, copied into the ensembles' decoupled step. */
const REPEAT_LIBRARY = ['invalid_decoupled_branching', 'invalid_decoupled_branching_2'].map((c) => `autofill_noplatform/ensemble/${c}/repeat_int32/1/libtriton_repeat.so`);
/** test.sh line 584: successes without config.pbtxt that are one model all the same. */
const NO_CONFIG_MODELS = new Set(['no_config', 'no_config_variable', 'no_config_shape_tensor', 'no_config_non_linear_format_io']);
/** test.sh TRIALS and the two runs of noautofill_platform. */
const TRIALS = ['tensorrt_plan', 'onnxruntime_onnx', 'pytorch_libtorch'] as const;
const NOAUTOFILL_FLAGS = ['--strict-model-config=true', '--disable-auto-complete-config'] as const;
/** test.sh's export CUDA_VISIBLE_DEVICES=0: the server sees one GPU. */
const GPUS = '1';
/**
 * The backends in the container test.sh runs in, whose /opt/tritonserver/backends is the server's
 * backend directory (test.sh gives no --backend-directory): the image is built with every backend
 * (server r24.10 build.py enable_all, all_backends less ensemble, which core runs itself). Staged as
 * empty libraries: only their presence matters to core's search (core backend_model.cc FindBackendLibraryPath).
 */
const CONTAINER_BACKENDS = ['identity', 'square', 'repeat', 'tensorflow', 'onnxruntime', 'python', 'dali', 'pytorch', 'openvino', 'fil', 'tensorrt'];
const BACKEND_DIRECTORY = 'backends';

const formatOf = (m: CaseModel): string | undefined => m.model?.split('/')[0] ?? (m.python ? 'python' : m.tensorrt ? 'tensorrt' : undefined);

/**
 * The suites' tree as test.sh leaves it before its runs (the corpus's configs and expected files, plus
 * what test.sh copies and makes), built once. Returns what could not be placed: cases whose fixtures
 * are pending.
 */
function stageSuites(dir: string): Map<string, string> {
  const pending = new Map<string, string>();
  for (const suite of ['autofill_noplatform', 'autofill_noplatform_success', 'noautofill_platform']) cpSync(join(SUITES, suite), join(dir, suite), { recursive: true });
  for (const [id, m] of Object.entries(CASES)) {
    if (id.startsWith('historical/')) continue;
    const caseDir = join(dir, id);
    const format = formatOf(m);
    if (m.model) {
      const src = join(FIXTURES, m.model);
      if (!existsSync(src)) {
        pending.set(id, `fixtures/models/${m.model} not committed yet (the ${format} reader's branch brings it)`);
        continue;
      }
      // cp -r <qa model>/1 <case> (and the labels file beside it).
      cpSync(join(src, '1'), join(caseDir, '1'), { recursive: true, dereference: true });
      for (const f of m.also ?? []) cpSync(join(src, f), join(caseDir, f), { dereference: true });
    } else if (m.python) {
      const src = readFileSync(join(FIXTURES, m.python));
      // In-tree model.py files sit beside the config and are copied into 1/; auto_complete's goes to 1/ only.
      if (!m.python.startsWith('python/auto_complete/')) writeFileSync(join(caseDir, 'model.py'), src);
      mkdirSync(join(caseDir, '1'), { recursive: true });
      writeFileSync(join(caseDir, '1', 'model.py'), src);
    } else if (m.tensorrt) {
      // No TensorRT here: a stand-in plan keeps the backend test.sh's file selects (model.plan).
      mkdirSync(join(caseDir, '1'), { recursive: true });
      writeFileSync(join(caseDir, '1', 'model.plan'), `stand-in for /data/inferenceserver/qa/${m.tensorrt}/1/model.plan\n`);
      for (const f of m.also ?? []) writeFileSync(join(caseDir, '1', f), 'dummy_content\n');
    }
  }
  for (const b of CONTAINER_BACKENDS) {
    mkdirSync(join(dir, BACKEND_DIRECTORY, b), { recursive: true });
    writeFileSync(join(dir, BACKEND_DIRECTORY, b, `libtriton_${b}.so`), '');
  }
  for (const d of EMPTY_VERSION_DIRS) mkdirSync(join(dir, d), { recursive: true });
  for (const f of REPEAT_LIBRARY) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
  return pending;
}

interface Run {
  /** suite/backend/case, and for noautofill the trial and flag. */
  id: string;
  suite: 'autofill_noplatform' | 'autofill_noplatform_success' | 'noautofill_platform';
  group: string;
  caseDir: string;
  flags: string[];
  trial?: string;
}

function runsOf(staged: string): Run[] {
  const runs: Run[] = [];
  for (const suite of ['autofill_noplatform', 'autofill_noplatform_success'] as const) {
    for (const backend of readdirSync(join(staged, suite)).sort()) {
      for (const name of readdirSync(join(staged, suite, backend)).sort()) {
        runs.push({ id: `${suite}/${backend}/${name}`, suite, group: `${suite}/${backend}`, caseDir: join(staged, suite, backend, name), flags: ['--strict-model-config=false'] });
      }
    }
  }
  for (const flag of NOAUTOFILL_FLAGS) {
    for (const trial of TRIALS) {
      for (const name of readdirSync(join(staged, 'noautofill_platform')).sort()) {
        runs.push({ id: `noautofill_platform/${name} [${trial}, ${flag}]`, suite: 'noautofill_platform', group: `noautofill_platform ${flag}`, caseDir: join(staged, 'noautofill_platform', name), flags: [flag], trial });
      }
    }
  }
  return runs;
}

/** test.sh's `models` for one run: the case as one model, or its contents as the repository. */
function buildRepository(run: Run, into: string): { repo: string; expected: string[] } {
  const repo = join(into, 'models');
  mkdirSync(repo, { recursive: true });
  const name = basename(run.caseDir);
  const single = existsSync(join(run.caseDir, 'config.pbtxt')) || run.suite === 'noautofill_platform' || (run.suite === 'autofill_noplatform_success' && NO_CONFIG_MODELS.has(name));
  const where = single ? join(repo, name) : repo;
  if (single) cpSync(run.caseDir, where, { recursive: true });
  else for (const e of readdirSync(run.caseDir)) cpSync(join(run.caseDir, e), join(repo, e), { recursive: true });
  const config = join(where, 'config.pbtxt');
  if (run.trial && existsSync(config)) writeFileSync(config, rewritePlatform(readFileSync(config, 'utf8'), run.trial));
  const expected = readdirSync(where).filter((f) => f.startsWith('expected') && statSync(join(where, f)).isFile()).sort().map((f) => readFileSync(join(where, f), 'utf8').replace(/\n+$/, ''));
  return { repo, expected };
}

interface Finding {
  ruleId: string;
  level: string;
  message: string;
  file: string;
}

async function lintRepository(cwd: string, run: Run): Promise<Finding[]> {
  const r = await cli(['lint', '--format', 'json', '--model-repository=models', ...run.flags, '--gpus', GPUS, `--backend-directory=${join(staged, BACKEND_DIRECTORY)}`], { cwd });
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
const outcomes: Outcome[] = [];

const staged = tempDir('tritonc-l0-');
const pending = stageSuites(staged);
const runs = runsOf(staged);

describe('qa/L0_model_config replayed as test.sh runs it', () => {
  it('stages every case of the three suites, with a model for every case that takes one', () => {
    expect(runs.filter((r) => r.suite === 'autofill_noplatform')).toHaveLength(85);
    expect(runs.filter((r) => r.suite === 'noautofill_platform')).toHaveLength(58 * 6);
    // Every case test.sh copies a model into is in the cases file, and every case there exists.
    const cased = Object.keys(CASES).filter((id) => !id.startsWith('historical/'));
    const withModel = runs.filter((r) => r.suite !== 'noautofill_platform' && /\/(onnx|openvino|pytorch|python|tensorrt)$/.test(r.group));
    for (const r of withModel) expect(cased.some((id) => id === r.id || id.startsWith(`${r.id}/`)), `${r.id}: not in l0-model-config-cases.json`).toBe(true);
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
      const findings = await lintRepository(dir, run);
      const errors = findings.filter((f) => f.level === 'error');
      const show = errors.map((e) => `  ${e.file}: [${e.ruleId}] ${e.message}`).join('\n') || '  (no errors)';
      if (!refuses) {
        outcomes.push({ run, refuses, errors, rules: [], caught: false, verbatim: false });
        expect(errors, `${run.id} loads in Triton; tritonc reports:\n${show}`).toEqual([]);
        return;
      }
      expect(expected.length, `${run.id}: no expected* file`).toBeGreaterThan(0);
      const rules = rulesFor(expected);
      expect(rules.length, `${run.id}: no rule in RULES_FOR reports ${expected.join(' | ')}`).toBeGreaterThan(0);
      const hits = errors.filter((e) => rules.includes(e.ruleId));
      const caught = hits.length > 0;
      const patterns = expected.map(fromGrep);
      const verbatim = hits.some((h) => patterns.some((p) => p.test(h.message)));
      const miss = EXPECTED_MISSES[run.id];
      outcomes.push({ run, refuses, errors, rules, caught, verbatim, miss });
      const triton = expected.map(unescapeGrep).join('\n  or: ');
      if (miss) expect(caught, `${run.id} is caught by ${hits.map((h) => h.ruleId).join(', ')} now: take it off EXPECTED_MISSES ("${miss}")`).toBe(false);
      else expect(caught, `${run.id}: Triton refuses it ("${triton}"); expected an error from ${rules.join(' or ')}, tritonc reports:\n${show}`).toBe(true);
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
    if (process.env.TRITONC_WRITE_L0_DOC === '1') writeDocTable(table);
    else if (existsSync(DOC)) expect(docTable(readFileSync(DOC, 'utf8')), 'docs/conformance-l0.md: its table is not this run\'s; regenerate with TRITONC_WRITE_L0_DOC=1').toBe(table);
  });
});

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
    const r = row(g, all.filter((o) => o.run.group === g));
    for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += r[k];
  }
  lines.push(`| **all** | ${sum.runs} | ${sum.refuses} | ${sum.caught} | ${sum.missed} | ${sum.loads} | ${sum.clean} | ${sum.skipped} |`);
  const auto = all.filter((o) => o.run.suite === 'autofill_noplatform');
  lines.push('', `autofill_noplatform: ${auto.filter((o) => o.caught).length} of ${auto.length} refusals caught by the expected rule (${auto.filter((o) => o.verbatim).length} quoting Triton's message).`);
  const reasons = new Map<string, string[]>();
  for (const o of all.filter((x) => x.refuses && !x.caught)) {
    const why = o.miss ?? 'NOT EXPECTED';
    reasons.set(why, [...(reasons.get(why) ?? []), o.run.id.replace(/^autofill_noplatform\//, '')]);
  }
  if (reasons.size) lines.push('', 'Missed, by reason:', '');
  for (const [why, ids] of reasons) lines.push(`- ${why} (${ids.length}): ${ids.join(', ')}`);
  const skipped = all.filter((o) => o.skipped && !o.refuses);
  if (skipped.length) lines.push('', `Not replayed (Triton loads them; their fixtures are pending): ${skipped.map((o) => o.run.id.replace(/^autofill_noplatform_success\//, '')).join(', ')}`);
  return lines.join('\n');
}

const BEGIN = '<!-- l0-table: begin (TRITONC_WRITE_L0_DOC=1 npx vitest run test/conformance/l0-model-config.test.ts) -->';
const END = '<!-- l0-table: end -->';

function docTable(doc: string): string | undefined {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  return a < 0 || b < a ? undefined : doc.slice(a + BEGIN.length, b).trim();
}

function writeDocTable(table: string): void {
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC}: no ${BEGIN} ... ${END} block`);
  writeFileSync(DOC, `${doc.slice(0, a + BEGIN.length)}\n${table}\n${doc.slice(b)}`);
}



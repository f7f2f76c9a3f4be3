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
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import type { LintResult } from '../../src/lint/results.js';
import { RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS, type LintSettings } from '../../src/lint/settings.js';
import type { ServerOptions } from '../../src/triton/server-options.js';
import { QA_MODEL, QA_MODEL_NOBATCH } from '../rules/qa-model.js';
import { CORPUS_DIR, corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { writeOnnx, type OnnxSpec } from '../lint/harness.js';
import { namesLabelFiles, placeLabelFiles } from './support.js';

/**
 * Which rule covers which Triton message: `triton` matches the expected_error text (the grep pattern of
 * the test, with `\[` read as `[`), `rules` are the rule ids that report it.
 */
export const COVERAGE: { triton: RegExp; rules: string[] }[] = [
  // name, platform, backend, files (core AutoCompleteBackendFields, InitializeModelInfo, ValidateModelConfig)
  // With no version directory there is no model file to guess the backend from: version-dirs says so.
  { triton: /^Invalid model name: Could not determine backend for model/, rules: ['platform-backend', 'version-dirs'] },
  { triton: /^Ensemble model '.*' must have platform type '.*' and empty backend type/, rules: ['platform-backend'] },
  { triton: /^unexpected 'platform' and 'backend' pair, got:/, rules: ['platform-backend'] },
  { triton: /^unexpected platform type '.*' for /, rules: ['platform-backend'] },
  { triton: /^backend library name '.*' escapes backend directory/, rules: ['platform-backend'] },
  { triton: /^Model file name '.*' contains an invalid character|contains an invalid character: /, rules: ['model-filename'] },
  { triton: /^unexpected directory name '.*' for model '.*', directory name must equal model name/, rules: ['name-matches-directory'] },
  // batching and queues (core ValidateModelConfig)
  { triton: /^'max_batch_size' must be non-negative value for /, rules: ['max-batch-size'] },
  { triton: /^(dynamic batching preferred size|sequence batching preferred batch size) must be/, rules: ['preferred-batch-size'] },
  { triton: /^default priority level must be in range|^priority queue policy must have priority level in range/, rules: ['priority-queue'] },
  { triton: /^Only one priority level is allowed when 'preserve_ordering' is true|^Queue policy can not have DELAY as timeout action/, rules: ['priority-queue'] },
  // sequence batching (core ValidateModelConfig)
  { triton: /^sequence batching /, rules: ['sequence-batching'] },
  // instance groups (core ValidateInstanceGroup)
  { triton: /^instance group .* of model .* (has kind|specifies invalid or unsupported gpu id|and platform)/, rules: ['instance-group'] },
  // ensembles (core ValidateEnsembleSchedulingConfig, the dependency graph, ValidateEnsembleConfig)
  { triton: /^ensemble scheduling (cannot|must) be set for /, rules: ['ensemble-config'] },
  { triton: /^(instance group|optimization) should not be specified for ensemble|^model_warmup can not be specified for ensemble/, rules: ['ensemble-config'] },
  { triton: /^must specify '(step|model_name|input_map|output_map)'/, rules: ['ensemble-config'] },
  { triton: /^ensemble tensor '.*' can appear in an output map only once/, rules: ['ensemble-config'] },
  { triton: /^ensemble (input|output) '.*' for ensemble .*' is not used/, rules: ['ensemble-config'] },
  { triton: /^output '.*' for ensemble '.*' is not written/, rules: ['ensemble-config'] },
  { triton: /^ensemble tensor '.*' is unused in ensemble/, rules: ['ensemble-config'] },
  { triton: /^ensemble .* contains models that are not available or ambiguous/, rules: ['ensemble-models'] },
  { triton: /^ensemble '.*' depends on '.*' (whose required version .* is not loaded|which has no loaded version)/, rules: ['ensemble-models'] },
  { triton: /^circular dependency between ensembles: /, rules: ['ensemble-models'] },
  { triton: /^ensemble .* allows maximum batch size .*, but it contains model/, rules: ['ensemble-models'] },
  { triton: /^in ensemble .*, (ensemble tensor .* is mapping to non-existing input|input .* in model .* is not mapped to any ensemble tensors|ensemble tensor .* is mapped from non-existing output)/, rules: ['ensemble-models'] },
  { triton: /^in ensemble .*, ensemble tensor .*: inconsistent (data type|shape)/, rules: ['ensemble-models'] },
  { triton: /^in ensemble .*, step of model '.*' receives inputs originated from different decoupled models/, rules: ['ensemble-models'] },
  // response cache, metrics (core ValidateModelConfig, ValidateModelMetrics)
  { triton: /^Response Cache does not currently support model /, rules: ['response-cache'] },
  { triton: /^metric control must specify|^metric identifier must specify|^histogram options must specify/, rules: ['model-metrics'] },
  // I/O, dims, reshape, batch I/O (core ValidateModelIOConfig, ValidateBatchIO)
  { triton: /^model (input|output) ('.*' )?(must specify|cannot have empty reshape|dimension must be|reshape dimensions must be|has different)/, rules: ['io-dims'] },
  { triton: /^batch (input|output) kind '.*' expects 1 source input|^unknown source input name|^unknown target output name|^target output name '.*' can only be specified once|^batch input data type must be/, rules: ['batch-io'] },
  // against the ONNX model (onnxruntime_backend AutoCompleteMaxBatch, ValidateInputs / ValidateOutputs)
  { triton: /^autofill failed for model '.*': model does not support batching/, rules: ['missing-dynamic-axis', 'autocomplete-surprises'] },
  { triton: /^unable to load model '.*', configuration expects \d+ inputs, model provides \d+/, rules: ['io-name'] },
  { triton: /^unexpected inference (input|output) '.*', allowed (inputs|outputs) are/, rules: ['io-name'] },
  { triton: /^model '.*', tensor '.*': the model expects \d+ dimensions/, rules: ['io-shape', 'batch-dim-in-dims'] },
  { triton: /^unable to load model '.*', configuration expects datatype/, rules: ['io-datatype'] },
  // version directories and model files (core VersionsToLoad, onnxruntime_backend ModelState::LoadModel)
  { triton: /^at least one version must be available under the version policy/, rules: ['version-dirs'] },
  { triton: /^unable to find '.*' for model instance/, rules: ['version-dirs'] },
];

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
    why: 'only an ensemble_scheduling block (no name, platform, input or output), inside the version directory where Triton never reads a config (core GetModelConfigFullPath); the tutorial\'s ensemble_model has no config.pbtxt of its own, and version-dirs says to move this one up',
    rules: ['version-dirs'],
  },
};

// ---- the Triton test's setup ---------------------------------------------------------------------

const unescapeGrep = (s: string): string => s.replace(/\\([[\]])/g, '$1');

/** A grep basic regex as a JS RegExp: `\[` stays a literal bracket, `(){}+?|` are literal in BRE. */
const fromGrep = (bre: string): RegExp => new RegExp(bre.replace(/\\n/g, '\n').replace(/[(){}+?|]/g, '\\$&'));

/** The texts the test accepts: expected, and the alt_expected files beside it. */
function expectedTexts(row: CorpusRow): RegExp[] {
  const dirs = [dirname(row.path), repoLevelDir(row)].filter((d): d is string => d !== undefined);
  const alts = dirs.flatMap((d) => readdirSync(d).filter((f) => /^expected/.test(f)).map((f) => readFileSync(join(d, f), 'utf8').replace(/\n+$/, '')));
  return [row.expectedError, ...alts].filter(Boolean).map(fromGrep);
}

/** The rules written with this suite as their proof: their findings must quote Triton's message verbatim. */
const VERBATIM_RULES = new Set(['ensemble-config', 'ensemble-models', 'version-dirs']);
const checkOf = (row: CorpusRow): string | undefined => /(?:^|; )check=([a-z-]+)/.exec(row.note)?.[1];
const coverageOf = (expected: string): { triton: RegExp; rules: string[] } | undefined => COVERAGE.find((c) => c.triton.test(unescapeGrep(expected)));

/** The base config of qa/L0_model_config/custom_parameters fragments (qa_model_repository/plan_float32_float32_float32) is not in the corpus. */
const TENSORRT_STAND_IN = 'platform: "tensorrt_plan"\nmax_batch_size: 8\n';

function temp(): string {
  return mkdtempSync(join(tmpdir(), 'tritonc-conformance-'));
}

function write(path: string, content: string | Uint8Array = ''): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The config text the test gives Triton: a fragment is appended to its base config. */
function configText(row: CorpusRow): string {
  const text = readCorpusFile(row);
  const fragment = /fragment\(test concatenates (\S+) (\(not in repo\) )?\+ partial\.pbtxt/.exec(row.note);
  if (!fragment) return text;
  const base = `${CORPUS_DIR}triton-inference-server__server/${fragment[1]}`;
  if (!fragment[2] && existsSync(base)) return `${readFileSync(base, 'utf8')}\n${text}`;
  return `${TENSORRT_STAND_IN}${text}`;
}

/** The platforms noautofill_platform tests substitute, one server run each (server qa/L0_model_config/test.sh TRIALS). */
const TRIALS = ['tensorrt_plan', 'onnxruntime_onnx', 'pytorch_libtorch'] as const;

/** The platforms a row is tried with: the trials for rows whose test rewrites the platform, else the row as it is. */
const trialsOf = (row: CorpusRow): readonly (string | undefined)[] => (row.note.includes('test-rewrites-platform') ? TRIALS : [undefined]);

/** noautofill_platform tests delete every line with "platform:" and append the platform of the trial. */
function rewritePlatform(text: string, trial: string | undefined): string {
  if (!trial) return text;
  return `${text.split('\n').filter((l) => !l.includes('platform:')).join('\n')}\nplatform: "${trial}"\n`;
}

/**
 * The server flags the row's test starts tritonserver with (the note's flags=...): --strict-model-config=true
 * and --disable-auto-complete-config both turn auto-complete off.
 */
function serverOf(row: CorpusRow): Partial<ServerOptions> {
  const flags = /(?:^|; )flags=([^;]*)/.exec(row.note)?.[1] ?? '';
  return /--strict-model-config=true|--disable-auto-complete-config/.test(flags) ? { autoCompleteConfig: false } : {};
}

/** What the test puts in the version directory, as placeholders that name the format without content. */
function placeModel(modelDir: string, note: string): void {
  const kind = /needs-model:([a-z.-]+)/.exec(note)?.[1];
  if (!kind) return;
  // A model.onnx *directory* makes Triton's auto-fill pick ONNX Runtime, and there is no file to read.
  if (kind === 'onnx') mkdirSync(join(modelDir, '1', 'model.onnx'), { recursive: true });
  const file = { 'tensorrt-plan': 'model.plan', libtorch: 'model.pt', 'python-model.py': 'model.py', openvino: 'model.xml', dali: 'model.dali' }[kind];
  if (file) write(join(modelDir, '1', file));
}

interface Layout {
  /** What to lint: a model directory or a repository. */
  target: string;
  /** The config whose findings count. */
  file: string;
  tmp?: string;
}

const rowByPath = new Map(corpusRows().map((r) => [r.path, r]));

/** Repository-level tests copy a whole directory of models; the test script gives each a version 1. */
function repoLevelDir(row: CorpusRow): string | undefined {
  const m = /repo-level test dir ([^\s;]+)/.exec(row.note);
  if (!m) return undefined;
  let dir = dirname(row.path);
  while (dir.length > CORPUS_DIR.length && !dir.endsWith(`/${m[1]}`)) dir = dirname(dir);
  return dir.endsWith(`/${m[1]}`) ? dir : undefined;
}

function copyRepository(testDir: string, row: CorpusRow, text: string): Layout {
  const tmp = temp();
  const repo = join(tmp, basename(testDir));
  cpSync(testDir, repo, { recursive: true });
  for (const e of readdirSync(repo)) {
    const modelDir = join(repo, e);
    if (!statSync(modelDir).isDirectory()) continue;
    mkdirSync(join(modelDir, '1'), { recursive: true });
    // What the test puts in each member's version directory, as that member's row says.
    const member = rowByPath.get(join(testDir, e, 'config.pbtxt'));
    if (member) placeModel(modelDir, member.note);
    if (member) placeLabelFiles(modelDir, readCorpusFile(member));
  }
  const modelDir = join(repo, relative(testDir, dirname(row.path)));
  const file = join(modelDir, 'config.pbtxt');
  writeFileSync(file, text);
  return { target: repo, file, tmp };
}

/** An invalid row as its Triton test lays it out, with the platform of one trial. */
function invalidLayout(row: CorpusRow, trial: string | undefined): Layout {
  const text = rewritePlatform(configText(row), trial);
  const testDir = repoLevelDir(row);
  if (testDir) return copyRepository(testDir, row, text);
  const tmp = temp();
  const modelDir = join(tmp, 'models', basename(dirname(row.path)));
  cpSync(dirname(row.path), modelDir, { recursive: true });
  const file = join(modelDir, 'config.pbtxt');
  writeFileSync(file, text);
  if (row.note.includes('needs-version-dir') || row.note.includes('fragment(')) mkdirSync(join(modelDir, '1'), { recursive: true });
  const created = /test-creates (\S+)/.exec(row.note)?.[1];
  if (created) write(join(modelDir, created));
  placeModel(modelDir, row.note);
  return { target: modelDir, file, tmp };
}

/** A valid row, linted where it is when it sits in a model directory of its own name, else copied into one. */
function validLayout(row: CorpusRow): Layout {
  const text = configText(row);
  const testDir = repoLevelDir(row);
  if (testDir) return copyRepository(testDir, row, text);
  const doc = parseConfig(text, row.path);
  const dirName = basename(dirname(row.path));
  const name = doc.value.name || dirName;
  if (basename(row.path) === 'config.pbtxt' && name === dirName && text === readCorpusFile(row) && !/needs-(model|version-dir)/.test(row.note) && !namesLabelFiles(text)) {
    return { target: row.path, file: row.path };
  }
  // Triton's tests copy such files into a model directory named after the model.
  const tmp = temp();
  const modelDir = join(tmp, 'models', name);
  const file = join(modelDir, 'config.pbtxt');
  write(file, text);
  placeModel(modelDir, row.note);
  placeLabelFiles(modelDir, text);
  return { target: modelDir, file, tmp };
}

const VALID_SETTINGS: LintSettings = {
  ...DEFAULT_SETTINGS,
  // The corpus holds configs, no model files and no empty directories: the weights are elsewhere.
  configsOnly: true,
  rules: {
    // Ensembles' composing models are often copied in by the test from elsewhere.
    'ensemble-models': { level: 'error', options: { externalModels: true } },
  },
};

function lintLayout(layout: Layout, settings: LintSettings = DEFAULT_SETTINGS, server: Partial<ServerOptions> = {}): { result: LintResult; errors: Diagnostic[] } {
  const result = lintSync([layout.target], { settings, rules: RULES, server });
  const errors = result.results.filter((r) => r.filePath === layout.file).flatMap((r) => r.diagnostics.filter((d) => d.severity === 'error'));
  if (layout.tmp) rmSync(layout.tmp, { recursive: true, force: true });
  return { result, errors };
}

const show = (errors: Diagnostic[]): string => errors.map((d) => `  [${d.ruleId}] ${d.message}`).join('\n') || '  (no errors)';

// ---- the rows --------------------------------------------------------------------------------------

const rows = corpusRows();
const IN_SCOPE = new Set(['static', 'repo', 'repo-layout']);
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
          const hits = errors.filter((d) => coverage!.rules.includes(d.ruleId));
          const where = `${row.file}${trial ? ` with platform "${trial}"` : ''}`;
          if (hits.length) outcome.covered.push(where);
          else outcome.uncovered.push({ file: where, expected: row.expectedError, why: `no error from ${coverage!.rules.join(' or ')}` });
          expect(hits.length, `Triton: ${unescapeGrep(row.expectedError)}\nexpected an error from ${coverage!.rules.join(' or ')}, got:\n${show(errors)}`).toBeGreaterThan(0);
          const texts = expectedTexts(row);
          const verbatim = hits.some((d) => texts.some((t) => t.test(d.message)));
          if (verbatim) outcome.verbatim++;
          if (hits.some((d) => VERBATIM_RULES.has(d.ruleId))) expect(verbatim, `Triton's message is not quoted:\n${texts.join('\n')}\n${show(hits)}`).toBe(true);
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
        const { errors } = lintLayout(validLayout(row), VALID_SETTINGS);
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

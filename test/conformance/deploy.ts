// How the corpus rows are deployed as their Triton tests deploy them, shared by the conformance
// suites that lint them (lint-rows) and that load them into the real tritonserver (live-server): the
// model directory name, version directories, the model files the test copies in (as placeholders),
// label files, the fragment's base config, the platform a noautofill test substitutes, the server flags.
// COVERAGE says which rule covers which Triton message.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { parseConfig } from '../../src/config/document.js';
import type { ServerOptions } from '../../src/triton/server-options.js';
import { CORPUS_DIR, corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { modelStub, namesLabelFiles, placeLabelFiles } from './support.js';

/**
 * Which rule covers which Triton message: `triton` matches the expected_error text (the grep pattern of
 * the test, with `\[` read as `[`), `rules` are the rule ids that report it.
 */
export const COVERAGE: { triton: RegExp; rules: string[] }[] = [
  // the config file read with the release's model_config.proto (core ReadTextProto): a field it lacks
  { triton: /failed to read text proto from .*has no field named/, rules: ['field-release'] },
  // name, platform, backend, files (core AutoCompleteBackendFields, InitializeModelInfo, ValidateModelConfig)
  // With no version directory there is no model file to guess the backend from: version-dirs says so.
  { triton: /^Invalid model name: Could not determine backend for model/, rules: ['platform-backend', 'version-dirs'] },
  { triton: /^Ensemble model '.*' must have platform type '.*' and empty backend type/, rules: ['platform-backend'] },
  { triton: /^unexpected 'platform' and 'backend' pair, got:/, rules: ['platform-backend'] },
  { triton: /^unexpected platform type '.*' for /, rules: ['platform-backend'] },
  { triton: /^backend library name '.*' escapes backend directory/, rules: ['platform-backend', 'backend-library'] },
  { triton: /^unable to find (Python backend based )?backend library/, rules: ['backend-library', 'platform-backend'] },
  { triton: /^Model file name '.*' contains an invalid character|contains an invalid character: /, rules: ['model-filename'] },
  { triton: /^unexpected directory name '.*' for model '.*', directory name must equal model name/, rules: ['name-matches-directory'] },
  // batching and queues (core ValidateModelConfig)
  { triton: /^'max_batch_size' must be non-negative value for /, rules: ['max-batch-size'] },
  { triton: /^(dynamic batching preferred size|sequence batching preferred batch size) must be/, rules: ['preferred-batch-size'] },
  { triton: /^default priority level must be in range|^priority queue policy must have priority level in range/, rules: ['priority-queue'] },
  {
    triton: /^Only one priority level is allowed when 'preserve_ordering' is true|^Queue policy can not have DELAY as timeout action/,
    rules: ['priority-queue'],
  },
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
  {
    triton:
      /^in ensemble .*, (ensemble tensor .* is mapping to non-existing input|input .* in model .* is not mapped to any ensemble tensors|ensemble tensor .* is mapped from non-existing output)/,
    rules: ['ensemble-models'],
  },
  { triton: /^in ensemble .*, ensemble tensor .*: inconsistent (data type|shape)/, rules: ['ensemble-models'] },
  { triton: /^in ensemble .*, step of model '.*' receives inputs originated from different decoupled models/, rules: ['ensemble-models'] },
  // response cache, metrics (core ValidateModelConfig, ValidateModelMetrics)
  { triton: /^Response Cache does not currently support model /, rules: ['response-cache'] },
  { triton: /^metric control must specify|^metric identifier must specify|^histogram options must specify/, rules: ['model-metrics'] },
  // I/O, dims, reshape, batch I/O (core ValidateModelIOConfig, ValidateBatchIO)
  {
    triton: /^model (input|output) ('.*' )?(must specify|cannot have empty reshape|dimension must be|reshape dimensions must be|has different)/,
    rules: ['io-dims'],
  },
  {
    triton:
      /^batch (input|output) kind '.*' expects 1 source input|^unknown source input name|^unknown target output name|^target output name '.*' can only be specified once|^batch input data type must be/,
    rules: ['batch-io'],
  },
  // against the ONNX model (onnxruntime_backend AutoCompleteMaxBatch, ValidateInputs / ValidateOutputs)
  { triton: /^autofill failed for model '.*': model does not support batching/, rules: ['missing-dynamic-axis', 'autocomplete-surprises'] },
  { triton: /^unable to load model '.*', configuration expects \d+ inputs, model provides \d+/, rules: ['io-name'] },
  { triton: /^unexpected inference (input|output) '.*', allowed (inputs|outputs) are/, rules: ['io-name'] },
  { triton: /^model '.*', tensor '.*': the model expects \d+ dimensions/, rules: ['io-shape', 'batch-dim-in-dims'] },
  { triton: /^unable to load model '.*', configuration expects datatype/, rules: ['io-datatype'] },
  // version directories and model files (core VersionsToLoad, onnxruntime_backend ModelState::LoadModel)
  { triton: /^at least one version must be available under the version policy/, rules: ['version-dirs'] },
  { triton: /^unable to find '.*' for model instance/, rules: ['version-dirs'] },
  // The ONNX Runtime backend's own words for a missing model file (tritonserver 2.51,
  // test/server/quoted-messages-real-triton.test.ts); the PyTorch backend's are the line above.
  { triton: /^failed to stat file /, rules: ['version-dirs', 'model-unreadable'] },
];

// ---- the Triton test's setup ---------------------------------------------------------------------

export const unescapeGrep = (s: string): string => s.replace(/\\([[\]])/g, '$1');

/** A grep basic regex as a JS RegExp: `\[` stays a literal bracket, `(){}+?|` are literal in BRE. */
export const fromGrep = (bre: string): RegExp => new RegExp(bre.replace(/\\n/g, '\n').replace(/[(){}+?|]/g, '\\$&'));

/** The texts the test accepts: expected, and the alt_expected files beside it. */
export function expectedTexts(row: CorpusRow): RegExp[] {
  const dirs = [dirname(row.path), repoLevelDir(row)].filter((d): d is string => d !== undefined);
  const alts = dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => /^expected/.test(f))
      .map((f) => readFileSync(join(d, f), 'utf8').replace(/\n+$/, '')),
  );
  return [row.expectedError, ...alts].filter(Boolean).map(fromGrep);
}

/** The rules written with this suite as their proof: their findings must quote Triton's message verbatim. */
export const VERBATIM_RULES = new Set(['ensemble-config', 'ensemble-models', 'version-dirs']);
/** The invalid rows a linter can judge without the real model: check=static, static(...), repo, repo-layout. */
export const IN_SCOPE = new Set(['static', 'repo', 'repo-layout']);
export const checkOf = (row: CorpusRow): string | undefined => /(?:^|; )check=([a-z-]+)/.exec(row.note)?.[1];
export const coverageOf = (expected: string): { triton: RegExp; rules: string[] } | undefined => COVERAGE.find((c) => c.triton.test(unescapeGrep(expected)));

/** The base config of qa/L0_model_config/custom_parameters fragments (qa_model_repository/plan_float32_float32_float32) is not in the corpus. */
export const TENSORRT_STAND_IN = 'platform: "tensorrt_plan"\nmax_batch_size: 8\n';

export function temp(): string {
  return mkdtempSync(join(tmpdir(), 'tritonc-conformance-'));
}

export function write(path: string, content: string | Uint8Array = ''): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The config text the test gives Triton: a fragment is appended to its base config. */
export function configText(row: CorpusRow): string {
  const text = readCorpusFile(row);
  const fragment = /fragment\(test concatenates (\S+) (\(not in repo\) )?\+ partial\.pbtxt/.exec(row.note);
  if (!fragment) return text;
  const base = `${CORPUS_DIR}triton-inference-server__server/${fragment[1]}`;
  if (!fragment[2] && existsSync(base)) return `${readFileSync(base, 'utf8')}\n${text}`;
  return `${TENSORRT_STAND_IN}${text}`;
}

/** The platforms noautofill_platform tests substitute, one server run each (server qa/L0_model_config/test.sh TRIALS). */
export const TRIALS = ['tensorrt_plan', 'onnxruntime_onnx', 'pytorch_libtorch'] as const;

/** The platforms a row is tried with: the trials for rows whose test rewrites the platform, else the row as it is. */
export const trialsOf = (row: CorpusRow): readonly (string | undefined)[] => (row.note.includes('test-rewrites-platform') ? TRIALS : [undefined]);

/** noautofill_platform tests delete every line with "platform:" and append the platform of the trial. */
export function rewritePlatform(text: string, trial: string | undefined): string {
  if (!trial) return text;
  return `${text
    .split('\n')
    .filter((l) => !l.includes('platform:'))
    .join('\n')}\nplatform: "${trial}"\n`;
}

/**
 * The server flags the row's test starts tritonserver with (the note's flags=...): --strict-model-config=true
 * and --disable-auto-complete-config both turn auto-complete off.
 */
export function serverOf(row: CorpusRow): Partial<ServerOptions> {
  const flags = /(?:^|; )flags=([^;]*)/.exec(row.note)?.[1] ?? '';
  return /--strict-model-config=true|--disable-auto-complete-config/.test(flags) ? { autoCompleteConfig: false } : {};
}

/** What the test puts in the version directory, as placeholders that name the format without content. */
export function placeModel(modelDir: string, note: string): void {
  const kind = /needs-model:([a-z.-]+)/.exec(note)?.[1];
  if (!kind) return;
  // A model.onnx *directory* makes Triton's auto-fill pick ONNX Runtime, and there is no file to read.
  if (kind === 'onnx') mkdirSync(join(modelDir, '1', 'model.onnx'), { recursive: true });
  const file = { 'tensorrt-plan': 'model.plan', libtorch: 'model.pt', 'python-model.py': 'model.py', openvino: 'model.xml', dali: 'model.dali' }[kind];
  if (file) write(join(modelDir, '1', file), modelStub(kind));
}

export interface Layout {
  /** What to lint: a model directory or a repository. */
  target: string;
  /** The config whose findings count. */
  file: string;
  tmp?: string;
}

const rowByPath = new Map(corpusRows().map((r) => [r.path, r]));

/** Repository-level tests copy a whole directory of models; the test script gives each a version 1. */
export function repoLevelDir(row: CorpusRow): string | undefined {
  const m = /repo-level test dir ([^\s;]+)/.exec(row.note);
  if (!m) return undefined;
  let dir = dirname(row.path);
  while (dir.length > CORPUS_DIR.length && !dir.endsWith(`/${m[1]}`)) dir = dirname(dir);
  return dir.endsWith(`/${m[1]}`) ? dir : undefined;
}

export function copyRepository(testDir: string, row: CorpusRow, text: string): Layout {
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
export function invalidLayout(row: CorpusRow, trial: string | undefined): Layout {
  const text = rewritePlatform(configText(row), trial);
  const testDir = repoLevelDir(row);
  if (testDir) return copyRepository(testDir, row, text);
  const tmp = temp();
  const modelDir = join(tmp, 'models', basename(dirname(row.path)));
  cpSync(dirname(row.path), modelDir, { recursive: true });
  const file = join(modelDir, 'config.pbtxt');
  writeFileSync(file, text);
  if (row.note.includes('needs-version-dir') || row.note.includes('fragment(')) mkdirSync(join(modelDir, '1'), { recursive: true });
  const created = /test-creates ([^\s;]+)/.exec(row.note)?.[1];
  if (created) write(join(modelDir, created));
  placeModel(modelDir, row.note);
  return { target: modelDir, file, tmp };
}

/** A valid row, linted where it is when it sits in a model directory of its own name, else copied into one. */
export function validLayout(row: CorpusRow): Layout {
  const text = configText(row);
  const testDir = repoLevelDir(row);
  if (testDir) return copyRepository(testDir, row, text);
  const doc = parseConfig(text, row.path);
  const dirName = basename(dirname(row.path));
  const name = doc.value.name || dirName;
  if (
    basename(row.path) === 'config.pbtxt' &&
    name === dirName &&
    text === readCorpusFile(row) &&
    !/needs-(model|version-dir)/.test(row.note) &&
    !namesLabelFiles(text)
  ) {
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

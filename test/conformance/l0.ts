// Triton's qa/L0_model_config suites staged as its test.sh stages them, shared by the replays that
// judge tritonc against Triton's expected* files (l0-model-config.test.ts) and that load the same
// repositories into the real tritonserver with the real backends (l0-real-server.test.ts). Each
// release branch's suites are an edition (EDITIONS), replayed with tritonc told that release.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReleaseName } from '../../src/triton/releases/catalog.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { COVERAGE, rewritePlatform, TRIALS, unescapeGrep } from './deploy.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES = `${CORPUS_DIR}triton-inference-server__server/qa/L0_model_config`;
export const FIXTURES = join(ROOT, 'fixtures', 'models');

// ---- the editions: the suites of each release branch replayed ------------------------------------

/** One release branch's qa/L0_model_config, as it is staged here. */
export interface Edition {
  /** The release the branch is, and the target tritonc is told (`--triton-version`). */
  release: ReleaseName;
  /** Where its files are, against the corpus's (server e1db8a603, 2026-08-19). */
  source: string;
  /** test.sh's TRIALS: the platforms noautofill_platform's configs are rewritten to. */
  trials: readonly string[];
  /** It holds the TensorFlow cases (fixtures/models/tensorflow/qa-cases). */
  tensorflow: boolean;
  /** Its files that differ from the corpus's, laid over them (fixtures/l0-model-config/<branch>). */
  overlay?: string;
}

export const TENSORFLOW_CASES = join(FIXTURES, 'tensorflow', 'qa-cases');
const TENSORFLOW_MODELS: Record<string, string> = JSON.parse(readFileSync(join(TENSORFLOW_CASES, 'models.json'), 'utf8'));

/**
 * The newest release branch and the one the real tritonserver here is (2.51.0). Read with `git diff
 * e1db8a603 <branch> -- qa/L0_model_config` in server's mirror:
 * - r26.08 (6fa22ae0): no difference; the corpus's suites are r26.08's.
 * - r24.10 (e0f0734d): the three suites replayed here are the corpus's plus the TensorFlow cases of
 *   autofill_noplatform and autofill_noplatform_success (byte for byte those of qa-cases, which were
 *   read at 42811e0, the last commit before TensorFlow left the suite), and test.sh's TRIALS begin with
 *   tensorflow_savedmodel and tensorflow_graphdef (r24.10 test.sh line 51). The other differences in
 *   those suites are license comments and the platform line test.sh rewrites (noautofill_platform),
 *   and the effective config of autofill_noplatform_success/pytorch/no_name_platform (r24.10's core
 *   writes default_model_filename "model.pt" and runtime ""): fixtures/l0-model-config/r24.10 has it.
 *   Everything else that differs is in suites not replayed (model_metrics and custom_parameters came
 *   later; special_cases).
 */
export const EDITIONS: readonly Edition[] = [
  { release: '26.08', source: "server r26.08 6fa22ae0 (identical to the corpus's e1db8a603)", trials: TRIALS, tensorflow: false },
  {
    release: '24.10',
    source: "server r24.10 e0f0734d (the corpus's suites, the TensorFlow cases of fixtures/models/tensorflow/qa-cases, TensorFlow trials)",
    trials: ['tensorflow_savedmodel', 'tensorflow_graphdef', ...TRIALS],
    tensorflow: true,
    overlay: join(ROOT, 'fixtures', 'l0-model-config', 'r24.10'),
  },
];

// ---- which rule reports which Triton message ------------------------------------------------------

/**
 * The rule ids that report each expected message: the corpus conformance table (deploy.ts COVERAGE)
 * and the messages of the backends' load-time checks that only a model file tells.
 */
export const RULES_FOR: { triton: RegExp; rules: string[] }[] = [
  ...COVERAGE,
  { triton: /unable to find backend library for backend '.*'/, rules: ['backend-library', 'platform-backend'] },
  // python_backend's ModelConfig helpers (triton_python_backend_utils.py), called by auto_complete_config
  { triton: /in auto-complete-config function for model '.*' (specified max_batch_size|tries to set scheduling_choice)/, rules: ['python-autocomplete'] },
  { triton: /^Configuration specified scheduling_choice as '.*', but auto-complete-config function/, rules: ['python-autocomplete'] },
  {
    triton: /^(input|output)( '.*')? in auto-complete-config function for model '.*' (is missing '.*' property|contains property other than)/,
    rules: ['python-autocomplete'],
  },
  {
    triton: /^model transaction property in auto-complete-config function|^trying to change decoupled property in auto-complete-config/,
    rules: ['python-autocomplete'],
  },
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
  {
    triton: /model tensor configurations are contradicting each other in terms of whether batching is supported/,
    rules: ['missing-dynamic-axis', 'autocomplete-surprises', 'io-shape'],
  },
  { triton: /^failed to specify the dimensions of all input tensors/, rules: ['io-name'] },
];

/**
 * The code Triton's error carries in front of its message when it prints it (common r24.10
 * src/error.cc Error::CodeString): some expected* files quote it, most do not.
 */
const ERROR_CODE = /^(?:Unknown|Internal|Not found|Invalid argument|Unavailable|Unsupported|Already exists): /;

/** An expected* file's grep pattern without the error's code. */
export const withoutCode = (expected: string): string => expected.replace(ERROR_CODE, '');

export const rulesFor = (expected: string[]): string[] => [
  ...new Set(expected.flatMap((e) => RULES_FOR.filter((c) => c.triton.test(unescapeGrep(withoutCode(e)))).flatMap((c) => c.rules))),
];

// ---- what test.sh makes beside the suites' files --------------------------------------------------

export interface CaseModel {
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
export const CASES: Record<string, CaseModel> = JSON.parse(readFileSync(new URL('./l0-model-config-cases.json', import.meta.url), 'utf8'));

/** test.sh lines 124-177, 243-258: version directories made empty (ensembles and their steps, custom backends, instance groups). */
export const EMPTY_VERSION_DIRS = [
  ...['invalid_input_map', 'invalid_output_map', 'unmapped_input', 'self_circular_dependency'].flatMap((c) =>
    [c, 'fp32_dim1_batch4', 'fp32_dim1_batch4_input4', 'fp32_dim1_batch4_output3'].map((m) => `autofill_noplatform/ensemble/${c}/${m}/1`),
  ),
  ...['invalid_batch_size', 'fp32_dim1_batch2', 'fp32_dim1_batch4'].map((m) => `autofill_noplatform/ensemble/invalid_batch_size/${m}/1`),
  'autofill_noplatform/ensemble/invalid_decoupled_branching/invalid_decoupled_branching/1',
  'autofill_noplatform/ensemble/invalid_decoupled_branching/int32_dim1_nobatch_output2/1',
  'autofill_noplatform/ensemble/invalid_decoupled_branching_2/invalid_decoupled_branching_2/1',
  ...['inconsistent_shape', 'fp32_dim1_batch4', 'fp32_dim3_batch4'].map((m) => `autofill_noplatform/ensemble/inconsistent_shape/${m}/1`),
  ...['inconsistent_data_type', 'fp32_dim1_batch2', 'int32_dim1_batch4'].map((m) => `autofill_noplatform/ensemble/inconsistent_data_type/${m}/1`),
  ...['non_existing_model', 'fp32_dim1_batch4', 'fp32_dim1_batch4_output3'].map((m) => `autofill_noplatform/ensemble/non_existing_model/${m}/1`),
  'autofill_noplatform/ensemble/circular_dependency/circular_dependency/1',
  'autofill_noplatform/ensemble/circular_dependency/circular_dependency_2/1',
  ...['no_required_version', 'no_required_version_2', 'no_required_version_3'].flatMap((c) =>
    [c, 'simple'].map((m) => `autofill_noplatform/ensemble/${c}/${m}/1`),
  ),
  ...['embedded_ensemble', 'fp32_dim1_batch4', 'inner_ensemble'].map((m) => `autofill_noplatform_success/ensemble/embedded_ensemble/${m}/1`),
  ...['inconsistent_shape', 'inconsistent_shape_2'].flatMap((c) =>
    [c, 'fp32_dim1_batch4', 'fp32_dim2_nobatch'].map((m) => `autofill_noplatform_success/ensemble/${c}/${m}/1`),
  ),
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
export const REPEAT_LIBRARY = ['invalid_decoupled_branching', 'invalid_decoupled_branching_2'].map(
  (c) => `autofill_noplatform/ensemble/${c}/repeat_int32/1/libtriton_repeat.so`,
);
/** test.sh line 584: successes without config.pbtxt that are one model all the same. */
export const NO_CONFIG_MODELS = new Set(['no_config', 'no_config_variable', 'no_config_shape_tensor', 'no_config_non_linear_format_io']);
/** The two runs of noautofill_platform (test.sh runs each TRIALS platform under both). */
export const NOAUTOFILL_FLAGS = ['--strict-model-config=true', '--disable-auto-complete-config'] as const;
/** test.sh's export CUDA_VISIBLE_DEVICES=0: the server sees one GPU. */
export const GPUS = '1';
/**
 * The backends in the container test.sh runs in, whose /opt/tritonserver/backends is the server's
 * backend directory (test.sh gives no --backend-directory): the image is built with every backend
 * (server r24.10 build.py enable_all, all_backends less ensemble, which core runs itself). Staged as
 * empty libraries: only their presence matters to core's search (core backend_model.cc FindBackendLibraryPath).
 */
export const CONTAINER_BACKENDS = ['identity', 'square', 'repeat', 'tensorflow', 'onnxruntime', 'python', 'dali', 'pytorch', 'openvino', 'fil', 'tensorrt'];
export const BACKEND_DIRECTORY = 'backends';

export const formatOf = (m: CaseModel): string | undefined => m.model?.split('/')[0] ?? (m.python ? 'python' : m.tensorrt ? 'tensorrt' : undefined);

/**
 * The suites' tree as test.sh leaves it before its runs (the corpus's configs and expected files, plus
 * what test.sh copies and makes), built once. Returns what could not be placed: cases whose fixtures
 * are pending.
 */
export function stageSuites(dir: string, edition: Edition): Map<string, string> {
  const pending = new Map<string, string>();
  for (const suite of ['autofill_noplatform', 'autofill_noplatform_success', 'noautofill_platform'])
    cpSync(join(SUITES, suite), join(dir, suite), { recursive: true });
  if (edition.tensorflow)
    for (const [id, model] of Object.entries(TENSORFLOW_MODELS)) {
      // The case's config and expected* files, and the model test.sh has in-tree or copies into 1/.
      cpSync(join(TENSORFLOW_CASES, id), join(dir, id), { recursive: true });
      cpSync(join(FIXTURES, 'tensorflow', model, '1'), join(dir, id, '1'), { recursive: true, dereference: true });
    }
  if (edition.overlay) cpSync(edition.overlay, dir, { recursive: true });
  for (const [id, m] of Object.entries(CASES)) {
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

export interface Run {
  /** suite/backend/case, and for noautofill the trial and flag. */
  id: string;
  suite: 'autofill_noplatform' | 'autofill_noplatform_success' | 'noautofill_platform';
  group: string;
  caseDir: string;
  flags: string[];
  trial?: string;
}

export function runsOf(staged: string, edition: Edition): Run[] {
  const runs: Run[] = [];
  for (const suite of ['autofill_noplatform', 'autofill_noplatform_success'] as const) {
    for (const backend of readdirSync(join(staged, suite)).sort()) {
      for (const name of readdirSync(join(staged, suite, backend)).sort()) {
        runs.push({
          id: `${suite}/${backend}/${name}`,
          suite,
          group: `${suite}/${backend}`,
          caseDir: join(staged, suite, backend, name),
          flags: ['--strict-model-config=false'],
        });
      }
    }
  }
  for (const flag of NOAUTOFILL_FLAGS) {
    for (const trial of edition.trials) {
      for (const name of readdirSync(join(staged, 'noautofill_platform')).sort()) {
        runs.push({
          id: `noautofill_platform/${name} [${trial}, ${flag}]`,
          suite: 'noautofill_platform',
          group: `noautofill_platform ${flag}`,
          caseDir: join(staged, 'noautofill_platform', name),
          flags: [flag],
          trial,
        });
      }
    }
  }
  return runs;
}

/** test.sh's `models` for one run: the case as one model, or its contents as the repository. */
export function buildRepository(run: Run, into: string): { repo: string; expected: string[] } {
  const repo = join(into, 'models');
  mkdirSync(repo, { recursive: true });
  const name = basename(run.caseDir);
  const single =
    existsSync(join(run.caseDir, 'config.pbtxt')) ||
    run.suite === 'noautofill_platform' ||
    (run.suite === 'autofill_noplatform_success' && NO_CONFIG_MODELS.has(name));
  const where = single ? join(repo, name) : repo;
  if (single) cpSync(run.caseDir, where, { recursive: true });
  else for (const e of readdirSync(run.caseDir)) cpSync(join(run.caseDir, e), join(repo, e), { recursive: true });
  const config = join(where, 'config.pbtxt');
  if (run.trial && existsSync(config)) writeFileSync(config, rewritePlatform(readFileSync(config, 'utf8'), run.trial));
  const expected = readdirSync(where)
    .filter((f) => f.startsWith('expected') && statSync(join(where, f)).isFile())
    .sort()
    .map((f) => readFileSync(join(where, f), 'utf8').replace(/\n+$/, ''));
  return { repo, expected };
}

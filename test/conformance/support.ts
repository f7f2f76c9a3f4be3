// The corpus rows of Triton's own qa tests that the core rules cover, and how each test deploys its
// row: the platform it appends, an empty version directory when it makes one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseConfig } from '../../src/config/document.js';
import type { ModelConfig } from '../../src/config/model-config.js';
import { lintSync } from '../../src/lint/engine.js';
import { backendRecord, platformRecord } from '../../src/triton/backend-records.js';
import { releaseBefore } from '../../src/triton/releases/catalog.js';
import { parseTarget, type TritonTarget } from '../../src/triton/releases/target.js';
import type { Rule } from '../../src/lint/rule.js';
import { CORE_RULES as coreRules } from '../../src/lint/rules/index.js';
import { PLATFORM_TRIALS, ruleOf } from '../rules/core-support.js';
import { corpusRows, readCorpusFile, type CorpusRow } from '../support/corpus.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

/** The Triton message a corpus row expects, as plain text (server rows are grep regexes; dali rows escape newlines). */
export function expectedText(row: CorpusRow): string {
  return row.expectedError.replace(/\\\[/g, '[').replace(/\\\]/g, ']').replace(/\\n/g, '\n');
}

export interface RowFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/**
 * Deploys a corpus row as its Triton test does: `<dir>/config.pbtxt` in a fresh repository, where
 * `<dir>` is the row's own directory name (Triton checks the name against it); an empty `1/` when the
 * note says so; and, for `test-rewrites-platform` rows, the `platform:` lines replaced by `platform`.
 * Returns every finding of the rules (default: all core rules).
 */
export function lintCorpusRow(row: CorpusRow, options: { platform?: string; rules?: Rule[] } = {}): RowFinding[] {
  const model = basename(dirname(row.path));
  const repo = tempDir('tritonc-corpus-');
  const dir = join(repo, model);
  mkdirSync(dir, { recursive: true });
  let text = readCorpusFile(row);
  if (options.platform)
    text = `${text
      .split('\n')
      .filter((l) => !l.includes('platform:'))
      .join('\n')}\nplatform: "${options.platform}"\n`;
  writeFileSync(join(dir, 'config.pbtxt'), text);
  if (row.note.includes('needs-version-dir(empty 1/)')) mkdirSync(join(dir, '1'));
  const result = lintSync([dir], { cwd: repo, rules: options.rules ?? coreRules, ...rowRelease(parseConfig(text).value) });
  return result.results.flatMap((r) => r.diagnostics).map((d) => ({ ruleId: d.ruleId, severity: d.severity, message: d.message }));
}

/**
 * The release a corpus row is judged against: the newest tritonc knows, unless the row's backend left
 * Triton's releases (TensorFlow after 25.02), then the last release that builds it. A row is a config
 * some Triton release loads; a row its repository still carries for a gone backend loaded on that one.
 */
export function rowRelease(config: ModelConfig): { server: { target: TritonTarget } } | Record<string, never> {
  const record = config.platform ? platformRecord(config.platform)?.backend : backendRecord(config.backend);
  const until = record?.releases?.until;
  const last = until ? releaseBefore(until) : undefined;
  return last ? { server: { target: parseTarget(last.container) } } : {};
}

/** Whether `rule` reports, as an error, the Triton message the row expects. */
export function reportsExpected(row: CorpusRow, ruleId: string, options: { platform?: string } = {}): boolean {
  const expected = expectedText(row);
  return lintCorpusRow(row, { ...options, rules: [ruleOf(ruleId)] }).some((f) => f.ruleId === ruleId && f.severity === 'error' && f.message.includes(expected));
}

/** The corpus row with this file (relative to the corpus, without the owner prefix). */
export function corpusRow(file: string): CorpusRow {
  const row = corpusRows().find((r) => r.file === `triton-inference-server__${file}`);
  if (!row) throw new Error(`no corpus row ${file}`);
  return row;
}

/**
 * The invalid corpus rows the core rules cover: the rule that reports the row's expected Triton
 * message as an error, and for `test-rewrites-platform` rows the platform trials where it does (the
 * rows run with --disable-auto-complete-config; with auto-complete on, TensorRT completes a missing
 * data_type and may raise max_batch_size, so that trial is a warning). Files are relative to the
 * corpus, without the `triton-inference-server__` prefix.
 */
export interface CoverageRow {
  file: string;
  rule: string;
  platforms?: readonly string[];
}

const NOAUTOFILL = 'server/qa/L0_model_config/noautofill_platform';
const noautofill = (rule: string, names: string[], platforms: readonly string[] = PLATFORM_TRIALS): CoverageRow[] =>
  names.map((n) => ({ file: `${NOAUTOFILL}/${n}/config.pbtxt`, rule, platforms }));

export const CORE_COVERAGE: CoverageRow[] = [
  { file: 'dali_backend/qa/L0_config_validation/model_repository/model5_invalid_default_model_filename/config.pbtxt', rule: 'model-filename' },
  { file: 'dali_backend/qa/L0_config_validation/model_repository/model6_invalid_default_model_filename/config.pbtxt', rule: 'model-filename' },
  { file: 'server/qa/L0_model_config/special_cases/invalid_platform/config.pbtxt', rule: 'platform-backend' },
  { file: 'server/qa/L0_model_config/special_cases/runtime_escape/config.pbtxt', rule: 'platform-backend' },
  { file: 'server/qa/L0_model_config/autofill_noplatform/ensemble/has_backend/config.pbtxt', rule: 'platform-backend' },
  { file: 'server/qa/L0_model_config/autofill_noplatform/custom/no_delimiter/config.pbtxt', rule: 'platform-backend' },
  { file: 'server/qa/L0_response_cache/models/decoupled_cache/config.pbtxt', rule: 'response-cache' },
  ...['empty_buckets', 'empty_metric_family', 'no_buckets', 'no_histogram_options', 'no_metric_family', 'no_metric_identifier'].map((n) => ({
    file: `server/qa/L0_model_config/model_metrics/invalid_config/${n}/partial.pbtxt`,
    rule: 'model-metrics',
  })),
  ...noautofill('max-batch-size', ['negative_max_batch_size']),
  ...noautofill('priority-queue', [
    'default_priority_level0',
    'default_priority_level1',
    'priority_level0',
    'priority_level1',
    'preserve_ordering0',
    'preserve_ordering1',
    'preserve_ordering2',
  ]),
  ...noautofill('sequence-batching', [
    'control_kind_end_multiple',
    'control_kind_ready_multiple',
    'control_kind_start_multiple',
    'control_tensor_multiple',
    'control_tensor_no_value',
  ]),
  ...noautofill('instance-group', ['invalid_cpu', 'negative_gpu']),
  ...noautofill('batch-io', [
    'batch_input_less_source0',
    'batch_input_less_source1',
    'batch_input_less_source2',
    'batch_input_less_source3',
    'batch_input_many_source0',
    'batch_input_many_source1',
    'batch_input_many_source2',
    'batch_input_many_source3',
    'batch_input_unknown_source',
    'batch_output_duplicated_target',
    'batch_output_less_source',
    'batch_output_many_source',
    'batch_output_unknown_source',
    'batch_output_unknown_target',
  ]),
  ...noautofill('io-dims', [
    'reshape_elementcount0',
    'reshape_elementcount1',
    'reshape_elementcount2',
    'reshape_elementcount3',
    'reshape_nobatch_variable0',
    'reshape_nobatch_variable1',
    'reshape_nobatch_variable2',
    'reshape_nobatch_variable3',
    'reshape_nobatch_variable4',
    'reshape_nobatch_variable5',
    'reshape_nobatch_zerodims0',
    'reshape_nobatch_zerodims1',
    'reshape_variable0',
    'reshape_variable1',
    'reshape_variable2',
    'reshape_variable3',
    'reshape_variable4',
    'reshape_variable5',
    'reshape_zerodims0',
    'reshape_zerodims1',
    'zerodims_input0',
    'zerodims_input1',
    'zerodims_output0',
    'zerodims_output1',
  ]),
  ...noautofill('io-dims', ['missing_datatype', 'reshape_nobatch_empty0', 'reshape_nobatch_empty1'], ['onnxruntime_onnx', 'pytorch_libtorch']),
];

/**
 * Valid rows that Triton core would refuse: PyTriton's and Model Navigator's parser fixtures, which
 * their tests parse but never load into Triton (platform "tensorrt" is not a platform; preferred
 * size 32 > max_batch_size 16; preserve_ordering with 3 priority levels and DELAY policies; a
 * response cache on a decoupled model).
 */
export const MISLABELED_VALID = ['model_navigator/tests/assets/configs/full_config.pbtxt', 'pytriton/tests/unit/assets/full_config.pbtxt'];

/**
 * What the stub model file of a `needs-model:<kind>` row holds: the real export where tritonc reads
 * the format (every libtorch row uses Triton's qa AddSubNet, libtorch_float32_float32_float32), else
 * nothing (its contents are not read).
 */
export function modelStub(kind: string): string | Uint8Array {
  if (kind === 'libtorch') return readFileSync(join(ROOT, 'fixtures/models/pytorch/libtorch_float32_float32_float32/1/model.pt'));
  return '';
}

/** The stub model file a `needs-model:<kind>` row's test puts in version 1. */
export const MODEL_STUB: Record<string, string> = {
  onnx: 'model.onnx',
  'tensorrt-plan': 'model.plan',
  'python-model.py': 'model.py',
  openvino: 'model.xml',
  libtorch: 'model.pt',
  'dali-pipeline': 'model.dali',
};

export { namesLabelFiles, placeLabelFiles } from '../support/labels.js';

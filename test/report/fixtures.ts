// A small lint result, built by hand, for the formatters' tests.
import type { Diagnostic } from '../../src/diagnostics.js';
import { describeRule, fileResult, summarize, type LintResult } from '../../src/lint/results.js';
import { RULES } from '../../src/lint/rules/index.js';

export const CWD = '/work/repo';

const at = (line: number, column: number, length: number, offset = 0): Diagnostic['range'] => ({
  start: { line, column, offset },
  end: { line, column: column + length, offset: offset + length },
});

export const DIAGNOSTICS: Diagnostic[] = [
  {
    ruleId: 'batch-dim-in-dims',
    messageId: 'includesBatchAxis',
    severity: 'error',
    file: `${CWD}/models/resnet/config.pbtxt`,
    range: at(4, 54, 1, 120),
    path: ['input', 0, 'dims', 0],
    message: 'dims [1,3,224,224] include the batch axis; with max_batch_size: 8 Triton expects dims [3,224,224]',
    fix: {
      description: 'set dims: [3,224,224]',
      edits: [{ range: { start: { line: 4, column: 48, offset: 114 }, end: { line: 4, column: 70, offset: 136 } }, text: 'dims: [ 3, 224, 224 ]' }],
    },
  },
  {
    ruleId: 'queue-delay',
    severity: 'warning',
    file: `${CWD}/models/resnet/config.pbtxt`,
    range: at(6, 50, 5, 200),
    path: ['dynamic_batching', 'max_queue_delay_microseconds'],
    message: 'max_queue_delay_microseconds: 50000 (50 ms) lets a request wait up to 50 ms, 100% sure',
  },
  {
    ruleId: 'fp16-accuracy',
    severity: 'info',
    file: `${CWD}/models/resnet/config.pbtxt`,
    range: at(9, 40, 6, 300),
    path: ['optimization'],
    message: 'precision_mode FP16 runs the model\nin reduced precision',
  },
];

export function sampleResult(): LintResult {
  return summarize(
    [fileResult(`${CWD}/models/resnet/config.pbtxt`, DIAGNOSTICS), fileResult(`${CWD}/models/bert/config.pbtxt`, [])],
    RULES.map((r) => describeRule(r.meta)),
    [],
    [{ release: '24.10', server: '2.51.0' }],
  );
}

export function emptyResult(): LintResult {
  return summarize(
    [fileResult(`${CWD}/models/bert/config.pbtxt`, [])],
    RULES.map((r) => describeRule(r.meta)),
    [],
    [{ release: '24.10', server: '2.51.0' }],
  );
}

import { describe, expect, it } from 'vitest';
import { formatJson } from '../../src/report/json.js';
import { CWD, sampleResult } from './fixtures.js';

describe('json (ESLint shape)', () => {
  it('is exactly [{ filePath, messages: [{ ruleId, messageId, severity, level, message, line, column, endLine, endColumn, fix }], errorCount, warningCount, triton }]', () => {
    const out = JSON.parse(formatJson(sampleResult()));
    expect(out).toEqual([
      { filePath: `${CWD}/models/bert/config.pbtxt`, messages: [], errorCount: 0, warningCount: 0, triton: [{ release: '24.10', server: '2.51.0' }] },
      {
        filePath: `${CWD}/models/resnet/config.pbtxt`,
        messages: [
          {
            ruleId: 'batch-dim-in-dims',
            messageId: 'includesBatchAxis',
            severity: 2,
            level: 'error',
            message: expect.stringContaining('dims [1,3,224,224]'),
            line: 4,
            column: 54,
            endLine: 4,
            endColumn: 55,
            // ESLint's fix: one edit, as offsets.
            fix: { range: [114, 136], text: 'dims: [ 3, 224, 224 ]' },
          },
          { ruleId: 'queue-delay', severity: 1, level: 'warning', message: expect.any(String), line: 6, column: 50, endLine: 6, endColumn: 55 },
          {
            ruleId: 'fp16-accuracy',
            severity: 1,
            level: 'info',
            message: 'precision_mode FP16 runs the model\nin reduced precision',
            line: 9,
            column: 40,
            endLine: 9,
            endColumn: 46,
          },
        ],
        errorCount: 1,
        warningCount: 1,
        // tritonc's one addition to ESLint's shape: the Triton releases judged against.
        triton: [{ release: '24.10', server: '2.51.0' }],
      },
    ]);
    for (const file of out) {
      expect(Object.keys(file)).toEqual(['filePath', 'messages', 'errorCount', 'warningCount', 'triton']);
      for (const m of file.messages) {
        const keys = [
          'ruleId',
          ...(m.messageId ? ['messageId'] : []),
          'severity',
          'level',
          'message',
          'line',
          'column',
          'endLine',
          'endColumn',
          ...(m.fix ? ['fix'] : []),
        ];
        expect(Object.keys(m)).toEqual(keys);
      }
    }
  });

  it("a suggestion (a fix that might be wrong) is ESLint's suggestions: [{ desc, fix }], never fix", () => {
    const result = sampleResult();
    const d = result.results[1]!.diagnostics[0]!;
    d.suggestions = [d.fix!];
    delete d.fix;
    const m = JSON.parse(formatJson(result))[1].messages[0];
    expect(m.fix).toBeUndefined();
    expect(m.suggestions).toEqual([{ desc: 'set dims: [3,224,224]', fix: { range: [114, 136], text: 'dims: [ 3, 224, 224 ]' } }]);
  });
});

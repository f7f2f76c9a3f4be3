// ESLint's JSON format, exactly the shape tools that read ESLint output expect (docs/architecture.md):
// [{ filePath, messages: [{ ruleId, severity: 1|2, level, message, line, column, endLine, endColumn }],
//    errorCount, warningCount }]. severity 2 = error, 1 = warning or info (`level` says which);
// warningCount counts warnings only, so infos never trip --max-warnings.
import type { LintResult } from '../diagnostics.js';

export interface JsonMessage {
  ruleId: string;
  severity: 1 | 2;
  level: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface JsonFileResult {
  filePath: string;
  messages: JsonMessage[];
  errorCount: number;
  warningCount: number;
}

export function toJsonResults(result: LintResult): JsonFileResult[] {
  return result.results.map((r) => ({
    filePath: r.filePath,
    messages: r.diagnostics.map((d) => ({
      ruleId: d.ruleId,
      severity: d.severity === 'error' ? 2 : 1,
      level: d.severity,
      message: d.message,
      line: d.range.start.line,
      column: d.range.start.column,
      endLine: d.range.end.line,
      endColumn: d.range.end.column,
    })),
    errorCount: r.errorCount,
    warningCount: r.warningCount,
  }));
}

export function formatJson(result: LintResult): string {
  return `${JSON.stringify(toJsonResults(result))}\n`;
}

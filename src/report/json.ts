// ESLint's JSON format, exactly the shape tools that read ESLint output expect (docs/architecture.md):
// [{ filePath, messages: [{ ruleId, messageId, severity: 1|2, level, message, line, column, endLine,
//    endColumn, fix?, suggestions? }], errorCount, warningCount }]. severity 2 = error, 1 = warning or
// info (`level` says which); warningCount counts warnings only, so infos never trip --max-warnings.
// `fix` is ESLint's: one edit as { range: [start, end] (UTF-16 offsets), text }; tritonc's fixes are
// one edit each today, and a fix of several edits is left out rather than merged without the file's
// text. `suggestions` are ESLint's too ({ desc, fix }): fixes that might be wrong, never applied.
import type { LintResult, TargetJson } from '../diagnostics.js';

export interface JsonMessage {
  ruleId: string;
  messageId?: string;
  severity: 1 | 2;
  level: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fix?: { range: [number, number]; text: string };
  suggestions?: { desc: string; fix: { range: [number, number]; text: string } }[];
  /** The Triton releases it holds for, where the run judged several. */
  targets?: string[];
}

export interface JsonFileResult {
  filePath: string;
  messages: JsonMessage[];
  errorCount: number;
  warningCount: number;
  output?: string;
  /** The Triton releases the file was judged against (tritonc's addition to ESLint's shape). */
  triton: TargetJson[];
}

export function toJsonResults(result: LintResult): JsonFileResult[] {
  return result.results.map((r) => ({
    filePath: r.filePath,
    messages: r.diagnostics.map((d) => {
      const m: JsonMessage = {
        ruleId: d.ruleId,
        ...(d.messageId ? { messageId: d.messageId } : {}),
        severity: d.severity === 'error' ? 2 : 1,
        level: d.severity,
        message: d.message,
        line: d.range.start.line,
        column: d.range.start.column,
        endLine: d.range.end.line,
        endColumn: d.range.end.column,
      };
      const edit = d.fix?.edits.length === 1 ? d.fix.edits[0]! : undefined;
      if (edit) m.fix = { range: [edit.range.start.offset, edit.range.end.offset], text: edit.text };
      const suggestions = (d.suggestions ?? [])
        .filter((s) => s.edits.length === 1)
        .map((s) => ({
          desc: s.description,
          fix: { range: [s.edits[0]!.range.start.offset, s.edits[0]!.range.end.offset] as [number, number], text: s.edits[0]!.text },
        }));
      if (suggestions.length) m.suggestions = suggestions;
      if (d.targets) m.targets = d.targets;
      return m;
    }),
    errorCount: r.errorCount,
    warningCount: r.warningCount,
    ...(r.output !== undefined ? { output: r.output } : {}),
    triton: result.triton,
  }));
}

export function formatJson(result: LintResult): string {
  return `${JSON.stringify(toJsonResults(result))}\n`;
}

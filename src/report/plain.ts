// One line per diagnostic, `file:line:column: severity: message [rule]`, the form compilers use and
// editors and terminals link.
import type { Diagnostic } from '../diagnostics.js';

export function formatDiagnosticLine(d: Diagnostic): string {
  return `${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${d.message} [${d.ruleId}]`;
}

// One line per diagnostic, `file:line:column: severity: message [rule]`, the form compilers use and
// editors and terminals link.
import type { Diagnostic } from '../diagnostics.js';
import { escapeControl } from '../util/terminal-text.js';

export function formatDiagnosticLine(d: Diagnostic): string {
  return `${escapeControl(d.file)}:${d.range.start.line}:${d.range.start.column}: ${d.severity}: ${escapeControl(d.message)} [${d.ruleId}]`;
}

// The human format, after ESLint's "stylish": the file, then one aligned line per problem
// (line:column, severity, message, rule id), then a summary line.
import type { LintResult } from '../diagnostics.js';
import { painter, type Style } from './color.js';
import { displayPath, messageWithReleases, type ReportOptions } from './options.js';
import { maxOf } from '../util/arrays.js';
import { escapeControl } from '../util/terminal-text.js';

const SEVERITY_STYLE: Record<string, Style> = { error: 'red', warning: 'yellow', info: 'blue' };

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function formatStylish(result: LintResult, options: ReportOptions = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const paint = painter(options.color ?? false);
  let out = '';
  for (const file of result.results) {
    if (!file.diagnostics.length) continue;
    const rows = file.diagnostics.map((d) => ({
      pos: `${d.range.start.line}:${d.range.start.column}`,
      severity: d.severity,
      // A finding that holds for some of the releases judged says which.
      message: messageWithReleases(d, result),
      ruleId: d.ruleId,
    }));
    const posWidth = maxOf(rows.map((r) => r.pos.length));
    const sevWidth = maxOf(rows.map((r) => r.severity.length));
    out += `\n${paint('underline', displayPath(file.filePath, cwd))}\n`;
    for (const r of rows) {
      const message = escapeControl(r.message.replace(/\s*\n\s*/g, ' '));
      out += `  ${paint('dim', r.pos.padEnd(posWidth))}  ${paint(SEVERITY_STYLE[r.severity]!, r.severity.padEnd(sevWidth))}  ${message}  ${paint('dim', r.ruleId)}\n`;
    }
  }
  const problems = result.errorCount + result.warningCount;
  if (!problems && !result.infoCount) return out;
  // Infos are notes, not problems: counted apart.
  const infos = result.infoCount ? plural(result.infoCount, 'info') : '';
  const summary = problems
    ? `\u2716 ${plural(problems, 'problem')} (${plural(result.errorCount, 'error')}, ${plural(result.warningCount, 'warning')})${infos ? ` and ${infos}` : ''}`
    : `\u2139 ${infos} (no errors or warnings)`;
  // Several releases judged: the summary names them (each finding held by fewer says its own).
  const releases =
    result.triton.length > 1 ? `, judged against Triton ${result.triton.map((t) => (t.flavour ? `${t.release}-${t.flavour}` : t.release)).join(', ')}` : '';
  const style: Style[] = result.errorCount ? ['red', 'bold'] : result.warningCount ? ['yellow', 'bold'] : ['blue', 'bold'];
  return `${out}\n${paint(style, summary + releases)}\n`;
}

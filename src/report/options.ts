// What every report formatter takes besides the results: where relative paths start, and colour.
import type { Diagnostic, LintResult } from '../diagnostics.js';

export interface ReportOptions {
  /** Paths are shown relative to it (default: process.cwd()). */
  cwd?: string;
  /** ANSI colours (stylish only). */
  color?: boolean;
  /** The tool version SARIF names. */
  version?: string;
}

export { displayPath, reportPath } from '../util/display-path.js';

/**
 * A finding's message as the text reports show it: where one run judged several Triton releases and
 * the finding holds for only some of them, they are named after it ("... [Triton 24.10]").
 */
export function messageWithReleases(d: Diagnostic, result: LintResult): string {
  return d.targets && d.targets.length < result.triton.length ? `${d.message} [Triton ${d.targets.join(', ')}]` : d.message;
}

// GitHub Actions workflow commands: one annotation per problem, shown on the pull request's diff.
//   ::error file=m/config.pbtxt,line=3,endLine=3,col=17,endColumn=18,title=tritonc(batch-dim-in-dims)::message
// Escaping is @actions/core's (actions/toolkit packages/core/src/command.ts escapeData and
// escapeProperty): %, CR and LF in the message; also : and , in property values.
// Paths are relative to GITHUB_WORKSPACE (the checkout) when it is set, else to cwd.
import type { LintResult } from '../diagnostics.js';
import { messageWithReleases, reportPath, type ReportOptions } from './options.js';

const LEVEL = { error: 'error', warning: 'warning', info: 'notice' } as const;

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface GithubReportOptions extends ReportOptions {
  /** GITHUB_WORKSPACE, when set. */
  workspace?: string;
}

export function formatGithub(result: LintResult, options: GithubReportOptions = {}): string {
  const base = options.workspace || options.cwd || process.cwd();
  let out = '';
  for (const file of result.results) {
    const path = reportPath(file.filePath, base);
    for (const d of file.diagnostics) {
      const { start, end } = d.range;
      const props = [`file=${escapeProperty(path)}`, `line=${start.line}`, `endLine=${end.line}`];
      // Columns only mean something on a one-line span.
      if (start.line === end.line) props.push(`col=${start.column}`, `endColumn=${Math.max(end.column, start.column)}`);
      props.push(`title=${escapeProperty(`tritonc(${d.ruleId})`)}`);
      out += `::${LEVEL[d.severity]} ${props.join(',')}::${escapeData(messageWithReleases(d, result))}\n`;
    }
  }
  return out;
}

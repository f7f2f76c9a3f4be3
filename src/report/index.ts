// Report formatters: pure functions from lint results to text.
import type { LintResult } from '../diagnostics.js';
import { formatGithub, type GithubReportOptions } from './github.js';
import { formatGitlab, type GitlabReportOptions } from './gitlab.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';

export { formatStylish } from './stylish.js';
export { toJsonResults } from './json.js';
export type { GithubReportOptions } from './github.js';
export type { GitlabReportOptions } from './gitlab.js';

export const REPORT_FORMATS = ['stylish', 'json', 'sarif', 'github', 'gitlab'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function formatReport(format: ReportFormat, result: LintResult, options: GithubReportOptions & GitlabReportOptions = {}): string {
  switch (format) {
    case 'stylish':
      return formatStylish(result, options);
    case 'json':
      return formatJson(result);
    case 'sarif':
      return formatSarif(result, options);
    case 'github':
      return formatGithub(result, options);
    case 'gitlab':
      return formatGitlab(result, options);
  }
}

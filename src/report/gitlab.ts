// GitLab Code Quality (the report `artifacts:reports:codequality` takes): a JSON array of Code Climate
// issues, of which GitLab reads description, check_name, fingerprint, severity and location
// (gitlab-org/gitlab app/validators/json_schemas/codeclimate.json; lib/gitlab/ci/parsers/codequality/
// code_climate.rb links `location.lines.begin` or `location.positions.begin.line`). As Ruff's and
// ESLint's GitLab formatters do:
// - paths are relative to CI_PROJECT_DIR (the checkout) when it is set, else to cwd: GitLab joins
//   them to the commit to link the line;
// - the description starts with the rule, since GitLab's widget does not show check_name;
// - type, categories and content (the rule's description and its page, never the finding's values,
//   which GitLab would render as Markdown) make it a whole Code Climate issue (codeclimate/platform
//   spec/analyzers/SPEC.md), and GitLab's merge request diff reads them (lib/gitlab/ci/reports/
//   codequality_mr_diff.rb `build_mr_diff_payload` renders `content.body`);
// - the fingerprint hashes what stays the same while the problem does (tool, rule, path, and where in
//   the config value it is, else its message), not the line, so a finding survives edits above it,
//   with an occurrence counter for the same problem twice: GitLab keeps one issue per fingerprint
//   (lib/gitlab/ci/reports/codequality_reports.rb `add_degradation`), and compares them between the
//   base and the merge request's head to say what is new and what is fixed.
import type { Diagnostic, LintResult, RuleDescriptor, Severity } from '../diagnostics.js';
import { messageWithReleases, reportPath, type ReportOptions } from './options.js';
import { sha256Hex } from '../util/sha256.js';

/** GitLab's severities, most severe first (codequality_reports.rb SEVERITY_PRIORITIES). */
export const GITLAB_SEVERITIES = ['blocker', 'critical', 'major', 'minor', 'info'] as const;
export type GitlabSeverity = (typeof GITLAB_SEVERITIES)[number];

// As eslint-formatter-gitlab: an error is major, a warning minor.
const SEVERITY: Record<Severity, GitlabSeverity> = { error: 'major', warning: 'minor', info: 'info' };

// Code Climate's categories for tritonc's.
const CATEGORY: Record<RuleDescriptor['category'], string> = { correctness: 'Bug Risk', suspicious: 'Bug Risk', performance: 'Performance', style: 'Style' };

export interface GitlabIssue {
  type: 'issue';
  description: string;
  check_name: string;
  fingerprint: string;
  severity: GitlabSeverity;
  categories: string[];
  content?: { body: string };
  location: { path: string; positions: { begin: { line: number; column: number }; end: { line: number; column: number } } };
}

export interface GitlabReportOptions extends ReportOptions {
  /** CI_PROJECT_DIR, when set. */
  projectDir?: string;
}

function identity(d: Diagnostic, path: string): string {
  const where = d.path.length ? `value:${d.path.join('.')}` : `message:${d.message}`;
  return ['tritonc', d.ruleId, path, where].join('\u0000');
}

export function toGitlab(result: LintResult, options: GitlabReportOptions = {}): GitlabIssue[] {
  const base = options.projectDir || options.cwd || process.cwd();
  const rules = new Map(result.rules.map((r) => [r.id, r]));
  const seen = new Map<string, number>();
  const issues: GitlabIssue[] = [];
  for (const file of result.results) {
    const path = reportPath(file.filePath, base);
    for (const d of file.diagnostics) {
      const key = identity(d, path);
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const { start, end } = d.range;
      const rule = rules.get(d.ruleId);
      issues.push({
        type: 'issue',
        description: `${d.ruleId}: ${messageWithReleases(d, result)}`,
        check_name: d.ruleId,
        fingerprint: sha256Hex(`${key}\u0000${n}`).slice(0, 32),
        severity: SEVERITY[d.severity],
        categories: [CATEGORY[rule?.category ?? 'correctness']],
        ...(rule ? { content: { body: `${rule.description}. [Rule documentation](${rule.docsUrl})` } } : {}),
        location: {
          path,
          positions: { begin: { line: start.line, column: start.column }, end: { line: end.line, column: Math.max(end.column, start.column) } },
        },
      });
    }
  }
  return issues;
}

export function formatGitlab(result: LintResult, options: GitlabReportOptions = {}): string {
  return `${JSON.stringify(toGitlab(result, options), null, 2)}\n`;
}

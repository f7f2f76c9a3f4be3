// Lint results: the diagnostics of each file, sorted as a reader goes through the file, and counts.
import type { Diagnostic, FileResult, InputProblem, LintResult, RuleDescriptor, TargetJson } from '../diagnostics.js';
import type { RuleMeta } from './rule.js';
import { projectUrl, ruleDocsUrl } from './docs-url.js';
import { VERSION } from '../version.js';

export type { FileResult, InputProblem, LintResult };

const DESCRIPTORS = new WeakMap<RuleMeta<unknown>, RuleDescriptor>();

/** What reports say about a rule: made once per rule (every run's result lists every rule), and frozen. */
export function describeRule(meta: RuleMeta<unknown>): RuleDescriptor {
  let d = DESCRIPTORS.get(meta);
  if (!d) {
    d = Object.freeze({
      id: meta.id,
      category: meta.category,
      defaultSeverity: meta.defaultSeverity,
      description: meta.description,
      prevents: meta.prevents,
      requiresModel: meta.requiresModel,
      docsUrl: ruleDocsUrl(meta.id),
    });
    DESCRIPTORS.set(meta, d);
  }
  return d;
}

export const TOOL = (): LintResult['tool'] => ({ name: 'tritonc', version: VERSION, informationUri: projectUrl() });

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.column - b.range.start.column ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

export function fileResult(filePath: string, diagnostics: Diagnostic[]): FileResult {
  const sorted = [...diagnostics].sort(compareDiagnostics);
  return {
    filePath,
    diagnostics: sorted,
    errorCount: sorted.filter((d) => d.severity === 'error').length,
    warningCount: sorted.filter((d) => d.severity === 'warning').length,
    infoCount: sorted.filter((d) => d.severity === 'info').length,
  };
}

export function summarize(results: FileResult[], rules: readonly RuleDescriptor[], problems: InputProblem[], triton: readonly TargetJson[]): LintResult {
  const sorted = [...results].sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  return {
    results: sorted,
    errorCount: sorted.reduce((n, r) => n + r.errorCount, 0),
    warningCount: sorted.reduce((n, r) => n + r.warningCount, 0),
    infoCount: sorted.reduce((n, r) => n + r.infoCount, 0),
    rules: [...rules],
    problems,
    tool: TOOL(),
    triton: [...triton],
  };
}

/** Only the errors (for --quiet), counts recomputed. */
export function errorsOnly(result: LintResult): LintResult {
  const results = result.results.map((r) =>
    fileResult(
      r.filePath,
      r.diagnostics.filter((d) => d.severity === 'error'),
    ),
  );
  return summarize(results, result.rules, result.problems, result.triton);
}

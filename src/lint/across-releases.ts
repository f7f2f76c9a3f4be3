// One lint over several Triton releases (`lint --triton-version 24.10,26.07`): each release judged by
// its own run, the findings merged so that each says the releases it holds for, and a finding every
// release shares is reported once. An upgrade is then one command: what holds only for the newer
// release is what the move brings.
import type { Diagnostic, InputProblem, LintResult } from '../diagnostics.js';
import { fileResult, summarize } from './results.js';
import { targetLabel, type TritonTarget } from '../triton/releases/target.js';

export interface ReleaseRun {
  readonly target: TritonTarget;
  readonly result: LintResult;
}

// A finding is the same in two releases when it says the same thing at the same place: the message
// names the release where the fact depends on it, so release-specific wording stays apart.
const keyOf = (d: Diagnostic): string =>
  JSON.stringify([d.ruleId, d.messageId ?? '', d.severity, d.range.start.offset, d.range.end.offset, d.range.start.line, d.message]);

/** The runs' findings merged, each with the labels of the releases it holds for (in the runs' order). */
export function mergeAcrossReleases(runs: readonly ReleaseRun[]): LintResult {
  const first = runs[0];
  if (!first) throw new Error('mergeAcrossReleases: no run');
  const byFile = new Map<string, Map<string, { diagnostic: Diagnostic; targets: string[] }>>();
  const problems = new Map<string, InputProblem>();
  for (const { target, result } of runs) {
    const label = targetLabel(target);
    for (const file of result.results) {
      let found = byFile.get(file.filePath);
      if (!found) byFile.set(file.filePath, (found = new Map<string, { diagnostic: Diagnostic; targets: string[] }>()));
      for (const d of file.diagnostics) {
        const key = keyOf(d);
        const seen = found.get(key);
        // Two servers of one release (lint --deployment) judge it the same: the label once.
        if (seen) {
          if (!seen.targets.includes(label)) seen.targets.push(label);
        } else found.set(key, { diagnostic: d, targets: [label] });
      }
    }
    for (const p of result.problems) problems.set(JSON.stringify([p.file, p.message, p.level ?? '']), p);
  }
  const results = [...byFile].map(([file, found]) =>
    fileResult(
      file,
      [...found.values()].map(({ diagnostic, targets }) => ({ ...diagnostic, targets })),
    ),
  );
  const triton = new Map(runs.flatMap((r) => r.result.triton).map((t) => [JSON.stringify(t), t]));
  return summarize(results, first.result.rules, [...problems.values()], [...triton.values()]);
}

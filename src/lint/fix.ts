// `lint --fix` as ESLint does it: in passes (at most MAX_PASSES), each applying the fixes of the
// findings that do not overlap one already taken, then linting the fixed text again, so a fix another
// made stale is recomputed. Every fix is meaning-checked on its own first: the config it leaves must
// parse, and its value may change only at the finding's path (a fix whose finding names no path may
// change comments and layout, never the value). A fix that fails either check is refused, never
// applied. Nothing here writes a file: the caller writes `after` (atomically) or, for a dry run, not.
import { onSameBranch, valueDifferences } from '../config/value-diff.js';
import type { Diagnostic } from '../diagnostics.js';
import { parseConfig } from '../config/document.js';
import { applyEdits } from '../config/text-edits.js';
import { lintSync, type LintOptions } from './engine.js';
import type { LintResult } from './results.js';
import { Workspace } from '../workspace/workspace.js';
import { append } from '../util/arrays.js';

export const MAX_PASSES = 10;

export interface FileFix {
  file: string;
  before: string;
  after: string;
  /** The findings whose fixes were applied, in the pass they were applied. */
  applied: Diagnostic[];
}

export interface RefusedFix {
  diagnostic: Diagnostic;
  reason: string;
}

export interface FixRun {
  /** Files whose text the fixes changed. */
  files: FileFix[];
  refused: RefusedFix[];
  /** The lint of the fixed texts: what remains. */
  result: LintResult;
  /** The lint of the texts as they were: what remains when nothing is written (--fix-dry-run). */
  initial: LintResult;
}

/** Why a fix may not be applied to `text`, or undefined when it may. */
export function fixProblem(text: string, d: Diagnostic): string | undefined {
  if (!d.fix) return 'no fix';
  let fixed: string;
  try {
    fixed = applyEdits(text, d.fix.edits);
  } catch {
    return 'its edits overlap';
  }
  const before = parseConfig(text, d.file);
  const after = parseConfig(fixed, d.file);
  const syntax = after.diagnostics.find((x) => x.severity === 'error');
  if (syntax && !before.diagnostics.some((x) => x.severity === 'error'))
    return `the result does not parse (${syntax.range.start.line}:${syntax.range.start.column}: ${syntax.message})`;
  const changed = valueDifferences(before.value, after.value);
  const beyond = changed.filter((p) => !d.path.length || !onSameBranch(p, d.path));
  if (beyond.length)
    return `it would also change ${beyond.map((p) => p.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('') || 'the whole config').join(', ')}, beyond the finding`;
  return undefined;
}

/** The fixes of `diagnostics` (in one file) that may be applied together: checked, not overlapping. */
function choose(text: string, diagnostics: readonly Diagnostic[], refused: RefusedFix[]): Diagnostic[] {
  const taken: Diagnostic[] = [];
  const spans: [number, number][] = [];
  const fixable = diagnostics.filter((d) => d.fix).sort((a, b) => a.fix!.edits[0]!.range.start.offset - b.fix!.edits[0]!.range.start.offset);
  for (const d of fixable) {
    const reason = fixProblem(text, d);
    if (reason) {
      refused.push({ diagnostic: d, reason });
      continue;
    }
    const mine = d.fix!.edits.map((e): [number, number] => [e.range.start.offset, e.range.end.offset]);
    // Touching the same text as a fix already taken: left for the next pass, which recomputes it.
    if (mine.some(([s, e]) => spans.some(([ts, te]) => (s < te && ts < e) || s === ts))) continue;
    append(spans, mine);
    taken.push(d);
  }
  return taken;
}

/**
 * Lints `paths`, applies the fixes, and lints the fixed texts again, up to MAX_PASSES times; the texts
 * are laid over the disk (a workspace overlay), so nothing is written.
 */
export function fixSync(paths: readonly string[], options: LintOptions = {}): FixRun {
  const workspace = new Workspace(options.files ? { files: options.files } : {});
  const before = new Map<string, string>();
  const applied = new Map<string, Diagnostic[]>();
  const refused = new Map<string, RefusedFix>();
  let result = lintSync(paths, { ...options, workspace });
  const initial = result;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let changed = false;
    for (const r of result.results) {
      // Only configs carry fixes (a model file is never read as text).
      if (!r.diagnostics.some((d) => d.fix)) continue;
      const read = workspace.sources.text(r.filePath);
      if (read.kind !== 'text') continue;
      const refusedNow: RefusedFix[] = [];
      const taken = choose(read.text, r.diagnostics, refusedNow);
      for (const x of refusedNow) refused.set(`${x.diagnostic.file}\0${x.diagnostic.ruleId}\0${x.diagnostic.message}`, x);
      if (!taken.length) continue;
      const fixed = applyEdits(
        read.text,
        taken.flatMap((d) => d.fix!.edits),
      );
      // Checked one by one; together they must still parse.
      if (
        parseConfig(fixed, r.filePath).diagnostics.some((x) => x.severity === 'error') &&
        !parseConfig(read.text, r.filePath).diagnostics.some((x) => x.severity === 'error')
      ) {
        for (const d of taken)
          refused.set(`${d.file}\0${d.ruleId}\0${d.message}`, { diagnostic: d, reason: 'together with the other fixes, the result does not parse' });
        continue;
      }
      if (!before.has(r.filePath)) before.set(r.filePath, read.text);
      applied.set(r.filePath, [...(applied.get(r.filePath) ?? []), ...taken]);
      workspace.setText(r.filePath, fixed);
      changed = true;
    }
    if (!changed) break;
    result = lintSync(paths, { ...options, workspace });
  }
  const files: FileFix[] = [];
  for (const [file, text] of before) {
    const read = workspace.sources.text(file);
    const after = read.kind === 'text' ? read.text : text;
    if (after !== text) files.push({ file, before: text, after, applied: applied.get(file) ?? [] });
  }
  // A refusal whose finding a later pass fixed after all is not one.
  const remaining = new Set(result.results.flatMap((r) => r.diagnostics.map((d) => `${d.file}\0${d.ruleId}\0${d.message}`)));
  return { files, refused: [...refused.entries()].filter(([k]) => remaining.has(k)).map(([, v]) => v), result, initial };
}

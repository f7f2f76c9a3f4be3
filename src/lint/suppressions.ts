// Inline suppressions in config comments:
//   # tritonc-disable-next-line <rule-id>[, <rule-id>...] [-- reason]   the next line
//   # tritonc-disable-line <rule-id>... [-- reason]                      this line (a trailing comment)
//   # tritonc-disable <rule-id>... [-- reason]                           the whole file
// Without ids a directive covers every rule. Ids are checked against the registry: an unknown one is
// reported (invalid-suppression), since a typo would otherwise silence nothing without a word.
import type { Position, Range } from '../diagnostics.js';
import { tokenize, type Comment } from '../pbtxt/lexer.js';

export type DirectiveKind = 'file' | 'next-line' | 'line';

export interface DirectiveRule {
  id: string;
  range: Range;
  used: boolean;
}

export interface Directive {
  kind: DirectiveKind;
  /** The line it covers (for next-line and line directives). */
  line: number;
  /** The rules it names; empty means every rule. */
  rules: DirectiveRule[];
  /** Set when a directive without ids suppressed something. */
  usedAll: boolean;
  range: Range;
  reason: string | undefined;
}

const DIRECTIVE = /^#\s*tritonc-(disable-next-line|disable-line|disable)(?=\s|$)/;

/** The directives written in a config's comments. Cheap when there are none. */
export function parseDirectives(text: string): Directive[] {
  if (!text.includes('tritonc-disable')) return [];
  return tokenize(text).comments.flatMap((c) => directiveOf(c) ?? []);
}

function directiveOf(c: Comment): Directive | undefined {
  const m = DIRECTIVE.exec(c.text);
  if (!m) return undefined;
  const kind: DirectiveKind = m[1] === 'disable-next-line' ? 'next-line' : m[1] === 'disable-line' ? 'line' : 'file';
  let body = c.text.slice(m[0].length);
  let reason: string | undefined;
  const dash = body.search(/(^|\s)--(\s|$)/);
  if (dash >= 0) {
    reason =
      body
        .slice(dash)
        .replace(/^\s*--\s*/, '')
        .trim() || undefined;
    body = body.slice(0, dash);
  }
  const rules: DirectiveRule[] = [];
  const idPattern = /[^\s,]+/g;
  for (let id = idPattern.exec(body); id; id = idPattern.exec(body)) {
    const startCol = c.range.start.column + m[0].length + id.index;
    rules.push({ id: id[0], range: lineRange(c.range.start, startCol, id[0].length), used: false });
  }
  const line = kind === 'next-line' ? c.range.start.line + 1 : c.range.start.line;
  return { kind, line, rules, usedAll: false, range: c.range, reason };
}

/** A range on the comment's line (comments never span lines). */
function lineRange(lineStart: Position, column: number, length: number): Range {
  const offset = lineStart.offset + (column - lineStart.column);
  return {
    start: { line: lineStart.line, column, offset },
    end: { line: lineStart.line, column: column + length, offset: offset + length },
  };
}

/** Whether a directive suppresses a diagnostic at `line` (file-wide ones: any line). */
export function suppresses(directives: readonly Directive[], ruleId: string, line: number | undefined): boolean {
  let hit = false;
  for (const d of directives) {
    if (d.kind !== 'file' && d.line !== line) continue;
    if (d.rules.length === 0) {
      d.usedAll = true;
      hit = true;
      continue;
    }
    for (const r of d.rules) {
      if (r.id === ruleId) {
        r.used = true;
        hit = true;
      }
    }
  }
  return hit;
}

/** Ids in directives that name no rule. */
export function unknownIds(directives: readonly Directive[], knownIds: ReadonlySet<string>): DirectiveRule[] {
  return directives.flatMap((d) => d.rules.filter((r) => !knownIds.has(r.id)));
}

/** Directives (or ids in them) that suppressed nothing. */
export function unusedDirectives(directives: readonly Directive[], knownIds: ReadonlySet<string>): { range: Range; id: string | undefined }[] {
  const out: { range: Range; id: string | undefined }[] = [];
  for (const d of directives) {
    if (d.rules.length === 0) {
      if (!d.usedAll) out.push({ range: d.range, id: undefined });
      continue;
    }
    for (const r of d.rules) if (!r.used && knownIds.has(r.id)) out.push({ range: r.range, id: r.id });
  }
  return out;
}

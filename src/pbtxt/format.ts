// The formatting core: print a parsed tree (layout only by default: the author's spellings kept, only
// indentation, spacing and line breaks changed; or, with `canonical`, rewritten to the one canonical
// spelling), then prove, before anyone writes it, that the output means what the input meant (layout
// only: the same tokens; canonical: the same value) and kept every comment. The caller parses (with
// its schema).
import type { Diagnostic } from '../diagnostics.js';
import type { Comment, DocumentNode, FieldNode } from './ast.js';
import { canonicalTree } from './canonical.js';
import { valuesEqual } from './equal.js';
import { Lexer } from './lexer.js';
import { printEach, printTree } from './printer.js';

export interface ParsedText {
  tree: DocumentNode;
  value: unknown;
  diagnostics: Diagnostic[];
}

/**
 * How the caller parses: with the tree (the input, for the canonical form, which reorders across the
 * file), one top-level field at a time with no value (the input, for the layout-only form, which
 * prints each as it comes and proves its output by the tokens), and the value alone (the canonical
 * output's check).
 */
export interface Parsers {
  tree: (text: string) => ParsedText;
  each: (text: string, onField: (f: FieldNode) => void) => { diagnostics: Diagnostic[]; dangling: Comment[] };
  value: (text: string) => Omit<ParsedText, 'tree'>;
}

export type FormatResult =
  | { status: 'formatted'; output: string; changed: boolean }
  | { status: 'skipped'; reason: string }
  | { status: 'syntax-error'; diagnostics: Diagnostic[] }
  | { status: 'unsafe'; reason: string };

export interface FormatOptions {
  /**
   * Rewrite to the canonical spelling (one list per repeated field, one block per map entry, no colon
   * before `{`, typed scalars); default: change layout only.
   */
  canonical?: boolean;
}

/** Formats `text`, which `parse` reads; refuses rather than print something that means less. */
export function formatParsed(text: string, parse: Parsers, options: FormatOptions = {}): FormatResult {
  let diagnostics: Diagnostic[];
  let output: string;
  let unsafe: () => string | undefined;
  if (options.canonical) {
    const full = parse.tree(text);
    diagnostics = full.diagnostics;
    output = printTree(canonicalTree(full.tree));
    unsafe = () => changedValue(text, full.value, output, parse);
  } else {
    // Each field printed as it is parsed: a 50 MB config never holds its whole tree.
    let each: ReturnType<Parsers['each']> | undefined;
    output = printEach((emit) => (each = parse.each(text, emit)).dangling, { preserve: true });
    diagnostics = each!.diagnostics;
    unsafe = () => changedTokens(text, output);
  }
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) return { status: 'syntax-error', diagnostics: errors };
  const reason = unsafe();
  if (reason) return { status: 'unsafe', reason: `${reason}; nothing was changed (please report this as a tritonc bug)` };
  return { status: 'formatted', output, changed: output !== text };
}

/** The canonical form respells and reorders: its output must parse to the same value, every comment kept. */
function changedValue(text: string, value: unknown, output: string, parse: Parsers): string | undefined {
  const check = parse.value(output);
  if (check.diagnostics.some((d) => d.severity === 'error') || !valuesEqual(value, check.value)) return 'the formatted text does not parse to the same config';
  const lost = missingComment(commentsOf(text), commentsOf(output));
  return lost === undefined ? undefined : `the formatted text lost the comment "${lost}"`;
}

/**
 * The layout-only form changes nothing but white space and where comments sit: its output must be
 * the same tokens, one for one, as the input (which proves the same value, whatever the parser
 * makes of them), with the same comments. One scan of each text; no value is built.
 */
function changedTokens(before: string, after: string): string | undefined {
  const a = new Lexer(before);
  const b = new Lexer(after);
  for (;;) {
    const x = a.scan();
    const y = b.scan();
    if (x !== y || !sameText(before, a.tokenStart, a.tokenEnd, after, b.tokenStart, b.tokenEnd)) {
      const was = x === 'eof' ? 'the end of the file' : `"${before.slice(a.tokenStart, a.tokenEnd)}" at ${a.tokenLine}:${a.tokenColumn}`;
      return `the formatted text changed ${was} into ${y === 'eof' ? 'the end of the file' : `"${after.slice(b.tokenStart, b.tokenEnd)}"`}`;
    }
    if (x === 'eof') break;
  }
  const lost = missingComment(a.comments, b.comments);
  return lost === undefined ? undefined : `the formatted text lost the comment "${lost}"`;
}

/** Whether a[aStart, aEnd) and b[bStart, bEnd) hold the same characters, compared in place. */
function sameText(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (a.charCodeAt(aStart + i) !== b.charCodeAt(bStart + i)) return false;
  return true;
}

/** The comments of `text`, scanned without keeping its tokens (a large config has millions). */
function commentsOf(text: string): Comment[] {
  const lexer = new Lexer(text);
  while (lexer.scan() !== 'eof');
  return lexer.comments;
}

/** The first comment of `before` that `after` no longer has (compared as a multiset of texts). */
function missingComment(before: readonly Comment[], after: readonly Comment[]): string | undefined {
  const count = new Map<string, number>();
  for (const c of after) {
    const t = c.text.trimEnd();
    count.set(t, (count.get(t) ?? 0) + 1);
  }
  for (const c of before) {
    const t = c.text.trimEnd();
    const n = count.get(t) ?? 0;
    if (n === 0) return t;
    count.set(t, n - 1);
  }
  return undefined;
}

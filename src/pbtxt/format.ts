// The formatting core: print a parsed tree (layout only by default: the author's spellings kept, only
// indentation, spacing and line breaks changed; or, with `canonical`, rewritten to the one canonical
// spelling), then prove the output means the same value and kept every comment before anyone writes
// it. The caller parses (with its schema).
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
 * file), one top-level field at a time (the input, for the layout-only form, which prints each as it
 * comes), and the value alone (the output's check).
 */
export interface Parsers {
  tree: (text: string) => ParsedText;
  each: (text: string, onField: (f: FieldNode) => void) => Omit<ParsedText, 'tree'> & { dangling: Comment[] };
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
  let doc: Omit<ParsedText, 'tree'>;
  let output: string;
  if (options.canonical) {
    const full = parse.tree(text);
    doc = full;
    output = printTree(canonicalTree(full.tree));
  } else {
    // Each field printed as it is parsed: a 50 MB config never holds its whole tree.
    let each: ReturnType<Parsers['each']> | undefined;
    output = printEach((emit) => (each = parse.each(text, emit)).dangling, { preserve: true });
    doc = each!;
  }
  const errors = doc.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) return { status: 'syntax-error', diagnostics: errors };
  const check = parse.value(output);
  if (check.diagnostics.some((d) => d.severity === 'error') || !valuesEqual(doc.value, check.value)) {
    return { status: 'unsafe', reason: 'the formatted text does not parse to the same config; nothing was changed (please report this as a tritonc bug)' };
  }
  const lost = missingComments(text, output);
  if (lost) return { status: 'unsafe', reason: `the formatted text lost the comment "${lost}"; nothing was changed (please report this as a tritonc bug)` };
  return { status: 'formatted', output, changed: output !== text };
}

/** The first comment of `before` that `after` no longer has (compared as a multiset of texts). */
function missingComments(before: string, after: string): string | undefined {
  const count = new Map<string, number>();
  for (const c of commentsOf(after)) count.set(c, (count.get(c) ?? 0) + 1);
  for (const c of commentsOf(before)) {
    const n = count.get(c) ?? 0;
    if (n === 0) return c;
    count.set(c, n - 1);
  }
  return undefined;
}

/** The comments of `text`, scanned without keeping its tokens (a large config has millions). */
function commentsOf(text: string): string[] {
  const lexer = new Lexer(text);
  while (lexer.next().type !== 'eof');
  return lexer.comments.map((c) => c.text.trimEnd());
}

// Text edits on a config's text: applying them, and removing a range with its line when it stands alone.
import type { Position, Range, TextEdit } from '../diagnostics.js';

/** The range widened to its whole lines when nothing else is on them (so removing it leaves no blank line). */
function wholeLines(text: string, range: Range): Range {
  const lineStart = text.lastIndexOf('\n', range.start.offset - 1) + 1;
  const nl = text.indexOf('\n', range.end.offset);
  const lineEnd = nl < 0 ? text.length : nl + 1;
  if (text.slice(lineStart, range.start.offset).trim() !== '' || text.slice(range.end.offset, lineEnd).trim() !== '') return range;
  const start: Position = { line: range.start.line, column: 1, offset: lineStart };
  const end: Position = nl < 0 ? range.end : { line: range.end.line + 1, column: 1, offset: lineEnd };
  return { start, end };
}

/** An edit removing `range` (a comment, a field): its whole lines when nothing else is on them, else with the blanks before it. */
export function removalOf(text: string, range: Range): TextEdit {
  const widened = wholeLines(text, range);
  if (widened !== range) return { range: widened, text: '' };
  let start = range.start.offset;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  const shift = range.start.offset - start;
  return { range: { start: { ...range.start, offset: start, column: range.start.column - shift }, end: range.end }, text: '' };
}

/**
 * Applies non-overlapping edits to `text` (what `lint --fix` and editors do with a fix). Throws on
 * overlapping edits: two fixes that touch the same text cannot both be applied.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.range.start.offset - b.range.start.offset);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.range.start.offset < at) throw new Error('overlapping edits');
    out += text.slice(at, e.range.start.offset) + e.text;
    at = e.range.end.offset;
  }
  return out + text.slice(at);
}

// An open document's text as the editor edits it, kept as pieces until it is read. The library's
// document (vscode-languageserver-textdocument) splices every incremental edit into one string: each
// edit of a 5 MB config copies 5 MB (the previous edit's concatenation is flattened by the next
// substring), so a storm of edits makes a copy per keystroke for the collector, and the server's peak
// memory grows with the storm's length. Here an edit splices a short list of slices; the whole text is
// joined once, when something reads it (a lint, a hover), and kept until the next edit. Positions,
// offsets and line counts are the library's, computed the same way (its FullTextDocument, v1.0.12).
import type { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from 'vscode-languageserver';
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';

const CR = 13;
const LF = 10;
const isEol = (c: number): boolean => c === CR || c === LF;

/** Above this many pieces an edit joins the text first: a document edited for long without a read stays one slice per few edits. */
const MAX_PIECES = 512;

/** Where each line after the first starts in `text`, offset by `base` (the library's computeLineOffsets). */
function lineStarts(text: string, atLineStart: boolean, base = 0): number[] {
  const out = atLineStart ? [base] : [];
  // Without a CR every break is a LF: found by indexOf, many times faster than a look at each character
  // (a whole-buffer keystroke of a 200 KB config makes this table afresh).
  if (text.indexOf('\r') === -1) {
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) out.push(base + nl + 1);
    return out;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isEol(c)) continue;
    if (c === CR && i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++;
    out.push(base + i + 1);
  }
  return out;
}

/** A range with its start first (the library's getWellformedRange). */
function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}

class PieceTextDocument implements TextDocument {
  private pieces: string[];
  private size: number;
  /** The whole text, while no edit came after the last read. */
  private joined: string | undefined;
  private lineOffsets: number[] | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    public version: number,
    content: string,
  ) {
    this.pieces = [content];
    this.size = content.length;
    this.joined = content;
  }

  getText(range?: Range): string {
    if (range) return this.substring(this.offsetAt(range.start), this.offsetAt(range.end));
    if (this.joined === undefined) {
      this.joined = this.pieces.join('');
      this.pieces = [this.joined];
    }
    return this.joined;
  }

  /** The text's length, without joining it. */
  get length(): number {
    return this.size;
  }

  get lineCount(): number {
    return this.lines().length;
  }

  positionAt(offset: number): Position {
    offset = Math.max(Math.min(offset, this.size), 0);
    const lines = this.lines();
    let low = 0;
    let high = lines.length;
    if (high === 0) return { line: 0, character: offset };
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (lines[mid]! > offset) high = mid;
      else low = mid + 1;
    }
    const line = low - 1;
    offset = this.beforeEol(offset, lines[line]!);
    return { line, character: offset - lines[line]! };
  }

  offsetAt(position: Position): number {
    const lines = this.lines();
    if (position.line >= lines.length) return this.size;
    if (position.line < 0) return 0;
    const lineOffset = lines[position.line]!;
    if (position.character <= 0) return lineOffset;
    const next = position.line + 1 < lines.length ? lines[position.line + 1]! : this.size;
    return this.beforeEol(Math.min(lineOffset + position.character, next), lineOffset);
  }

  /** Applies the editor's changes in order (the library's FullTextDocument.update). */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      if ('range' in change && change.range !== undefined) {
        const range = wellFormed(change.range);
        const start = this.offsetAt(range.start);
        const end = this.offsetAt(range.end);
        this.splice(start, end, change.text);
        const startLine = Math.max(range.start.line, 0);
        const endLine = Math.max(range.end.line, 0);
        let lines = this.lines();
        const added = lineStarts(change.text, false, start);
        if (endLine - startLine === added.length) {
          for (let i = 0; i < added.length; i++) lines[i + startLine + 1] = added[i]!;
        } else if (added.length <= 8) {
          // A few lines (typing): spliced in place, one by one (no array spread into a call).
          lines.splice(startLine + 1, endLine - startLine);
          for (let i = 0; i < added.length; i++) lines.splice(startLine + 1 + i, 0, added[i]!);
        } else {
          this.lineOffsets = lines = lines.slice(0, startLine + 1).concat(added, lines.slice(endLine + 1));
        }
        const diff = change.text.length - (end - start);
        if (diff !== 0) for (let i = startLine + 1 + added.length; i < lines.length; i++) lines[i] = lines[i]! + diff;
      } else {
        this.pieces = [change.text];
        this.size = change.text.length;
        this.joined = change.text;
        this.lineOffsets = undefined;
      }
    }
    this.version = version;
  }

  private lines(): number[] {
    return (this.lineOffsets ??= lineStarts(this.getText(), true));
  }

  /** Moves `offset` back over the line break that ends the line starting at `lineOffset`. */
  private beforeEol(offset: number, lineOffset: number): number {
    while (offset > lineOffset && isEol(this.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  /** String.prototype.charCodeAt over the pieces: NaN reads index 0, outside the text is NaN. */
  private charCodeAt(offset: number): number {
    if (this.joined !== undefined) return this.joined.charCodeAt(offset);
    offset = Math.trunc(offset);
    if (Number.isNaN(offset)) offset = 0;
    if (offset < 0) return Number.NaN;
    for (const p of this.pieces) {
      if (offset < p.length) return p.charCodeAt(offset);
      offset -= p.length;
    }
    return Number.NaN;
  }

  /** String.prototype.substring over the pieces (which the library calls): clamped, NaN as 0, a reversed pair swapped. */
  private substring(start: number, end: number): string {
    if (this.joined !== undefined) return this.joined.substring(start, end);
    const [s, e] = [this.clamp(start, 0), this.clamp(end, this.size)];
    return this.take(Math.min(s, e), Math.max(s, e)).join('');
  }

  /**
   * An index as substring reads it: undefined (an offset of a line a client named past the end, which
   * the line table holds as a hole) is its default, NaN is 0, then within the text.
   */
  private clamp(x: number | undefined, missing: number): number {
    if (x === undefined) return missing;
    return Number.isNaN(x) ? 0 : Math.min(Math.max(Math.trunc(x), 0), this.size);
  }

  /** Slices of the pieces that together hold the text from `start` to `end` (0 <= start <= end <= size). */
  private take(start: number, end: number): string[] {
    const out: string[] = [];
    let at = 0;
    for (const p of this.pieces) {
      if (at >= end) break;
      const next = at + p.length;
      if (next > start) out.push(start <= at && next <= end ? p : p.substring(Math.max(start - at, 0), Math.min(end - at, p.length)));
      at = next;
    }
    return out;
  }

  /**
   * The library's `content.substring(0, start) + text + content.substring(end)`, as slices of the
   * pieces: offsets clamped as substring clamps them (NaN is 0), and a reversed pair repeats the text
   * between them, as it does there (offsets of lines a client named past the end).
   */
  private splice(start: number, end: number, text: string): void {
    if (this.pieces.length > MAX_PIECES) this.getText();
    const size = this.size;
    // substring(0, start): a missing start reads to the end; substring(end): a missing end reads from 0.
    const [s, e] = [this.clamp(start, size), this.clamp(end, 0)];
    this.pieces = [...this.take(0, s), text, ...this.take(e, size)].filter((p) => p.length > 0);
    this.size = s + text.length + (size - e);
    this.joined = undefined;
  }
}

/** A document's length in UTF-16 units: a piece document's without reading its text. */
export function documentLength(document: TextDocument): number {
  return document instanceof PieceTextDocument ? document.length : document.getText().length;
}

/** The documents' configuration for TextDocuments: pieces in place of the library's one string. */
export const PieceDocuments: TextDocumentsConfiguration<TextDocument> = {
  create: (uri, languageId, version, content) => new PieceTextDocument(uri, languageId, version, content),
  update: (document, changes, version) => {
    if (!(document instanceof PieceTextDocument)) throw new Error('PieceDocuments.update: not a document PieceDocuments made');
    document.update(changes, version);
    return document;
  },
};

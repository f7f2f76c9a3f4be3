// Tokenizer for protobuf text format, following the rules of protobuf's C++ tokenizer (the one Triton
// runs): `#` comments, identifiers, decimal/hex/octal integers, floats with an optional `f` suffix,
// single- or double-quoted strings, and every other character as a one-character symbol.
import type { Position, Range } from '../diagnostics.js';
import type { ParseMessage } from './messages.js';

/** `invalid`: a malformed number; the lexer has reported it already. */
export type TokenType = 'ident' | 'int' | 'float' | 'string' | 'symbol' | 'invalid' | 'eof';

/**
 * A token, kept flat (one allocation each) because a large config has hundreds of thousands; its
 * Range objects are made on demand by tokenRange().
 */
export interface Token {
  type: TokenType;
  /** The token's source text (for strings: with the quotes). */
  text: string;
  /** 0-based offsets of the first character and just past the last. */
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Line breaks between the end of the previous token or comment and this token. */
  newlinesBefore: number;
  /** Position objects, made once on first request and shared by every node that starts or ends here. */
  startPos: Position | undefined;
  endPos: Position | undefined;
}

export function tokenStart(t: Token): Position {
  return (t.startPos ??= { line: t.line, column: t.column, offset: t.start });
}

export function tokenEnd(t: Token): Position {
  return (t.endPos ??= { line: t.endLine, column: t.endColumn, offset: t.end });
}

export function tokenRange(t: Token): Range {
  return { start: tokenStart(t), end: tokenEnd(t) };
}

export interface Comment {
  /** The comment text including the leading `#`, without the line break. */
  text: string;
  range: Range;
  /** Line breaks between the end of the previous token or comment and this comment. */
  newlinesBefore: number;
}

/** The tokenizer's messages (messages.ts): what is wrong with a token. */
export type LexMessageId = 'nulByte' | 'unterminatedStringLine' | 'unterminatedStringEof' | NumberMessageId;
/** What is wrong with a number (Tokenizer::ConsumeNumber). */
export type NumberMessageId = 'hexWithoutDigits' | 'octalDigit' | 'exponentWithoutDigits' | 'letterAfterNumber' | 'secondDecimalPoint';

export type LexError = ParseMessage<LexMessageId> & { range: Range };

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
  errors: LexError[];
}

const enum Ch {
  Tab = 9,
  LF = 10,
  VT = 11,
  FF = 12,
  CR = 13,
  Space = 32,
  DQuote = 34,
  Hash = 35,
  SQuote = 39,
  Dot = 46,
  Zero = 48,
  Seven = 55,
  Nine = 57,
  UpperA = 65,
  UpperE = 69,
  UpperF = 70,
  UpperX = 88,
  UpperZ = 90,
  Backslash = 92,
  Underscore = 95,
  LowerA = 97,
  LowerE = 101,
  LowerF = 102,
  LowerX = 120,
  LowerZ = 122,
}

export const isDigit = (c: number): boolean => c >= Ch.Zero && c <= Ch.Nine;
/** A character an identifier may start with (protobuf's tokenizer: ASCII letters and `_`). */
export const isLetter = (c: number): boolean => (c >= Ch.LowerA && c <= Ch.LowerZ) || (c >= Ch.UpperA && c <= Ch.UpperZ) || c === Ch.Underscore;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= Ch.LowerA && c <= Ch.LowerF) || (c >= Ch.UpperA && c <= Ch.UpperF);

/**
 * Where a `#` starts a template marker: a set of offsets, or a test that decides as the scan reaches
 * each `#` (`glued`: right after an identifier's last character).
 */
export interface MarkerOffsets {
  has(offset: number, glued: boolean): boolean;
}

/** Just past the identifier characters (letters, digits, `_`) from `i` on. */
function identEnd(text: string, i: number): number {
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (!isLetter(d) && !isDigit(d)) break;
    i++;
  }
  return i;
}

/** Tokenizes a whole text at once (the parser pulls tokens from a Lexer one by one instead). */
export function tokenize(text: string): LexResult {
  const lexer = new Lexer(text);
  const tokens: Token[] = [];
  for (;;) {
    const t = lexer.next();
    tokens.push(t);
    if (t.type === 'eof') break;
  }
  return { tokens, comments: lexer.comments, errors: lexer.errors };
}

/**
 * Produces tokens on demand, so a large file never holds all its tokens at once; comments and errors
 * collect as the scan passes them.
 */
export class Lexer {
  readonly comments: Comment[] = [];
  readonly errors: LexError[] = [];
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private newlines = 0;

  /**
   * `from`: start scanning there (a field parsed again on its own, parser.ts parseText's `at`).
   * `markers`: offsets of `#` that start a sed-style template marker (template-markers.ts), each
   * lexed as part of an identifier token (`#num_mel_bins`, `TYPE_#DTYPE`) rather than as a comment.
   */
  constructor(
    private readonly text: string,
    from?: { offset: number; line: number; column: number },
    private readonly markers?: MarkerOffsets,
  ) {
    if (from) {
      this.i = from.offset;
      this.line = from.line;
      this.lineStart = from.offset - from.column + 1;
    }
  }

  private pos(offset: number): Position {
    return { line: this.line, column: offset - this.lineStart + 1, offset };
  }

  /**
   * protobuf's C++ tokenizer refuses a NUL byte anywhere, in strings and comments too (io/tokenizer.cc:
   * "Invalid control characters encountered in text."); its other control characters pass.
   */
  private nulAt(offset: number): void {
    this.errors.push({ messageId: 'nulByte', data: {}, range: { start: this.pos(offset), end: this.pos(offset + 1) } });
  }

  /** The last token scan() found: its offsets, line, column, and the line breaks before it. */
  tokenStart = 0;
  tokenEnd = 0;
  tokenLine = 1;
  tokenColumn = 1;
  tokenNewlines = 0;

  next(): Token {
    const type = this.scan();
    const start = this.tokenStart;
    const end = this.tokenEnd;
    return {
      type,
      text: type === 'eof' ? '' : this.text.slice(start, end),
      start,
      end,
      line: this.tokenLine,
      column: this.tokenColumn,
      endLine: this.tokenLine,
      endColumn: this.tokenColumn + end - start,
      newlinesBefore: this.tokenNewlines,
      startPos: undefined,
      endPos: undefined,
    };
  }

  /**
   * Finds the next token without making it (next() makes it): its kind, with where it is in the
   * token* fields. A scan of a whole large file then allocates nothing per token.
   */
  scan(): TokenType {
    const text = this.text;
    const n = text.length;
    let i = this.i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === Ch.LF) {
        i++;
        this.line++;
        this.lineStart = i;
        this.newlines++;
        continue;
      }
      if (c === Ch.Space || c === Ch.Tab || c === Ch.CR || c === Ch.VT || c === Ch.FF) {
        i++;
        continue;
      }
      if (c === 0) {
        this.nulAt(i);
        i++;
        continue;
      }
      if (c === Ch.Hash && this.markers?.has(i, false)) {
        const j = identEnd(text, i + 1);
        this.found(i, j);
        this.i = j;
        return 'ident';
      }
      if (c === Ch.Hash) {
        const start = this.pos(i);
        let j = i;
        while (j < n && text.charCodeAt(j) !== Ch.LF) {
          if (text.charCodeAt(j) === 0) this.nulAt(j);
          j++;
        }
        // Keep a CR of a CRLF line ending out of the comment's text.
        const endText = j > i && text.charCodeAt(j - 1) === Ch.CR ? j - 1 : j;
        this.comments.push({ text: text.slice(i, endText), range: { start, end: this.pos(endText) }, newlinesBefore: this.newlines });
        this.newlines = 0;
        i = j;
        continue;
      }
      let type: TokenType;
      let j: number;
      if (isLetter(c)) {
        j = identEnd(text, i + 1);
        // A marker glued to the identifier is part of it (TYPE_#DTYPE).
        while (j < n && text.charCodeAt(j) === Ch.Hash && this.markers?.has(j, true)) j = identEnd(text, j + 1);
        type = 'ident';
      } else if (isDigit(c) || (c === Ch.Dot && i + 1 < n && isDigit(text.charCodeAt(i + 1)))) {
        const scanned = scanNumber(text, i);
        j = scanned.end;
        type = scanned.error ? 'invalid' : scanned.isFloat ? 'float' : 'int';
        if (scanned.error) this.errors.push({ messageId: scanned.error, data: {}, range: { start: this.pos(scanned.errorAt ?? i), end: this.pos(j) } });
      } else if (c === Ch.DQuote || c === Ch.SQuote) {
        j = i + 1;
        let closed = false;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === c) {
            closed = true;
            j++;
            break;
          }
          if (d === Ch.LF) break;
          if (d === 0) this.nulAt(j);
          if (d === Ch.Backslash && j + 1 < n && text.charCodeAt(j + 1) !== Ch.LF) j += 2;
          else j++;
        }
        if (!closed) {
          this.errors.push({
            messageId: j < n ? 'unterminatedStringLine' : 'unterminatedStringEof',
            data: { quote: String.fromCharCode(c) },
            range: { start: this.pos(i), end: this.pos(j) },
          });
        }
        type = 'string';
      } else {
        // Everything else is a one-character symbol; the parser decides whether it is allowed.
        j = i + 1;
        // Keep a surrogate pair together so the symbol is a whole character.
        if (c >= 0xd800 && c <= 0xdbff && j < n) j++;
        type = 'symbol';
      }
      // A string token never spans lines (an unterminated one stops at the line break), so a token
      // ends on the line it starts on.
      this.found(i, j);
      this.i = j;
      return type;
    }
    this.i = i;
    // The end of the text, as often as it is asked for: with the same line breaks before it.
    this.found(n, n);
    this.newlines = this.tokenNewlines;
    return 'eof';
  }

  private found(start: number, end: number): void {
    this.tokenStart = start;
    this.tokenEnd = end;
    this.tokenLine = this.line;
    this.tokenColumn = start - this.lineStart + 1;
    this.tokenNewlines = this.newlines;
    this.newlines = 0;
  }
}

export interface ScannedNumber {
  end: number;
  isFloat: boolean;
  error?: NumberMessageId;
  errorAt?: number;
}

// Mirrors protobuf's Tokenizer::ConsumeNumber, including its error texts' intent.
export function scanNumber(text: string, start: number): ScannedNumber {
  const n = text.length;
  let i = start;
  let isFloat = false;
  const c0 = text.charCodeAt(i);
  const c1 = i + 1 < n ? text.charCodeAt(i + 1) : 0;
  if (c0 === Ch.Zero && (c1 === Ch.LowerX || c1 === Ch.UpperX)) {
    i += 2;
    const digitsStart = i;
    while (i < n && isHexDigit(text.charCodeAt(i))) i++;
    if (i === digitsStart) return { end: i, isFloat, error: 'hexWithoutDigits' };
  } else if (c0 === Ch.Zero && isDigit(c1)) {
    i++;
    let bad: number | undefined;
    while (i < n && isDigit(text.charCodeAt(i))) {
      if (text.charCodeAt(i) > Ch.Seven && bad === undefined) bad = i;
      i++;
    }
    if (bad !== undefined) return { end: i, isFloat, error: 'octalDigit', errorAt: bad };
  } else {
    if (c0 === Ch.Dot) {
      isFloat = true;
      i++;
    }
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    if (!isFloat && i < n && text.charCodeAt(i) === Ch.Dot) {
      isFloat = true;
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    const e = i < n ? text.charCodeAt(i) : 0;
    if (e === Ch.LowerE || e === Ch.UpperE) {
      isFloat = true;
      i++;
      const s = i < n ? text.charCodeAt(i) : 0;
      if (s === 43 /* + */ || s === 45 /* - */) i++;
      const expStart = i;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if (i === expStart) return { end: i, isFloat, error: 'exponentWithoutDigits' };
    }
    const f = i < n ? text.charCodeAt(i) : 0;
    if (f === Ch.LowerF || f === Ch.UpperF) {
      isFloat = true;
      i++;
    }
  }
  if (i < n) {
    const d = text.charCodeAt(i);
    if (isLetter(d) || isDigit(d)) {
      const errorAt = i;
      while (i < n && (isLetter(text.charCodeAt(i)) || isDigit(text.charCodeAt(i)))) i++;
      return { end: i, isFloat, error: 'letterAfterNumber', errorAt };
    }
    if (d === Ch.Dot) {
      const errorAt = i;
      while (i < n && (text.charCodeAt(i) === Ch.Dot || isDigit(text.charCodeAt(i)))) i++;
      return { end: i, isFloat: true, error: 'secondDecimalPoint', errorAt };
    }
  }
  return { end: i, isFloat };
}

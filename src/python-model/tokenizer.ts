// A bounded tokenizer for Python source (the lexical rules of CPython's Lib/tokenize.py and the
// language reference's "Lexical analysis"): names, numbers, strings (every prefix, triple-quoted),
// operators, comments, explicit line joining with a backslash, implicit joining inside brackets, and
// INDENT/DEDENT from the indentation. It reads enough of a model.py to follow auto_complete_config;
// anything it cannot tokenize ends the token list with an error (offset, line, column, reason), so
// the reader says "not known" from there and never guesses. Linear in the text; every stack is bounded.

export type TokenKind = 'name' | 'number' | 'string' | 'op' | 'newline' | 'indent' | 'dedent' | 'end';

export interface Token {
  kind: TokenKind;
  /** The text as written (a string token: its decoded value is `value`). */
  text: string;
  /** A string token's value, escapes decoded (undefined for f-strings and bytes, which the reader does not evaluate). */
  value?: string;
  /** A string token's prefix, lowercased (r, b, u, f, rb, fr, ...). */
  prefix?: string;
  offset: number;
  /** 1-based line and column. */
  line: number;
  col: number;
}

export interface TokenizeError {
  offset: number;
  line: number;
  col: number;
  reason: string;
}

export interface Tokens {
  tokens: Token[];
  /** Where tokenizing stopped, when it did not reach the end. */
  error?: TokenizeError;
}

/** Limits that keep hostile text cheap: past them the tokenizer stops with an error. */
export const TOKENIZE_LIMITS = { maxChars: 4 * 1024 * 1024, maxTokens: 1_000_000, maxBracketDepth: 200, maxIndentDepth: 100 } as const;

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '...',
  '->',
  ':=',
  '**',
  '//',
  '>>',
  '<<',
  '<=',
  '>=',
  '==',
  '!=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '@=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '@',
  '&',
  '|',
  '^',
  '~',
  '<',
  '>',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '=',
];
const OPEN = new Set(['(', '[', '{']);
const CLOSE: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
const PREFIXES = new Set(['r', 'u', 'b', 'f', 'br', 'rb', 'fr', 'rf', 't', 'tr', 'rt']);

const isIdStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
const isIdPart = (c: number): boolean => isIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

const SIMPLE_ESCAPES: Record<string, string> = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A str literal's value from its body (no prefix, no quotes), or undefined where an escape is one the reader does not decode. */
function decode(body: string, raw: boolean): string | undefined {
  if (raw || !body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    if (next === '\r') {
      if (body[i + 1] === '\n') i++;
      continue;
    }
    if (Object.hasOwn(SIMPLE_ESCAPES, next)) {
      out += SIMPLE_ESCAPES[next];
      continue;
    }
    const hex = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    if (hex) {
      const digits = body.slice(i + 1, i + 1 + hex);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) return undefined;
      const code = parseInt(digits, 16);
      if (code > 0x10ffff) return undefined;
      out += String.fromCodePoint(code);
      i += hex;
      continue;
    }
    if (next >= '0' && next <= '7') {
      let digits = next;
      while (digits.length < 3 && body[i + 1] !== undefined && body[i + 1]! >= '0' && body[i + 1]! <= '7') digits += body[++i];
      out += String.fromCodePoint(parseInt(digits, 8));
      continue;
    }
    // \N{...} and unknown escapes: \N is not decoded here; an unknown escape keeps its backslash.
    if (next === 'N') return undefined;
    out += '\\' + next;
  }
  return out;
}

/** The tokens of `text`, up to the first thing it cannot tokenize. */
export function tokenize(text: string): Tokens {
  const tokens: Token[] = [];
  if (text.length > TOKENIZE_LIMITS.maxChars) {
    return { tokens, error: { offset: 0, line: 1, col: 1, reason: `the file is longer than ${TOKENIZE_LIMITS.maxChars} characters` } };
  }
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const indents = [0];
  const brackets: string[] = [];
  let atLineStart = true;
  // Whether the logical line so far has a token (a NEWLINE ends only such lines).
  let lineHasToken = false;
  const push = (kind: TokenKind, start: number, end: number, extra: Partial<Token> = {}): void => {
    tokens.push({ kind, text: text.slice(start, end), offset: start, line, col: start - lineStart + 1, ...extra });
  };
  const fail = (offset: number, reason: string): Tokens => ({ tokens, error: { offset, line, col: offset - lineStart + 1, reason } });
  const newline = (at: number): void => {
    line++;
    lineStart = at;
  };

  while (i < text.length) {
    if (tokens.length > TOKENIZE_LIMITS.maxTokens) return fail(i, `more than ${TOKENIZE_LIMITS.maxTokens} tokens`);
    if (atLineStart && brackets.length === 0) {
      // Measure the indentation (a tab moves to the next multiple of 8, as CPython's tokenizer does).
      let col = 0;
      let j = i;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (c === 32) col++;
        else if (c === 9) col = (Math.floor(col / 8) + 1) * 8;
        else if (c === 12) col = 0;
        else break;
      }
      const c = text.charCodeAt(j);
      // Blank and comment-only lines do not count.
      if (j >= text.length || c === 10 || c === 13 || c === 35) {
        i = j;
        atLineStart = false;
        continue;
      }
      if (col > indents[indents.length - 1]!) {
        if (indents.length > TOKENIZE_LIMITS.maxIndentDepth) return fail(j, `indentation deeper than ${TOKENIZE_LIMITS.maxIndentDepth} levels`);
        indents.push(col);
        push('indent', i, j);
      } else {
        while (col < indents[indents.length - 1]!) {
          indents.pop();
          push('dedent', j, j);
        }
        if (col !== indents[indents.length - 1]) return fail(j, 'unindent does not match any outer indentation level');
      }
      i = j;
      atLineStart = false;
      continue;
    }
    const c = text.charCodeAt(i);
    // Line ends.
    if (c === 10 || c === 13) {
      const end = c === 13 && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
      if (brackets.length === 0 && lineHasToken) {
        push('newline', i, end);
        lineHasToken = false;
      }
      newline(end);
      i = end;
      // Inside brackets the next line continues this one: its indentation does not count.
      atLineStart = brackets.length === 0;
      continue;
    }
    if (c === 32 || c === 9 || c === 12) {
      i++;
      continue;
    }
    if (c === 35) {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
      continue;
    }
    if (c === 92) {
      // Explicit line joining: a backslash right before the line end.
      const n = text[i + 1];
      if (n === '\n' || n === '\r') {
        const end = n === '\r' && text[i + 2] === '\n' ? i + 3 : i + 2;
        newline(end);
        i = end;
        continue;
      }
      if (i + 1 >= text.length) return fail(i, 'a backslash at the end of the file');
      return fail(i, 'a backslash outside a string that does not end the line');
    }
    // Names, and string prefixes.
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < text.length && isIdPart(text.charCodeAt(j))) j++;
      const word = text.slice(i, j);
      const q = text[j];
      if ((q === '"' || q === "'") && PREFIXES.has(word.toLowerCase())) {
        const r = readString(text, i, j, word.toLowerCase());
        if ('reason' in r) return fail(r.at, r.reason);
        push('string', i, r.end, { prefix: word.toLowerCase(), ...(r.value !== undefined ? { value: r.value } : {}) });
        for (const nl of r.newlines) newline(nl);
        i = r.end;
        lineHasToken = true;
        continue;
      }
      push('name', i, j);
      i = j;
      lineHasToken = true;
      continue;
    }
    if (c === 34 || c === 39) {
      const r = readString(text, i, i, '');
      if ('reason' in r) return fail(r.at, r.reason);
      push('string', i, r.end, { prefix: '', ...(r.value !== undefined ? { value: r.value } : {}) });
      for (const nl of r.newlines) newline(nl);
      i = r.end;
      lineHasToken = true;
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
      const m =
        /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:(?:\d(?:_?\d)*)?\.\d(?:_?\d)*|\d(?:_?\d)*\.?)(?:[eE][+-]?\d(?:_?\d)*)?[jJ]?)/.exec(
          text.slice(i, i + 400),
        );
      if (!m) return fail(i, 'a malformed number');
      const end = i + m[0].length;
      if (end < text.length && isIdPart(text.charCodeAt(end))) return fail(end, 'a malformed number');
      push('number', i, end);
      i = end;
      lineHasToken = true;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      if (OPEN.has(op)) {
        if (brackets.length >= TOKENIZE_LIMITS.maxBracketDepth) return fail(i, `brackets nested deeper than ${TOKENIZE_LIMITS.maxBracketDepth}`);
        brackets.push(op);
      } else if (Object.hasOwn(CLOSE, op)) {
        if (brackets.pop() !== CLOSE[op]) return fail(i, `unmatched '${op}'`);
      }
      push('op', i, i + op.length);
      i += op.length;
      lineHasToken = true;
      continue;
    }
    return fail(i, `unexpected character ${JSON.stringify(text[i])}`);
  }
  if (brackets.length) return fail(i, `'${brackets[brackets.length - 1]}' was never closed`);
  if (lineHasToken) push('newline', i, i);
  while (indents.length > 1) {
    indents.pop();
    push('dedent', i, i);
  }
  push('end', i, i);
  return { tokens };
}

type StringRead = { end: number; value: string | undefined; newlines: number[] } | { at: number; reason: string };

/** Reads the string literal whose quote starts at `q` (prefix from `start`). */
function readString(text: string, start: number, q: number, prefix: string): StringRead {
  const quote = text[q]!;
  const triple = text.startsWith(quote.repeat(3), q);
  const open = triple ? 3 : 1;
  const raw = prefix.includes('r');
  const newlines: number[] = [];
  let j = q + open;
  for (;;) {
    if (j >= text.length) return { at: start, reason: triple ? 'an unterminated triple-quoted string' : 'an unterminated string' };
    const ch = text[j]!;
    if (ch === '\\') {
      // The backslash escapes the next character even in raw strings (it is kept there).
      const n = text[j + 1];
      if (n === '\r' && text[j + 2] === '\n') {
        newlines.push(j + 3);
        j += 3;
      } else if (n === '\n' || n === '\r') {
        newlines.push(j + 2);
        j += 2;
      } else j += 2;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      if (!triple) return { at: start, reason: 'an unterminated string' };
      const end = ch === '\r' && text[j + 1] === '\n' ? j + 2 : j + 1;
      newlines.push(end);
      j = end;
      continue;
    }
    if (ch === quote && (!triple || text.startsWith(quote.repeat(3), j))) {
      const body = text.slice(q + open, j);
      const end = j + open;
      const evaluates = !prefix.includes('f') && !prefix.includes('b') && !prefix.includes('t');
      return { end, value: evaluates ? decode(body, raw) : undefined, newlines };
    }
    j++;
  }
}

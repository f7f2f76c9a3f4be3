// JSON files users write (settings, the lock, a vLLM model.json): parsed with where a syntax error is,
// and where each top-level key stands, so a finding can point into the file.

import { positionAt, type TextPosition } from './text-position.js';

/**
 * A failed parse says where (`at`) and what stands there (`found`: the character, or undefined where the
 * text ends too early), found by tritonc's own scan, not from V8's wording; `message` is V8's, for
 * errors that quote it.
 */
export type JsonRead = { ok: true; value: unknown } | { ok: false; at: TextPosition; found: string | undefined; message: string };

/** JSON.parse, with where it fails as a line and column and the character found there. */
export function parseJsonText(text: string): JsonRead {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const raw = (e as Error).message;
    const message = raw
      .replace(/\s*(in JSON )?at position \d+.*$/, '')
      .replace(/^JSON\.parse: /, '')
      .replace(/,\s*".*" is not valid JSON$/, '');
    const scanned = jsonErrorOffset(text);
    const offset = scanned < 0 ? text.length : scanned;
    const found = offset < text.length ? String.fromCodePoint(text.codePointAt(offset)!) : undefined;
    return { ok: false, at: positionAt(text, offset), found, message };
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * The offset of the first character that cannot stand where it does in JSON (RFC 8259, as JSON.parse
 * reads it), text.length where the text ends too early, or -1 when the text is valid JSON. Iterative:
 * a deeply nested text cannot overflow the stack.
 */
export function jsonErrorOffset(text: string): number {
  const n = text.length;
  let i = 0;
  const ws = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  // Each scan leaves i past what it read and answers -1, or answers where it failed.
  const string = (): number => {
    i++; // the opening quote
    for (;;) {
      if (i >= n) return n;
      const c = text[i]!;
      if (c === '"') {
        i++;
        return -1;
      }
      if (c < ' ') return i;
      if (c !== '\\') {
        i++;
        continue;
      }
      i++;
      if (i >= n) return n;
      if ('"\\/bfnrt'.includes(text[i]!)) {
        i++;
        continue;
      }
      if (text[i] !== 'u') return i;
      for (let k = 0; k < 4; k++) {
        i++;
        if (i >= n) return n;
        if (!isHex(text[i])) return i;
      }
      i++;
    }
  };
  const digits = (): number => {
    if (i >= n) return n;
    if (!isDigit(text[i])) return i;
    while (isDigit(text[i])) i++;
    return -1;
  };
  const number = (): number => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else {
      const e = digits();
      if (e >= 0) return e;
    }
    if (text[i] === '.') {
      i++;
      const e = digits();
      if (e >= 0) return e;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      const e = digits();
      if (e >= 0) return e;
    }
    return -1;
  };
  const literal = (word: string): number => {
    for (let k = 0; k < word.length; k++, i++) {
      if (i >= n) return n;
      if (text[i] !== word[k]) return i;
    }
    return -1;
  };
  // What comes next: a value, a key (in an object), or what follows a value (",", a close, the end).
  const open: string[] = [];
  let want: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  for (;;) {
    ws();
    if (want === 'after') {
      const top = open[open.length - 1];
      if (top === undefined) return i < n ? i : -1;
      if (i >= n) return n;
      if (text[i] === ',') {
        i++;
        want = top === '{' ? 'key' : 'value';
      } else if (text[i] === (top === '{' ? '}' : ']')) {
        i++;
        open.pop();
      } else return i;
      continue;
    }
    if (i >= n) return n;
    const c = text[i]!;
    if (want === 'key' || want === 'firstKey') {
      if (want === 'firstKey' && c === '}') {
        i++;
        open.pop();
        want = 'after';
        continue;
      }
      if (c !== '"') return i;
      const e = string();
      if (e >= 0) return e;
      ws();
      if (i >= n) return n;
      if (text[i] !== ':') return i;
      i++;
      want = 'value';
      continue;
    }
    if (want === 'firstValue' && c === ']') {
      i++;
      open.pop();
      want = 'after';
      continue;
    }
    if (c === '{' || c === '[') {
      open.push(c);
      i++;
      want = c === '{' ? 'firstKey' : 'firstValue';
      continue;
    }
    const e =
      c === '"' ? string() : c === '-' || isDigit(c) ? number() : c === 't' ? literal('true') : c === 'f' ? literal('false') : c === 'n' ? literal('null') : i;
    if (e >= 0) return e;
    want = 'after';
  }
}

export interface JsonKeyRange {
  /** Offsets of the key's string (quotes included) and of its value. */
  key: { start: number; end: number };
  value: { start: number; end: number };
}

/** Where each key of a top-level object is written (the last one of a repeated key, as JSON.parse keeps it). */
export function topLevelKeys(text: string): Map<string, JsonKeyRange> {
  const keys = new Map<string, JsonKeyRange>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const skipString = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    ws();
    if (text[i] === '"') return skipString();
    if (text[i] === '{' || text[i] === '[') {
      let depth = 0;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          skipString();
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
        if (depth === 0) return;
      }
      return;
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };
  ws();
  if (text[i] !== '{') return keys;
  i++;
  for (;;) {
    ws();
    if (text[i] !== '"') return keys;
    const keyStart = i;
    skipString();
    const keyEnd = i;
    let name: string;
    try {
      name = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    } catch {
      return keys;
    }
    ws();
    if (text[i] !== ':') return keys;
    i++;
    ws();
    const valueStart = i;
    skipValue();
    keys.set(name, { key: { start: keyStart, end: keyEnd }, value: { start: valueStart, end: i } });
    ws();
    if (text[i] !== ',') return keys;
    i++;
  }
}

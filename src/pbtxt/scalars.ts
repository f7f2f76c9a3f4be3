// Conversions between text-format scalar literals and values: integers (decimal, hex, octal, exact
// beyond 2^53), floats (inf/nan/`f` suffix), C-escaped strings.
import type { ScalarType } from './descriptor.js';
import type { ParseMessage } from './messages.js';
import { append } from '../util/arrays.js';

/** 64-bit integers stay exact: a number while it is a safe integer, a bigint beyond. */
export type Int64 = number | bigint;

export interface IntegerRange {
  min: bigint;
  max: bigint;
  /**
   * The bounds as numbers, for a value read as a number (under 10^15, the clean parse's short
   * decimals): comparing a number with a bigint takes V8's slow path. A 64-bit bound rounds, but no
   * number that small is near it.
   */
  lo: number;
  hi: number;
}

const range = (min: bigint, max: bigint): IntegerRange => ({ min, max, lo: Number(min), hi: Number(max) });
const INT32 = range(-(2n ** 31n), 2n ** 31n - 1n);
const UINT32 = range(0n, 2n ** 32n - 1n);
const INT64 = range(-(2n ** 63n), 2n ** 63n - 1n);
const UINT64 = range(0n, 2n ** 64n - 1n);

export function integerRange(type: ScalarType): IntegerRange | undefined {
  switch (type) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return INT32;
    case 'uint32':
    case 'fixed32':
      return UINT32;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return INT64;
    case 'uint64':
    case 'fixed64':
      return UINT64;
    default:
      return undefined;
  }
}

export const ENUM_RANGE = INT32;

export function is64Bit(type: ScalarType): boolean {
  return type === 'int64' || type === 'uint64' || type === 'sint64' || type === 'fixed64' || type === 'sfixed64';
}

/** The magnitude of an integer token (`123`, `0x7f`, `017`). */
export function integerTokenValue(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text);
  if (text.length > 1 && text.startsWith('0')) return BigInt(`0o${text.slice(1)}`);
  return BigInt(text);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function toInt64(v: bigint): Int64 {
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

/** The value of a float token or an integer token used as a float; `f` suffixes are dropped. */
export function floatTokenValue(text: string, isInteger: boolean): number {
  if (isInteger) return Number(integerTokenValue(text));
  const t = /[fF]$/.test(text) ? text.slice(0, -1) : text;
  return Number(t);
}

const FLOAT_WORDS: Record<string, number> = { inf: Infinity, infinity: Infinity, nan: NaN };

export function floatWordValue(word: string): number | undefined {
  return FLOAT_WORDS[word.toLowerCase()];
}

export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  return String(v);
}

/** What is wrong with an escape in a string (ParseStringAppend), as a message of messages.ts. */
type EscapeMessageId = 'loneBackslash' | 'hexEscapeWithoutDigits' | 'shortUnicodeEscape' | 'longUnicodeEscape' | 'invalidEscape';
export type EscapeError = ParseMessage<EscapeMessageId>;

export interface UnescapeResult {
  value: string;
  /** 0-based index into the literal's text of the first bad escape, with its message (messages.ts). */
  error?: { index: number } & EscapeError;
  /**
   * The escapes make bytes that are not valid UTF-8 (\xff, a lone \uD800): protobuf's C++ parser
   * keeps the bytes, a JavaScript string cannot, so the value holds U+FFFD where they were and
   * the literal must be printed as written.
   */
  notUtf8?: boolean;
}

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 10,
  t: 9,
  r: 13,
  a: 7,
  b: 8,
  f: 12,
  v: 11,
  '\\': 92,
  "'": 39,
  '"': 34,
  '?': 63,
};

/** SIMPLE_ESCAPES by the escaped character's code: the byte each stands for. */
export const SIMPLE_ESCAPE_BYTES: readonly (number | undefined)[] = (() => {
  const bytes: (number | undefined)[] = Array.from({ length: 128 }, () => undefined);
  for (const [ch, byte] of Object.entries(SIMPLE_ESCAPES)) bytes[ch.charCodeAt(0)] = byte;
  return bytes;
})();

/** Decodes one quoted literal (with its quotes) into a string: escapes make bytes, bytes are UTF-8. */
export function unescapeStringLiteral(literal: string): UnescapeResult {
  const body = literal.slice(1, literal.length > 1 && literal.at(-1) === literal[0] ? -1 : undefined);
  // The common case, no escapes: the text is the value.
  if (!body.includes('\\')) return { value: body };
  const bytes: number[] = [];
  let error: UnescapeResult['error'];
  const utf8 = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      const cp = body.codePointAt(i)!;
      if (cp > 0x7f) {
        const s = String.fromCodePoint(cp);
        append(bytes, [...utf8.encode(s)]);
        i += s.length - 1;
      } else bytes.push(cp);
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) {
      error ??= { index: i + 1, messageId: 'loneBackslash', data: {} };
      break;
    }
    if (next in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[next]!);
      i++;
    } else if (next >= '0' && next <= '7') {
      let j = i + 1;
      let v = 0;
      while (j < body.length && j < i + 4 && body[j]! >= '0' && body[j]! <= '7') v = v * 8 + Number(body[j++]);
      bytes.push(v & 0xff);
      i = j - 1;
    } else if (next === 'x' || next === 'X') {
      let j = i + 2;
      let v = 0;
      while (j < body.length && j < i + 4 && /[0-9a-fA-F]/.test(body[j]!)) v = v * 16 + parseInt(body[j++]!, 16);
      if (j === i + 2) {
        error ??= { index: i + 1, messageId: 'hexEscapeWithoutDigits', data: {} };
        i++;
        continue;
      }
      bytes.push(v);
      i = j - 1;
    } else if (next === 'u' || next === 'U') {
      // protobuf's C++ tokenizer (io/tokenizer.cc, ConsumeString): \u takes exactly 4 hex digits; \U
      // takes 8 that start 000 or 001, so nothing above 0x1fffff. A code point above 0x10ffff passes
      // the tokenizer, and ParseStringAppend then keeps the escape as written, backslash included.
      const len = next === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + len);
      const wellFormed = hex.length === len && /^[0-9a-fA-F]+$/.test(hex) && (next === 'u' || /^00[01]/.test(hex));
      if (!wellFormed) {
        error ??= { index: i + 1, messageId: next === 'u' ? 'shortUnicodeEscape' : 'longUnicodeEscape', data: {} };
        i++;
        continue;
      }
      let cp = parseInt(hex, 16);
      if (cp > 0x10ffff) {
        for (const b of utf8.encode(`\\${next}${hex}`)) bytes.push(b);
      } else {
        // A high surrogate followed by a low one is one code point, as protobuf combines them.
        const low = cp >= 0xd800 && cp <= 0xdbff && body.slice(i + 6, i + 8) === '\\u' ? parseInt(body.slice(i + 8, i + 12), 16) : NaN;
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
        for (const b of encodeCodePoint(cp)) bytes.push(b);
      }
      i += 1 + len;
    } else {
      error ??= { index: i + 1, messageId: 'invalidEscape', data: { char: next } };
      i++;
    }
  }
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes));
  const notUtf8 = decoded.includes('\uFFFD') && !body.includes('\uFFFD');
  return { value: decoded, ...(error ? { error } : {}), ...(notUtf8 ? { notUtf8 } : {}) };
}

/** A code point as UTF-8 bytes, surrogates included (as protobuf's AppendUTF8 writes them). */
function encodeCodePoint(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** Quotes a string for text format: double quotes, C escapes for quotes, backslashes and control characters. */
export function quoteString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 34:
        out += '\\"';
        break;
      case 92:
        out += '\\\\';
        break;
      case 10:
        out += '\\n';
        break;
      case 13:
        out += '\\r';
        break;
      case 9:
        out += '\\t';
        break;
      default:
        if (c < 0x20 || c === 0x7f) out += `\\${c.toString(8).padStart(3, '0')}`;
        else out += s[i];
    }
  }
  return `${out}"`;
}

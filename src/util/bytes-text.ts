// Bytes that should have been UTF-8 text (a name read from a model file), shown to a person: every
// well-formed UTF-8 sequence as its character, every byte outside one as \xHH, a backslash as \\ and
// control characters as terminal-text.ts escapes them, so two different byte strings never show alike.
import { escapeControl } from './terminal-text.js';

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, surrogates or code points past U+10FFFF), or 0. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const [lo, hi] = c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const [lo, hi] = c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** `bytes` as text a person can read and tell apart: see the file's comment. Linear in the input. */
export function bytesText(bytes: Uint8Array): string {
  const decoder = new TextDecoder();
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const n = sequenceAt(bytes, i);
    if (n === 0) {
      out += `\\x${bytes[i]!.toString(16).padStart(2, '0')}`;
      i++;
      continue;
    }
    const ch = decoder.decode(bytes.subarray(i, i + n));
    out += ch === '\\' ? '\\\\' : escapeControl(ch);
    i += n;
  }
  return out;
}

// bytesText: bytes meant as UTF-8, shown so two different byte strings never look alike.
import { describe, expect, it } from 'vitest';
import { bytesText } from '../../src/util/bytes-text.js';

const b = (...x: number[]): Uint8Array => new Uint8Array(x);

describe('bytesText', () => {
  it('well-formed UTF-8 as its characters; a backslash and control characters escaped', () => {
    expect(bytesText(new TextEncoder().encode('héllo 日本 😀'))).toBe('héllo 日本 😀');
    expect(bytesText(new TextEncoder().encode('a\\b\n\u0000'))).toBe('a\\\\b\\n\\x00');
  });

  it('each byte outside a well-formed sequence as \\xHH (RFC 3629: overlongs, surrogates, past U+10FFFF, cut sequences)', () => {
    expect(bytesText(b(0x61, 0xff, 0x62))).toBe('a\\xffb');
    expect(bytesText(b(0xc0, 0xaf))).toBe('\\xc0\\xaf'); // an overlong '/'
    expect(bytesText(b(0xed, 0xa0, 0x80))).toBe('\\xed\\xa0\\x80'); // U+D800
    expect(bytesText(b(0xf4, 0x90, 0x80, 0x80))).toBe('\\xf4\\x90\\x80\\x80'); // past U+10FFFF
    expect(bytesText(b(0xe6, 0x97))).toBe('\\xe6\\x97'); // cut short
    expect(bytesText(b(0xe6, 0x97, 0xa5, 0x80))).toBe('日\\x80');
    // A backslash written by the name itself never reads as an escape.
    expect(bytesText(new TextEncoder().encode('\\xff'))).not.toBe(bytesText(b(0xff)));
  });
});

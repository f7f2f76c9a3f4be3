// Text from outside shown on a terminal: nothing in it moves the cursor, splits a line or reorders
// what the reader sees.
import { describe, expect, it } from 'vitest';
import { escapeControl, quoted } from '../../src/util/terminal-text.js';

describe('escapeControl', () => {
  it('writes control characters as escapes', () => {
    expect(escapeControl('a\nb\tc\rd\u001b[31me\u0007\u009b')).toBe('a\\nb\\tc\\rd\\x1b[31me\\x07\\x9b');
  });

  it('writes the invisible characters that reorder or hide text as \\u escapes (Trojan Source)', () => {
    expect(escapeControl('24.10\u202e01.42')).toBe('24.10\\u202e01.42');
    expect(escapeControl('a\u200bb\u200ec\u200fd\u2066e\u2069f\ufeffg')).toBe('a\\u200bb\\u200ec\\u200fd\\u2066e\\u2069f\\ufeffg');
    // Joiners shape scripts and emoji: left as they are, as is any other text.
    expect(escapeControl('👩\u200d💻 ک\u200cی é')).toBe('👩\u200d💻 ک\u200cی é');
  });

  it('quoted cuts a long value and says how long it was', () => {
    expect(quoted('x'.repeat(10_000))).toBe(`"${'x'.repeat(80)}..." (10,000 characters)`);
    expect(quoted('24.10\n26.07')).toBe('"24.10\\n26.07"');
  });
});

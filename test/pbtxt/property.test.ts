// Property tests: the parser never throws or hangs on any text, and every config value survives
// print -> parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { loadSchema } from '../../src/config/schema.js';
import { valuesEqual } from '../../src/pbtxt/equal.js';
import { formatText } from '../../src/config/format.js';
import { messageArb } from '../support/arbitrary-config.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';

const schema = loadSchema();
const TOKENS = [
  '{',
  '}',
  '<',
  '>',
  '[',
  ']',
  ':',
  ',',
  ';',
  '-',
  '#',
  '"',
  "'",
  '\\',
  '\n',
  ' ',
  'input',
  'dims',
  'name',
  'max_batch_size',
  'TYPE_FP32',
  '0x',
  '1e',
  '08',
  '.5',
  'inf',
  'parameters',
  'key',
  'value',
  '${x}',
  '\uFEFF',
  '\r\n',
];
const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map((t) => t.join('')),
);
const realConfigs = FIXTURE_CONFIGS.map((c) => c.text);

describe('parser properties', () => {
  it('never throws on arbitrary text: only diagnostics', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const doc = parseConfig(text);
        for (const d of doc.diagnostics) {
          expect(d.range.start.line).toBeGreaterThanOrEqual(1);
          expect(d.range.start.column).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on real configs cut or corrupted anywhere', () => {
    fc.assert(
      fc.property(fc.constantFrom(...realConfigs), fc.nat(), fc.nat(), fc.string({ maxLength: 3 }), (text, a, b, insert) => {
        const i = a % (text.length + 1);
        const j = Math.min(text.length, i + (b % 20));
        parseConfig(text.slice(0, i) + insert + text.slice(j));
        parseConfig(text.slice(0, i));
      }),
      { numRuns: 1500 },
    );
  });

  it('formats any text it parses cleanly without losing meaning, and formats idempotently', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const r = formatText(text);
        if (r.status === 'unsafe') throw new Error(r.reason);
        if (r.status === 'formatted') {
          const again = formatText(r.output);
          expect(again.status === 'formatted' && !again.changed).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips generated ModelConfig values through print and parse', () => {
    fc.assert(
      fc.property(messageArb(schema.modelConfig, 4), (value) => {
        const text = printConfig(value);
        const doc = parseConfig(text);
        expect(doc.diagnostics).toEqual([]);
        expect(valuesEqual(doc.value, value)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

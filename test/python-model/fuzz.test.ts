// Property tests: whatever the text, the tokenizer and the reader return (never throw, never hang),
// in time linear in the text; mutated copies of Triton's model.py files and hostile shapes (deep
// brackets, deep indentation, long strings, huge loops) stay cheap and bounded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAutoCompleteConfig, READER_FAILED, READ_LIMITS } from '../../src/python-model/auto-complete-config.js';
import { tokenize } from '../../src/python-model/tokenizer.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/models/python');
const SEEDS = [
  readFileSync(join(FIXTURES, 'auto_complete', 'model.py'), 'utf8'),
  readFileSync(join(FIXTURES, 'L0_model_config/autofill_noplatform/python/model_transaction_policy_mismatch/model.py'), 'utf8'),
  readFileSync(join(FIXTURES, 'L0_model_config/autofill_noplatform_success/python/optional_input/model.py'), 'utf8'),
];
// The CPU time this process spent in fn, in ms: what the reader costs, whatever else the machine
// runs meanwhile (wall time would measure the machine's load, not the reader).
function cpuMs(fn: () => void): number {
  const before = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}
const RUNS = { numRuns: Number(process.env.TRITONC_FUZZ_RUNS ?? 300) };
const PIECES = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '"""',
  '\\',
  '\n',
  '\t',
  '    ',
  '#',
  ':',
  ',',
  '=',
  'for ',
  ' in ',
  'def ',
  'class ',
  'return ',
  '@staticmethod\n',
  'dict(',
  'auto_complete_model_config.add_input(',
  'auto_complete_model_config',
  '.',
  'r"',
  'f"',
  '\r\n',
  '\u00e9',
  '0x',
  '1e',
  '-',
];

/** A seed with random pieces inserted, deleted or replaced. */
const mutated = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.constantFrom(...PIECES), fc.constantFrom('insert', 'delete', 'replace')), { maxLength: 12 }),
  )
  .map(([seed, edits]) => {
    let text = seed;
    for (const [at, len, piece, op] of edits) {
      const i = at % (text.length + 1);
      text = op === 'insert' ? text.slice(0, i) + piece : op === 'delete' ? text.slice(0, i) : text.slice(0, i) + piece;
      text += seed.slice(Math.min(seed.length, i + (op === 'insert' ? 0 : len)));
    }
    return text;
  });

function read(text: string): void {
  const t = tokenize(text);
  if (t.error) {
    expect(t.error.offset).toBeGreaterThanOrEqual(0);
    expect(t.error.offset).toBeLessThanOrEqual(text.length);
  }
  const facts = readAutoCompleteConfig(text);
  expect(facts.calls.length).toBeLessThanOrEqual(READ_LIMITS.maxCalls);
  expect(facts.unknown?.reason).not.toBe(READER_FAILED);
  if (facts.unknown) expect(facts.returns).toBeUndefined();
}

describe('robustness', () => {
  it('random text', () => fc.assert(fc.property(fc.string({ maxLength: 2000 }), read), RUNS));
  it('random pieces of Python', () =>
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 400 }).map((p) => p.join('')),
        read,
      ),
      RUNS,
    ));
  it("mutated copies of Triton's model.py files", () => fc.assert(fc.property(mutated, read), RUNS));

  it('hostile shapes stay bounded in time', () => {
    const hostile = [
      `x = ${'['.repeat(100_000)}`,
      `class TritonPythonModel:\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i + 4)}if x:\n`).join('')}`,
      `x = "${'a'.repeat(2_000_000)}`,
      `"""${'\\\n'.repeat(200_000)}`,
      // Nested loops over literal lists: the reader stops at its step limit, not after 10^12 steps.
      `class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        l = [${'1, '.repeat(1000)}]\n        for a in l:\n            for b in l:\n                for d in l:\n                    for e in l:\n                        c.set_max_batch_size(1)\n        return c\n`,
      `class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n${'        c.set_dynamic_batching()\n'.repeat(20_000)}        return c\n`,
      'x = ' + '-'.repeat(100_000) + '1\n',
      '\\\n'.repeat(100_000),
    ];
    for (const text of hostile)
      expect(
        cpuMs(() => read(text)),
        text.slice(0, 60),
      ).toBeLessThan(5000);
  });

  it('time grows linearly with the text', () => {
    const body = SEEDS[0]!;
    const time = (n: number): number => {
      const text = body.repeat(n);
      return cpuMs(() => {
        for (let i = 0; i < 3; i++) readAutoCompleteConfig(text);
      });
    };
    time(10);
    const small = time(20);
    const large = time(320);
    // 16x the text: well under 16^2 = 256x the time (allowing a noisy machine).
    expect(large / Math.max(small, 1)).toBeLessThan(80);
  });
});

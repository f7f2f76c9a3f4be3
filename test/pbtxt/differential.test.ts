// Differential test against the reference implementation, Google's Python text_format: every file
// tritonc reads or prints (the fixture configs, generated values) parses there into the same message.
// test/conformance/differential.test.ts does the same on the corpus of real configs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { loadSchema } from '../../src/config/schema.js';
import { formatText } from '../../src/config/format.js';
import { compareWithReference as compare } from '../differential/compare.js';
import { parseWithReference, referenceAvailable } from '../differential/reference.js';
import { messageArb } from '../support/arbitrary-config.js';
import { FIXTURE_CONFIGS } from '../support/configs.js';

const schema = loadSchema();
const available = referenceAvailable();
// CI installs python3-protobuf and protobuf-compiler (.ci/run), so there the test always runs.
const mustRun = Boolean(process.env.CI);

describe.skipIf(!available.ok && !mustRun)(`differential vs Python text_format${available.ok ? '' : ` (skipped: ${available.reason})`}`, () => {
  it('agrees on every fixture config as written, printed and formatted', () => {
    const texts = FIXTURE_CONFIGS.map((c) => c.text);
    const values = texts.map((t) => parseConfig(t).value as Record<string, unknown>);
    compare(texts, values, (i) => FIXTURE_CONFIGS[i]!.name);
    compare(
      values.map((v) => printConfig(v)),
      values,
      (i) => `print(${FIXTURE_CONFIGS[i]!.name})`,
    );
    const formatted = texts.map((t, i) => {
      const f = formatText(t);
      if (f.status !== 'formatted') throw new Error(`${FIXTURE_CONFIGS[i]!.name}: ${f.status}`);
      return f.output;
    });
    compare(formatted, values, (i) => `fmt(${FIXTURE_CONFIGS[i]!.name})`);
  });

  it('parses what tritonc prints from generated values into the same message', () => {
    const values = fc.sample(messageArb(schema.modelConfig, 4), { numRuns: 400, seed: 20261130 });
    compare(
      values.map((v) => printConfig(v)),
      values,
      (i) => `generated #${i}: ${printConfig(values[i]!).slice(0, 400)}`,
    );
  });

  it('rejects what tritonc rejects, for the syntax errors TextFormat defines', () => {
    const bad = [
      'foo: 1',
      'input { data_type: FP32 }',
      'max_batch_size: 2147483648',
      'name: "a" name: "b"',
      'dynamic_batching { } sequence_batching { }',
      'name: "x',
      'input {',
      'max_batch_size: "1"',
      'dynamic_batching { max_queue_delay_microseconds: -1 }',
      'response_cache { enable: 2 }',
      'input { dims: [1,] }',
    ];
    const answers = parseWithReference(bad);
    bad.forEach((text, i) => {
      expect(parseConfig(text).diagnostics.length, text).toBeGreaterThan(0);
      expect(answers[i]!.ok, text).toBe(false);
    });
  });
});

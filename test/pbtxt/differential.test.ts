// Differential test against the reference implementation, Google's Python text_format: every file
// tritonc prints (from the corpus and from generated values) parses there into the same message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { formatText } from '../../src/pbtxt/format.js';
import { parseWithReference, referenceAvailable } from '../differential/reference.js';
import { messageArb } from '../support/arbitrary-config.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { normalizeReferenceJson } from '../support/proto-json-compare.js';

const schema = loadSchema();
const available = referenceAvailable();
// CI installs python3-protobuf and protobuf-compiler (.ci/run), so there the test always runs.
const mustRun = Boolean(process.env.CI);

function compare(texts: string[], values: Record<string, unknown>[], label: (i: number) => string): void {
  const answers = parseWithReference(texts);
  const failures: string[] = [];
  texts.forEach((_, i) => {
    const a = answers[i];
    if (!a || !a.ok) {
      failures.push(`${label(i)}: the reference refused tritonc's output: ${a && !a.ok ? a.error : 'no answer'}`);
      return;
    }
    const ours = toProtoJson(values[i]!, schema.modelConfig);
    const theirs = normalizeReferenceJson(a.value, schema.modelConfig);
    try {
      expect(ours).toEqual(theirs);
    } catch {
      failures.push(`${label(i)}: values differ\n ours:   ${JSON.stringify(ours)}\n theirs: ${JSON.stringify(theirs)}`);
    }
  });
  expect(failures.slice(0, 5)).toEqual([]);
}

describe.skipIf(!available.ok && !mustRun)(`differential vs Python text_format${available.ok ? '' : ` (skipped: ${available.reason})`}`, () => {
  const rows = corpusRows().filter((r) => r.kind !== 'template');

  it('agrees on every corpus config as written', () => {
    const docs = rows.map((r) => parseConfig(readCorpusFile(r), r.file));
    compare(rows.map(readCorpusFile), docs.map((d) => d.value as Record<string, unknown>), (i) => rows[i]!.file);
  });

  it('parses what tritonc prints and formats from the corpus into the same message', () => {
    const docs = rows.map((r) => parseConfig(readCorpusFile(r), r.file));
    const printed = docs.map((d) => printConfig(d.value));
    compare(printed, docs.map((d) => d.value as Record<string, unknown>), (i) => `print(${rows[i]!.file})`);
    const formatted = rows.map((r) => {
      const f = formatText(readCorpusFile(r), r.file);
      if (f.status !== 'formatted') throw new Error(`${r.file}: ${f.status}`);
      return f.output;
    });
    compare(formatted, docs.map((d) => d.value as Record<string, unknown>), (i) => `fmt(${rows[i]!.file})`);
  });

  it('parses what tritonc prints from generated values into the same message', () => {
    const values = fc.sample(messageArb(schema.modelConfig, 4), { numRuns: 400, seed: 20261130 });
    compare(values.map((v) => printConfig(v)), values, (i) => `generated #${i}: ${printConfig(values[i]!).slice(0, 400)}`);
  });

  it('rejects what tritonc rejects, for the syntax errors TextFormat defines', () => {
    const bad = [
      'foo: 1', 'input { data_type: FP32 }', 'max_batch_size: 2147483648', 'name: "a" name: "b"',
      'dynamic_batching { } sequence_batching { }', 'name: "x', 'input {', 'max_batch_size: "1"',
      'dynamic_batching { max_queue_delay_microseconds: -1 }', 'response_cache { enable: 2 }', 'input { dims: [1,] }',
    ];
    const answers = parseWithReference(bad);
    bad.forEach((text, i) => {
      expect(parseConfig(text).diagnostics.length, text).toBeGreaterThan(0);
      expect(answers[i]!.ok, text).toBe(false);
    });
  });
});

// The differential test on the corpus of real configs: each config as written, as tritonc prints it
// and as tritonc formats it parses in Google's Python text_format into the message tritonc reads.
import { describe, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { formatText } from '../../src/config/format.js';
import { compareWithReference as compare } from '../differential/compare.js';
import { referenceAvailable } from '../differential/reference.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';

const available = referenceAvailable();
// CI installs python3-protobuf and protobuf-compiler (.ci/run), so there the test always runs.
const mustRun = Boolean(process.env.CI);

describe.skipIf(!available.ok && !mustRun)(`corpus: differential vs Python text_format${available.ok ? '' : ` (skipped: ${available.reason})`}`, () => {
  const rows = corpusRows().filter((r) => r.kind !== 'template');

  it('agrees on every corpus config as written', () => {
    const docs = rows.map((r) => parseConfig(readCorpusFile(r), r.file));
    compare(
      rows.map(readCorpusFile),
      docs.map((d) => d.value as Record<string, unknown>),
      (i) => rows[i]!.file,
    );
  });

  it('parses what tritonc prints and formats from the corpus into the same message', () => {
    const docs = rows.map((r) => parseConfig(readCorpusFile(r), r.file));
    const printed = docs.map((d) => printConfig(d.value));
    compare(
      printed,
      docs.map((d) => d.value as Record<string, unknown>),
      (i) => `print(${rows[i]!.file})`,
    );
    const formatted = rows.map((r) => {
      const f = formatText(readCorpusFile(r), r.file);
      if (f.status !== 'formatted') throw new Error(`${r.file}: ${f.status}`);
      return f.output;
    });
    compare(
      formatted,
      docs.map((d) => d.value as Record<string, unknown>),
      (i) => `fmt(${rows[i]!.file})`,
    );
  });
});

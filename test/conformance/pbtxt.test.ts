// Conformance on the shared corpus of 695 real Triton configs.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import { valuesEqual } from '../../src/pbtxt/equal.js';
import { formatText } from '../../src/config/format.js';
import { tokenize } from '../../src/pbtxt/lexer.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';

const rows = corpusRows();
const parseable = rows.filter((r) => r.kind !== 'template');
const commentsOf = (text: string): string[] =>
  tokenize(text)
    .comments.map((c) => c.text.trimEnd())
    .sort();

describe('corpus', () => {
  it('has the rows the manifest promises', () => {
    expect(rows.length).toBe(695);
    expect(parseable.length).toBe(686);
  });

  it('parses every valid, invalid and unknown config without a diagnostic', () => {
    const failures = parseable
      .map((r) => ({ file: r.file, diagnostics: parseConfig(readCorpusFile(r), r.file).diagnostics }))
      .filter((x) => x.diagnostics.length)
      .map((x) => `${x.file}: ${x.diagnostics[0]!.message}`);
    expect(failures).toEqual([]);
  });

  it('fails each template whose placeholder stands outside a string, at the placeholder', () => {
    const templates = rows.filter((r) => r.kind === 'template');
    let failing = 0;
    for (const r of templates) {
      const expected = /FAILS: (\d+):(\d+)/.exec(r.note);
      const doc = parseConfig(readCorpusFile(r), r.file);
      if (!expected) {
        // The placeholder sits inside strings only: it parses.
        expect(doc.diagnostics, r.file).toEqual([]);
        continue;
      }
      failing++;
      const first = doc.diagnostics[0];
      expect(first, r.file).toBeDefined();
      expect(`${first!.range.start.line}:${first!.range.start.column}`, r.file).toBe(`${expected[1]}:${expected[2]}`);
    }
    expect(failing).toBe(8);
  });

  it('print(parse(x)) re-parses to the same value for every config', () => {
    const failures: string[] = [];
    for (const r of parseable) {
      const doc = parseConfig(readCorpusFile(r), r.file);
      const again = parseConfig(printConfig(doc.value), r.file);
      if (again.diagnostics.length || !valuesEqual(doc.value, again.value)) failures.push(r.file);
    }
    expect(failures).toEqual([]);
  });

  for (const canonical of [false, true]) {
    const how = canonical ? 'fmt --canonical' : 'fmt';
    it(`${how} keeps every comment and the value, and is idempotent (stable), for every config`, () => {
      const failures: string[] = [];
      let changed = 0;
      for (const r of parseable) {
        const text = readCorpusFile(r);
        const once = formatText(text, r.file, { canonical });
        if (once.status !== 'formatted') {
          failures.push(`${r.file}: ${once.status}`);
          continue;
        }
        if (once.changed) changed++;
        expect(commentsOf(once.output), r.file).toEqual(commentsOf(text));
        const again = parseConfig(once.output, r.file);
        if (!valuesEqual(parseConfig(text, r.file).value, again.value)) failures.push(`${r.file}: the value changed`);
        const twice = formatText(once.output, r.file, { canonical });
        if (twice.status !== 'formatted' || twice.changed) failures.push(`${r.file}: not idempotent`);
      }
      expect(failures).toEqual([]);
      console.log(`corpus: ${parseable.length} configs formatted by ${how}, ${changed} changed, every comment kept`);
    });
  }

  it('fmt (layout only, the default) changes no file beyond whitespace: the same tokens, in the same order', () => {
    const tokens = (text: string): string[] => tokenize(text).tokens.map((t) => t.text);
    const beyond: string[] = [];
    for (const r of parseable) {
      const text = readCorpusFile(r);
      const out = formatText(text, r.file);
      if (out.status !== 'formatted') continue;
      const [a, b] = [tokens(text), tokens(out.output)];
      const at = a.findIndex((t, i) => t !== b[i]);
      if (at >= 0 || a.length !== b.length) beyond.push(`${r.file}: token ${at}: ${JSON.stringify(a[at])} became ${JSON.stringify(b[at])}`);
    }
    expect(beyond).toEqual([]);
  });
});

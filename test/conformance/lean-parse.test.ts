// Over the corpus of real configs: the lean parse (what lint reads) gives the full parse's value and
// diagnostics, and locates every value path where the full tree does; the clean parse under it reads
// every config that has nothing to report, to the tree parser's value.
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import { parseText } from '../../src/pbtxt/parser.js';
import { expectCleanAgreesWithTree } from '../support/clean-parse.js';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { expectSameAsFull } from '../support/lean-parse.js';

describe('lean parse over the corpus', () => {
  it('matches the full parse on every config', () => {
    for (const row of corpusRows()) expectSameAsFull(readCorpusFile(row));
  });

  it('reads every clean config without the tree parser, and no other', () => {
    const schema = loadSchema().modelConfig;
    const notRead: string[] = [];
    for (const row of corpusRows()) {
      const text = readCorpusFile(row);
      const read = expectCleanAgreesWithTree(text);
      if (!read && parseText(text, schema).diagnostics.length === 0) notRead.push(row.file);
    }
    expect(notRead).toEqual([]);
  });
});

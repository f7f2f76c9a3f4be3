// Over the corpus of real configs: the lean parse (what lint reads) gives the full parse's value and
// diagnostics, and locates every value path where the full tree does.
import { describe, it } from 'vitest';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { expectSameAsFull } from '../support/lean-parse.js';

describe('lean parse over the corpus', () => {
  it('matches the full parse on every config', () => {
    for (const row of corpusRows()) expectSameAsFull(readCorpusFile(row));
  });
});

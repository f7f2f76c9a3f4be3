// The corpus of real Triton configs and its manifest, for the conformance suites only: vitest runs
// test/conformance/ only when the corpus is there (vitest.config.ts), so importing this elsewhere is a bug.
import { readFileSync } from 'node:fs';
import { locateCorpus } from './corpus-location.js';

const location = locateCorpus();
if (!location.found) throw new Error(`the conformance suites need the corpus: ${location.reason}`);
export const CORPUS_DIR = `${location.dir}/`;

export interface CorpusRow {
  file: string;
  repo: string;
  kind: 'valid' | 'invalid' | 'template' | 'unknown';
  expectedError: string;
  note: string;
  path: string;
}

export function corpusRows(): CorpusRow[] {
  const lines = readFileSync(`${CORPUS_DIR}MANIFEST.tsv`, 'utf8').trimEnd().split('\n').slice(1);
  return lines.map((line) => {
    const [file = '', repo = '', , kind = '', expectedError = '', note = ''] = line.split('\t');
    return { file, repo, kind: kind as CorpusRow['kind'], expectedError, note, path: `${CORPUS_DIR}${file}` };
  });
}

export function readCorpusFile(row: CorpusRow): string {
  return readFileSync(row.path, 'utf8');
}

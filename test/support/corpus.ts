// The shared corpus of real Triton configs (../shared/corpus/triton-configs) and its manifest.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = fileURLToPath(new URL('../../../shared/corpus/triton-configs/', import.meta.url));

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

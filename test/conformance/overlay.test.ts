// Overlay == disk over the corpus: every real config, laid over the disk as unsaved text, gets the
// findings it gets when saved at the same path.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusRows, readCorpusFile } from '../support/corpus.js';
import { tempDir } from '../support/cli.js';
import { diskAndOverlay } from '../support/overlay.js';

describe('corpus: overlay == disk', () => {
  const rows = corpusRows();
  it(`${rows.length} configs`, () => {
    const repo = tempDir('tritonc-overlay-');
    const wrong: string[] = [];
    let findings = 0;
    rows.forEach((row, i) => {
      const dir = join(repo, `${i}`, basename(dirname(row.path)));
      mkdirSync(dir, { recursive: true });
      const { disk, overlay } = diskAndOverlay(join(dir, 'config.pbtxt'), readCorpusFile(row), undefined);
      findings += disk.length;
      if (JSON.stringify(disk) !== JSON.stringify(overlay)) wrong.push(row.file);
    });
    expect(wrong).toEqual([]);
    expect(findings).toBeGreaterThan(rows.length);
  });
});

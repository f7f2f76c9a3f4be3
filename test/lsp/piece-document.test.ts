// The server's document (src/lsp/piece-document.ts) against the library's own (vscode-languageserver-
// textdocument's TextDocument, which it stands in for): the same edits, the same text, positions,
// offsets and line counts after each, including ranges past a line's end, reversed ranges and CRLF.
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { PieceDocuments, documentLength } from '../../src/lsp/piece-document.js';
import { seededRandom } from '../../src/util/seeded-random.js';

// 'p\n' x 12: a paste of more lines than the document splices in one by one.
const SNIPPETS = ['', 'a', 'max_batch_size: 8', '\n', '\r\n', '\r', 'input [ {\n  name: "x"\n} ]\n', 'é', '😀', 'x\r\ny\rz\n', 'p\n'.repeat(12)];

describe('the piece document: what the library document gives, edit by edit', () => {
  for (const seed of Array.from({ length: 16 }, (_, i) => i + 1)) {
    it(`seed ${seed}: 400 random edits`, () => {
      const next = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
      const initial = 'name: "m"\r\nbackend: "onnxruntime"\nmax_batch_size: 8\n\ninput [ ]\n';
      const ref = TextDocument.create('file:///m/config.pbtxt', 'pbtxt', 1, initial);
      const ours = PieceDocuments.create('file:///m/config.pbtxt', 'pbtxt', 1, initial);
      const position = () => ({ line: Math.floor(next() * (ref.lineCount + 2)) - 1, character: Math.floor(next() * 30) - 2 });
      for (let v = 2; v < 402; v++) {
        const changes: TextDocumentContentChangeEvent[] = [];
        const count = 1 + Math.floor(next() * 3);
        for (let c = 0; c < count; c++)
          changes.push(next() < 0.02 ? { text: pick(SNIPPETS) + pick(SNIPPETS) } : { range: { start: position(), end: position() }, text: pick(SNIPPETS) });
        TextDocument.update(ref, changes, v);
        PieceDocuments.update(ours, changes, v);
        expect(ours.version).toBe(v);
        // Read positions before the whole text half of the time: the pieces answer them unjoined.
        if (next() < 0.5) {
          for (let k = 0; k < 5; k++) {
            const p = position();
            expect([v, ours.offsetAt(p)]).toEqual([v, ref.offsetAt(p)]);
            const range = { start: position(), end: position() };
            expect([v, ours.getText(range)]).toEqual([v, ref.getText(range)]);
          }
        }
        expect([v, ours.lineCount]).toEqual([v, ref.lineCount]);
        expect([v, documentLength(ours)]).toEqual([v, ref.getText().length]);
        expect([v, ours.getText()]).toEqual([v, ref.getText()]);
        const length = ref.getText().length;
        for (let k = 0; k < 5; k++) {
          const offset = Math.floor(next() * (length + 4)) - 2;
          expect([v, offset, ours.positionAt(offset)]).toEqual([v, offset, ref.positionAt(offset)]);
        }
      }
    });
  }

  it('keeps the pieces when edited for long without a read, and reads right after', () => {
    const ref = TextDocument.create('file:///a', 'pbtxt', 1, 'x'.repeat(1000));
    const ours = PieceDocuments.create('file:///a', 'pbtxt', 1, 'x'.repeat(1000));
    for (let v = 2; v < 3000; v++) {
      const change = { range: { start: { line: 0, character: v % 997 }, end: { line: 0, character: v % 997 } }, text: String(v % 10) };
      TextDocument.update(ref, [change], v);
      PieceDocuments.update(ours, [change], v);
    }
    expect(ours.getText()).toBe(ref.getText());
  });

  it('refuses a document it did not make', () => {
    expect(() => PieceDocuments.update(TextDocument.create('file:///a', 'pbtxt', 1, ''), [], 2)).toThrow(/not a document PieceDocuments made/);
  });
});

import { it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PieceDocuments } from '../../src/lsp/piece-document.js';
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => { a = (a + 0x6d2b79f5) >>> 0; let t = a; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}
const SNIPPETS = ['', 'a', 'max_batch_size: 8', '\n', '\r\n', '\r', 'input [ {\n  name: "x"\n} ]\n', 'é', '😀', 'x\r\ny\rz\n'];
it('dbg', () => {
  const next = random(2);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const initial = 'name: "m"\r\nbackend: "onnxruntime"\nmax_batch_size: 8\n\ninput [ ]\n';
  const ref = TextDocument.create('u', 'p', 1, initial);
  const ours = PieceDocuments.create('u', 'p', 1, initial);
  const position = () => ({ line: Math.floor(next() * (ref.lineCount + 2)) - 1, character: Math.floor(next() * 30) - 2 });
  for (let v = 2; v < 31; v++) {
    const changes: any[] = [];
    const count = 1 + Math.floor(next() * 3);
    for (let c = 0; c < count; c++) changes.push(next() < 0.02 ? { text: pick(SNIPPETS) + pick(SNIPPETS) } : { range: { start: position(), end: position() }, text: pick(SNIPPETS) });
    TextDocument.update(ref, changes, v);
    PieceDocuments.update(ours, changes, v);
    if (next() < 0.5) {
      for (let k = 0; k < 5; k++) {
        const p = position();
        const a = ours.offsetAt(p), b = ref.offsetAt(p);
        const range = { start: position(), end: position() };
        const x = ours.getText(range), y = ref.getText(range);
        if (a !== b || x !== y) console.log('DIFF', v, JSON.stringify(p), a, b, JSON.stringify(range), JSON.stringify(x), JSON.stringify(y), 'offs', ours.offsetAt(range.start), ours.offsetAt(range.end), ref.offsetAt(range.start), ref.offsetAt(range.end), JSON.stringify((ours as any).pieces), (ours as any).size, JSON.stringify((ref as any)._content), JSON.stringify((ref as any)._lineOffsets));
      }
    }
    ours.lineCount; if (ours.getText() !== ref.getText()) console.log('TEXT', v);
    const length = ref.getText().length;
    for (let k = 0; k < 5; k++) { const offset = Math.floor(next() * (length + 4)) - 2; ours.positionAt(offset); }
  }
});

// sed-style template markers: configs kept as templates that a script fills with sed before Triton
// reads them (wenet-e2e/wenet runtime/gpu/model_repo/*/config_template.pbtxt: `dims: [-1, #num_mel_bins]`,
// `data_type: TYPE_#DTYPE`, filled by `sed -i "s|#num_mel_bins|80|g"`). In the text format `#` starts a
// comment, so the parser sees a value cut off there and reports a cascade of syntax errors. A marker is
// a `#<identifier>` where a value goes: right after `:`, `[` or `,` on the same line, or glued to the
// identifier before it (TYPE_#DTYPE). Only candidates: the parser reads them as markers only when that
// leaves no error but the markers themselves (parser.ts parseText).
import { Lexer, isLetter, type MarkerOffsets } from './lexer.js';

const VALUE_BEFORE = new Set([':', '[', ',']);

/** Whether only spaces and tabs stand between `from` and `to` (read backwards from `to`: each blank once). */
function blanksBetween(text: string, from: number, to: number): boolean {
  let k = to;
  while (k > from && (text[k - 1] === ' ' || text[k - 1] === '\t')) k--;
  return k === from;
}

/** The offsets of the `#` of each candidate marker; one linear scan, no token kept. */
export function templateMarkers(text: string): Set<number> {
  const markers = new Set<number>();
  // Cheap refusal: no `#` is followed by a letter or `_`.
  if (!/#[A-Za-z_]/.test(text)) return markers;
  let prev: { type: string; text: string; end: number } | undefined;
  // Decided as the scan reaches each `#`, so a marker's rest of line is scanned as tokens, and a marker
  // after it on the same line (dims: [#a, #b]) is found too.
  const candidate: MarkerOffsets = {
    has(offset, glued) {
      const c = text.charCodeAt(offset + 1);
      if (!isLetter(c)) return false;
      const ok = glued || (prev !== undefined && prev.type === 'symbol' && VALUE_BEFORE.has(prev.text) && blanksBetween(text, prev.end, offset));
      if (ok) markers.add(offset);
      return ok;
    },
  };
  const lexer = new Lexer(text, undefined, candidate);
  for (;;) {
    const t = lexer.next();
    if (t.type === 'eof') break;
    prev = { type: t.type, text: t.text, end: t.end };
  }
  return markers;
}

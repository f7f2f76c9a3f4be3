// sed-style template markers: configs kept as templates that a script fills with sed before Triton
// reads them (wenet-e2e/wenet runtime/gpu/model_repo/*/config_template.pbtxt: `dims: [-1, #num_mel_bins]`,
// `data_type: TYPE_#DTYPE`, filled by `sed -i "s|#num_mel_bins|80|g"`). In the text format `#` starts a
// comment, so the parser sees a value cut off there and reports a cascade of syntax errors. A marker is
// a comment that starts `#<identifier>` where a value goes: right after `:`, `[` or `,` on the same
// line, or glued to the identifier before it (TYPE_#DTYPE). Only candidates: the parser reads them as
// markers only when that leaves no error but the markers themselves (parser.ts parseText).
import { Lexer } from './lexer.js';

const MARKER = /^#[A-Za-z_]\w*/;
const VALUE_BEFORE = new Set([':', '[', ',']);

/** The offsets of the `#` of each candidate marker; one linear scan, no token kept. */
export function templateMarkers(text: string): Set<number> {
  const markers = new Set<number>();
  // Cheap refusal: no comment starts with a letter or `_` right after `#`.
  if (!/#[A-Za-z_]/.test(text)) return markers;
  const lexer = new Lexer(text);
  let prev: { type: string; text: string; end: number; line: number } | undefined;
  let seen = 0;
  for (;;) {
    const t = lexer.next();
    for (; seen < lexer.comments.length; seen++) {
      const c = lexer.comments[seen]!;
      if (!prev || !MARKER.test(c.text)) continue;
      const glued = prev.type === 'ident' && prev.end === c.range.start.offset;
      const afterValueStart = prev.type === 'symbol' && VALUE_BEFORE.has(prev.text) && prev.line === c.range.start.line;
      if (glued || afterValueStart) markers.add(c.range.start.offset);
    }
    if (t.type === 'eof') break;
    prev = { type: t.type, text: t.text, end: t.end, line: t.line };
  }
  return markers;
}

// An editor's expansion of an LSP snippet with every tab stop left at its default, for tests of the
// snippets the language server offers: the grammar of LSP 3.17's "Snippet Syntax"
// (specification-3-17.md#snippet_syntax): `$n` and `${n}` tab stops (empty), `${n:placeholder}`
// (placeholders nest), `${n|one,two|}` choices (the first is what the editor inserts), and `\` escaping
// `$`, `}` and `\` (and `,` and `|` inside a choice). Variables (`$TM_FILENAME`) are not used by
// tritonc's snippets and are refused here.
export function expandSnippet(body: string): string {
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`snippet: ${why} at ${i}: ${JSON.stringify(body.slice(Math.max(0, i - 20), i + 20))}`);
  };
  // Text up to `stop` (a character that ends the enclosing construct), placeholders expanded.
  const text = (stops: string): string => {
    let out = '';
    while (i < body.length && !stops.includes(body[i]!)) {
      const c = body[i]!;
      if (c === '\\' && i + 1 < body.length && '$}\\,|'.includes(body[i + 1]!)) {
        out += body[i + 1];
        i += 2;
      } else if (c === '$') {
        out += tabStop();
      } else {
        out += c;
        i++;
      }
    }
    return out;
  };
  const tabStop = (): string => {
    i++; // $
    const simple = /^\d+/.exec(body.slice(i));
    if (simple) {
      i += simple[0].length;
      return '';
    }
    if (body[i] !== '{') fail('a variable or a lone $');
    i++;
    const n = /^\d+/.exec(body.slice(i));
    if (!n) fail('a tab stop without a number');
    i += n![0].length;
    if (body[i] === '}') return (i++, '');
    if (body[i] === ':') {
      i++;
      const inner = text('}');
      if (body[i] !== '}') fail('an unclosed placeholder');
      i++;
      return inner;
    }
    if (body[i] === '|') {
      i++;
      const options: string[] = [];
      for (;;) {
        options.push(text(',|'));
        if (body[i] === ',') i++;
        else break;
      }
      if (body.slice(i, i + 2) !== '|}') fail('an unclosed choice');
      i += 2;
      return options[0]!;
    }
    return fail('an unknown tab stop form');
  };
  const out = text('');
  return out;
}

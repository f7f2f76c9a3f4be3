// Python's string.Template, as fill_template.py uses it (Template(text).safe_substitute(mapping)):
// `$$` is a literal `$`, `$name` and `${name}` are placeholders (name: an ASCII letter or `_`, then
// letters, digits, `_`; letters of either case), and anything else after `$` is left as written.
// CPython Lib/string.py: class Template (delimiter '$', idpattern r'(?a:[_a-z][_a-z0-9]*)' with
// re.IGNORECASE; the pattern's alternatives escaped | named | braced | invalid, tried in that order),
// and Template.safe_substitute (a placeholder not in the mapping keeps its text; so does an invalid one).

/** One `$` occurrence of the template, as the pattern reads it. */
export interface TemplateToken {
  kind: 'escaped' | 'named' | 'braced' | 'invalid';
  /** The identifier of a named or braced placeholder. */
  name?: string;
  /** Offsets of the whole match (`$name`, `${name}`, `$$`, or the lone `$`). */
  start: number;
  end: number;
}

// The alternatives in the order Python's pattern tries them; the last matches the empty string.
const PATTERN = /\$(?:(\$)|([_a-zA-Z][_a-zA-Z0-9]*)|\{([_a-zA-Z][_a-zA-Z0-9]*)\}|())/g;

export function templateTokens(text: string): TemplateToken[] {
  const tokens: TemplateToken[] = [];
  for (const m of text.matchAll(PATTERN)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1] !== undefined) tokens.push({ kind: 'escaped', start, end });
    else if (m[2] !== undefined) tokens.push({ kind: 'named', name: m[2], start, end });
    else if (m[3] !== undefined) tokens.push({ kind: 'braced', name: m[3], start, end });
    else tokens.push({ kind: 'invalid', start, end });
  }
  return tokens;
}

/** The names of the template's placeholders, in order of first appearance. */
export function placeholderNames(text: string): string[] {
  return [...new Set(templateTokens(text).flatMap((t) => (t.name ? [t.name] : [])))];
}

/** Template.safe_substitute: the filled text, and the placeholders left because the mapping lacks them. */
export function safeSubstitute(text: string, mapping: ReadonlyMap<string, string>): { text: string; left: TemplateToken[] } {
  let out = '';
  let at = 0;
  const left: TemplateToken[] = [];
  for (const t of templateTokens(text)) {
    out += text.slice(at, t.start);
    at = t.end;
    if (t.kind === 'escaped') out += '$';
    else if (t.name !== undefined && mapping.has(t.name)) out += mapping.get(t.name);
    else {
      if (t.name !== undefined) left.push(t);
      out += text.slice(t.start, t.end);
    }
  }
  return { text: out + text.slice(at), left };
}

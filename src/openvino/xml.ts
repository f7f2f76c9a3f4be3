// A small XML tokenizer, enough for an OpenVINO IR's model.xml (and no more): elements with their
// attributes (either quote), text, the predefined and numeric character references, comments, CDATA
// sections, processing instructions (the <?xml ?> declaration) and a DOCTYPE, which is skipped (its
// internal subset is refused: an IR never has one, and entity declarations are how XML bombs work).
// It calls back per start tag, end tag and text run, so the caller keeps only what it needs; every
// malformed construct throws XmlError with the byte offset where it starts.

export class XmlError extends Error {
  constructor(
    /** Offset in characters of the decoded text (the caller turns it into a byte offset). */
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface XmlHandler {
  /** A start tag (`selfClosing`: `<x/>`, no end tag follows); `at` is the offset of its '<'. */
  open(name: string, attributes: Map<string, string>, at: number, selfClosing: boolean): void;
  /** An end tag (or the end of a self-closing one); `at` is the offset of its '<'. */
  close(name: string, at: number): void;
  /** Character data, references resolved (CDATA included), between tags. */
  text?(text: string, at: number): void;
}

/** XML NameStartChar, simplified to ASCII letters, '_', ':' and everything from U+00C0 on. */
const isNameStart = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a || c >= 0xc0;
/** NameChar: a NameStartChar, a digit, '-', '.' or U+00B7. */
const isNameChar = (c: number): boolean => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0xb7;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Resolves the character references in `raw` (text or an attribute value found at `at`). */
export function decodeEntities(raw: string, at: number): string {
  if (!raw.includes('&')) return raw;
  let out = '';
  let i = 0;
  for (;;) {
    const amp = raw.indexOf('&', i);
    if (amp < 0) return out + raw.slice(i);
    out += raw.slice(i, amp);
    const semi = raw.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) throw new XmlError(at + amp, "an '&' that starts no character reference (write &amp;)");
    const ref = raw.slice(amp + 1, semi);
    if (ref.startsWith('#')) {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      const digits = ref.slice(hex ? 2 : 1);
      const code = /^[0-9]+$/.test(digits) && !hex ? Number(digits) : hex && /^[0-9A-Fa-f]+$/.test(digits) ? parseInt(digits, 16) : NaN;
      if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw new XmlError(at + amp, `the character reference &${ref}; names no character`);
      }
      out += String.fromCodePoint(code);
    } else {
      const ch = PREDEFINED[ref];
      if (ch === undefined) throw new XmlError(at + amp, `the entity &${ref}; is not one XML predefines (an IR uses none other)`);
      out += ch;
    }
    i = semi + 1;
  }
}

/** Tokenizes `text`, calling `handler`; checks that tags nest and that there is one root element. */
export function tokenize(text: string, handler: XmlHandler): void {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open: { name: string; at: number }[] = [];
  let roots = 0;

  const name = (from: number): number => {
    if (from >= n || !isNameStart(text.charCodeAt(from))) throw new XmlError(from, from >= n ? 'the file ends inside a tag' : `'${text[from]}' cannot start a name here`);
    let j = from + 1;
    while (j < n && isNameChar(text.charCodeAt(j))) j++;
    return j;
  };
  const spaces = (from: number): number => {
    let j = from;
    for (let c = text.charCodeAt(j); j < n && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d); c = text.charCodeAt(++j));
    return j;
  };
  const until = (from: number, end: string, what: string, startAt: number): number => {
    const k = text.indexOf(end, from);
    if (k < 0) throw new XmlError(startAt, `${what} is never closed (no '${end}')`);
    return k;
  };

  while (i < n) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const raw = text.slice(i, textEnd);
      if (open.length === 0) {
        if (raw.trim() !== '') throw new XmlError(i + raw.search(/\S/), 'text outside the root element');
      } else handler.text?.(decodeEntities(raw, i), i);
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      i = until(i + 4, '-->', 'a comment', i) + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      if (open.length === 0) throw new XmlError(i, 'a CDATA section outside the root element');
      const end = until(i + 9, ']]>', 'a CDATA section', i);
      handler.text?.(text.slice(i + 9, end), i);
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      i = until(i + 2, '?>', 'a processing instruction', i) + 2;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const end = until(i, '>', 'the DOCTYPE', i);
      if (text.slice(i, end).includes('[')) throw new XmlError(i, 'a DOCTYPE with an internal subset (entity declarations), which an OpenVINO IR never has');
      i = end + 1;
    } else if (text[i + 1] === '/') {
      const at = i;
      const end = name(i + 2);
      const tag = text.slice(i + 2, end);
      const k = spaces(end);
      if (text[k] !== '>') throw new XmlError(k, k >= n ? 'the file ends inside an end tag' : `expected '>' to end </${tag}>`);
      const top = open.pop();
      if (!top) throw new XmlError(at, `the end tag </${tag}> closes nothing`);
      if (top.name !== tag) throw new XmlError(at, `the end tag </${tag}> does not match <${top.name}> (opened at character ${top.at})`);
      handler.close(tag, at);
      i = k + 1;
    } else {
      const at = i;
      const end = name(i + 1);
      const tag = text.slice(i + 1, end);
      const attributes = new Map<string, string>();
      let j = end;
      for (;;) {
        const k = spaces(j);
        if (k >= n) throw new XmlError(at, `the file ends inside <${tag}>`);
        if (text[k] === '>' || text.startsWith('/>', k)) {
          j = k;
          break;
        }
        if (k === j) throw new XmlError(k, `expected a space, '>' or '/>' in <${tag}>`);
        const nameEnd = name(k);
        const attr = text.slice(k, nameEnd);
        let e = spaces(nameEnd);
        if (text[e] !== '=') throw new XmlError(e, `the attribute ${attr} of <${tag}> has no '=' value`);
        e = spaces(e + 1);
        const quote = text[e];
        if (quote !== '"' && quote !== "'") throw new XmlError(e, `the value of ${attr} in <${tag}> is not quoted`);
        const close = text.indexOf(quote, e + 1);
        if (close < 0) throw new XmlError(e, `the value of ${attr} in <${tag}> is never closed`);
        const raw = text.slice(e + 1, close);
        if (raw.includes('<')) throw new XmlError(e + 1 + raw.indexOf('<'), `'<' inside the value of ${attr} in <${tag}> (write &lt;)`);
        if (attributes.has(attr)) throw new XmlError(k, `<${tag}> has the attribute ${attr} twice`);
        // Attribute-value normalization: each white-space character becomes a space.
        attributes.set(attr, decodeEntities(raw, e + 1).replace(/[\t\n\r]/g, ' '));
        j = close + 1;
      }
      const selfClosing = text[j] === '/';
      if (open.length === 0) {
        if (roots++ > 0) throw new XmlError(at, `a second root element <${tag}>`);
      }
      handler.open(tag, attributes, at, selfClosing);
      if (selfClosing) handler.close(tag, at);
      else open.push({ name: tag, at });
      i = j + (selfClosing ? 2 : 1);
    }
  }
  const top = open.pop();
  if (top) throw new XmlError(top.at, `<${top.name}> is never closed (the file ends first)`);
  if (roots === 0) throw new XmlError(0, 'there is no root element');
}

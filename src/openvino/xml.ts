// A small XML tokenizer, enough for an OpenVINO IR's model.xml (and no more): elements with their
// attributes (either quote), text, the predefined and numeric character references, comments, CDATA
// sections, processing instructions (the <?xml ?> declaration) and a DOCTYPE, which is skipped (its
// internal subset is refused: an IR never has one, and entity declarations are how XML bombs work).
// It calls back per start tag, end tag and text run, so the caller keeps only what it needs; every
// malformed construct throws XmlError with the byte offset where it starts.
import type { PlacedMessage } from '../model-file/messages.js';

export class XmlError extends Error {
  constructor(
    /** Offset in characters of the decoded text (the caller turns it into a byte offset). */
    readonly at: number,
    /** What is wrong, by its message id (model-file/messages.ts), with its values. */
    readonly problem: PlacedMessage,
  ) {
    super(problem.messageId);
  }
}

/** Where a construct opened at `startAt` is never closed. */
type Unclosed = 'openvinoXmlCommentOpen' | 'openvinoXmlCdataOpen' | 'openvinoXmlPiOpen' | 'openvinoXmlDoctypeOpen';

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
/** XML's five predefined entities, the only named ones an IR may use (a Map: "constructor" is no entity). */
const PREDEFINED: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

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
    if (semi < 0 || semi - amp > 12) throw new XmlError(at + amp, { messageId: 'openvinoXmlAmpersand', data: {} });
    const ref = raw.slice(amp + 1, semi);
    if (ref.startsWith('#')) {
      const hex = ref[1] === 'x' || ref[1] === 'X';
      const digits = ref.slice(hex ? 2 : 1);
      const code = /^[0-9]+$/.test(digits) && !hex ? Number(digits) : hex && /^[0-9A-Fa-f]+$/.test(digits) ? parseInt(digits, 16) : NaN;
      if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw new XmlError(at + amp, { messageId: 'openvinoXmlCharRef', data: { ref } });
      }
      out += String.fromCodePoint(code);
    } else {
      const ch = PREDEFINED.get(ref);
      if (ch === undefined) throw new XmlError(at + amp, { messageId: 'openvinoXmlEntity', data: { ref } });
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
    if (from >= n || !isNameStart(text.charCodeAt(from)))
      throw new XmlError(
        from,
        from >= n ? { messageId: 'openvinoXmlEndsInTag', data: {} } : { messageId: 'openvinoXmlNameStart', data: { char: text[from]! } },
      );
    let j = from + 1;
    while (j < n && isNameChar(text.charCodeAt(j))) j++;
    return j;
  };
  const spaces = (from: number): number => {
    let j = from;
    for (let c = text.charCodeAt(j); j < n && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d); c = text.charCodeAt(++j));
    return j;
  };
  const until = (from: number, end: string, unclosed: Unclosed, startAt: number): number => {
    const k = text.indexOf(end, from);
    if (k < 0) throw new XmlError(startAt, { messageId: unclosed, data: {} });
    return k;
  };

  while (i < n) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const raw = text.slice(i, textEnd);
      if (open.length === 0) {
        if (raw.trim() !== '') throw new XmlError(i + raw.search(/\S/), { messageId: 'openvinoXmlTextOutside', data: {} });
      } else handler.text?.(decodeEntities(raw, i), i);
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      i = until(i + 4, '-->', 'openvinoXmlCommentOpen', i) + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      if (open.length === 0) throw new XmlError(i, { messageId: 'openvinoXmlCdataOutside', data: {} });
      const end = until(i + 9, ']]>', 'openvinoXmlCdataOpen', i);
      handler.text?.(text.slice(i + 9, end), i);
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      i = until(i + 2, '?>', 'openvinoXmlPiOpen', i) + 2;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      const end = until(i, '>', 'openvinoXmlDoctypeOpen', i);
      if (text.slice(i, end).includes('[')) throw new XmlError(i, { messageId: 'openvinoXmlDoctypeSubset', data: {} });
      i = end + 1;
    } else if (text[i + 1] === '/') {
      const at = i;
      const end = name(i + 2);
      const tag = text.slice(i + 2, end);
      const k = spaces(end);
      if (text[k] !== '>')
        throw new XmlError(k, k >= n ? { messageId: 'openvinoXmlEndsInEndTag', data: {} } : { messageId: 'openvinoXmlEndTagOpen', data: { tag } });
      const top = open.pop();
      if (!top) throw new XmlError(at, { messageId: 'openvinoXmlEndTagNothing', data: { tag } });
      if (top.name !== tag) throw new XmlError(at, { messageId: 'openvinoXmlEndTagMismatch', data: { tag, open: top.name, openAt: top.at } });
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
        if (k >= n) throw new XmlError(at, { messageId: 'openvinoXmlEndsInStartTag', data: { tag } });
        if (text[k] === '>' || text.startsWith('/>', k)) {
          j = k;
          break;
        }
        if (k === j) throw new XmlError(k, { messageId: 'openvinoXmlExpectedSpace', data: { tag } });
        const nameEnd = name(k);
        const attr = text.slice(k, nameEnd);
        let e = spaces(nameEnd);
        if (text[e] !== '=') throw new XmlError(e, { messageId: 'openvinoXmlAttributeNoValue', data: { attribute: attr, tag } });
        e = spaces(e + 1);
        const quote = text[e];
        if (quote !== '"' && quote !== "'") throw new XmlError(e, { messageId: 'openvinoXmlAttributeUnquoted', data: { attribute: attr, tag } });
        const close = text.indexOf(quote, e + 1);
        if (close < 0) throw new XmlError(e, { messageId: 'openvinoXmlAttributeOpen', data: { attribute: attr, tag } });
        const raw = text.slice(e + 1, close);
        if (raw.includes('<')) throw new XmlError(e + 1 + raw.indexOf('<'), { messageId: 'openvinoXmlLtInAttribute', data: { attribute: attr, tag } });
        if (attributes.has(attr)) throw new XmlError(k, { messageId: 'openvinoXmlAttributeTwice', data: { attribute: attr, tag } });
        // Attribute-value normalization: each white-space character becomes a space.
        attributes.set(attr, decodeEntities(raw, e + 1).replace(/[\t\n\r]/g, ' '));
        j = close + 1;
      }
      const selfClosing = text[j] === '/';
      if (open.length === 0) {
        if (roots++ > 0) throw new XmlError(at, { messageId: 'openvinoXmlSecondRoot', data: { tag } });
      }
      handler.open(tag, attributes, at, selfClosing);
      if (selfClosing) handler.close(tag, at);
      else open.push({ name: tag, at });
      i = j + (selfClosing ? 2 : 1);
    }
  }
  const top = open.pop();
  if (top) throw new XmlError(top.at, { messageId: 'openvinoXmlNeverClosed', data: { tag: top.name } });
  if (roots === 0) throw new XmlError(0, { messageId: 'openvinoXmlNoRoot', data: {} });
}

// JSON files users write (settings, the lock, a vLLM model.json): parsed with where a syntax error is,
// and where each top-level key stands, so a finding can point into the file.

import { positionAt, type TextPosition } from './text-position.js';

export type JsonRead = { ok: true; value: unknown } | { ok: false; at: TextPosition; message: string };

/** JSON.parse, with V8's "at position N" turned into line and column (the end of the text when it gives none). */
export function parseJsonText(text: string): JsonRead {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const raw = (e as Error).message;
    const m = /at position (\d+)/.exec(raw);
    const message = raw.replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/^JSON\.parse: /, '').replace(/,\s*".*" is not valid JSON$/, '');
    return { ok: false, at: positionAt(text, m ? Number(m[1]) : text.length), message };
  }
}

export interface JsonKeyRange {
  /** Offsets of the key's string (quotes included) and of its value. */
  key: { start: number; end: number };
  value: { start: number; end: number };
}

/** Where each key of a top-level object is written (the last one of a repeated key, as JSON.parse keeps it). */
export function topLevelKeys(text: string): Map<string, JsonKeyRange> {
  const keys = new Map<string, JsonKeyRange>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const skipString = () => {
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    ws();
    if (text[i] === '"') return skipString();
    if (text[i] === '{' || text[i] === '[') {
      let depth = 0;
      while (i < text.length) {
        const c = text[i]!;
        if (c === '"') {
          skipString();
          continue;
        }
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') depth--;
        i++;
        if (depth === 0) return;
      }
      return;
    }
    while (i < text.length && !/[,}\]\s]/.test(text[i]!)) i++;
  };
  ws();
  if (text[i] !== '{') return keys;
  i++;
  for (;;) {
    ws();
    if (text[i] !== '"') return keys;
    const keyStart = i;
    skipString();
    const keyEnd = i;
    let name: string;
    try {
      name = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    } catch {
      return keys;
    }
    ws();
    if (text[i] !== ':') return keys;
    i++;
    ws();
    const valueStart = i;
    skipValue();
    keys.set(name, { key: { start: keyStart, end: keyEnd }, value: { start: valueStart, end: i } });
    ws();
    if (text[i] !== ',') return keys;
    i++;
  }
}

// `tritonc fmt` on a config file: the pbtxt formatting core over Triton's ModelConfig schema. Layout
// only by default (the author's spellings kept); `canonical` rewrites to the one canonical spelling.
import { plainText, withLineEnds } from '../util/line-ends.js';
import { formatParsed, type FormatOptions, type FormatResult } from '../pbtxt/format.js';
import { parseConfig } from './document.js';

export type { FormatOptions, FormatResult };

/** A file whose first line is this comment is left exactly as it is. */
export const FORMAT_OFF = /^\s*#\s*tritonc-fmt:\s*off\b/;

export function formatText(text: string, file = 'config.pbtxt', options: FormatOptions = {}): FormatResult {
  if (FORMAT_OFF.test(text.split('\n', 1)[0] ?? '')) return { status: 'skipped', reason: 'the file starts with "# tritonc-fmt: off"' };
  return formatParsed(
    text,
    { tree: (t) => parseConfig(t, file, { tree: true }), each: (t, onField) => parseConfig(t, file, { onField }), value: (t) => parseConfig(t, file) },
    options,
  );
}

/**
 * A file's text formatted as `tritonc fmt` writes it: line ends kept (a CRLF file stays CRLF), the BOM
 * dropped (Triton's parser refuses it; dropping it is a change).
 */
export function formatFileText(raw: string, file = 'config.pbtxt', options: FormatOptions = {}): FormatResult {
  const { text, ends } = plainText(raw);
  const result = formatText(text, file, options);
  if (result.status !== 'formatted') return result;
  return { ...result, output: withLineEnds(result.output, ends), changed: result.changed || ends.bom };
}

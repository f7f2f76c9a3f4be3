// Text from outside (a file name, an object key, a CSV cell) shown to a person: control characters
// written as escapes, so a name cannot move the cursor, recolour the terminal or split a line of the
// report, and long values cut, so one 200 MB cell is not a 200 MB error message.

/**
 * Control characters (C0, DEL, C1) as `\n`, `\t`, `\r` or `\xHH`, and the invisible characters that
 * reorder or hide text (the zero-width space, direction marks, overrides and isolates: "Trojan Source") as
 * `\uHHHH`; everything else as it is.
 */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A message of several lines for a terminal: control characters escaped, its line breaks kept. */
export function escapeControlKeepingLines(text: string): string {
  return text.split('\n').map(escapeControl).join('\n');
}

/** `text` in double quotes for a message, escaped, and cut past `max` characters with how long it was. */
export function quoted(text: string, max = 80): string {
  if (text.length <= max) return `"${escapeControl(text)}"`;
  return `"${escapeControl(text.slice(0, max))}..." (${text.length.toLocaleString('en-US')} characters)`;
}

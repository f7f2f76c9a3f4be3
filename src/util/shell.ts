// The one way tritonc puts a value into a shell script or a command line it shows: a word bash reads
// back byte for byte. Plain words stay plain; anything else is single-quoted, where bash expands
// nothing ($, backticks, backslashes and newlines are literal), and a single quote is closed, escaped
// and reopened. Values are never placed inside double quotes or a ${VAR:-default}, where bash would
// expand them. Comments get a line of their own with control characters escaped, so a name holding a
// newline cannot end the comment and start a command.

import { escapeControl } from './terminal-text.js';

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `value` as one shell word. */
export function shellQuote(value: string): string {
  return PLAIN.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A path as one shell word a command reads as a path, not a flag (`-odd` is `./-odd`). */
export const shellPath = (path: string): string => shellQuote(path.startsWith('-') ? `./${path}` : path);

/** A command line of shell words. */
export const shellLine = (argv: readonly string[]): string => argv.map(shellQuote).join(' ');

/** A `# ...` comment line showing `text`, with control characters written as escapes. */
export function shellComment(text: string): string {
  return `# ${escapeControl(text)}`;
}

/**
 * A server address as `host:port` (a DNS name, an IPv4 address or a bracketed IPv6 address, and a
 * port from 1 to 65535), or why not. Clients such as perf_analyzer and curl take it as is.
 */
export function checkHostPort(value: string): { ok: true } | { ok: false; why: string } {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})):(\d{1,5})$/.exec(value);
  if (!m) return { ok: false, why: 'is not host:port (a host name or address, a colon, a port number), e.g. localhost:8000' };
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return { ok: false, why: `has port ${m[2]}, outside 1 to 65535` };
  return { ok: true };
}

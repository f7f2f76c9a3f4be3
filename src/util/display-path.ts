// How tritonc shows a path: relative to the working directory (with `/`), or absolute when it lies
// outside it, so /nonexistent is shown as the user typed it, never as ../../nonexistent; a URL as it is.
// To a person (displayPath) with control characters escaped: a file name or an object key can hold
// an escape sequence or a newline, which must neither drive the terminal nor split a report's line.
// Machine formats that escape in their own way (SARIF's URIs, GitHub's workflow commands) take the
// path as it is (reportPath).
import { isAbsolute, relative, sep } from 'node:path';
import { escapeControl } from './terminal-text.js';

export function displayPath(file: string, cwd: string): string {
  return escapeControl(reportPath(file, cwd));
}

/** The path relative to `cwd` as displayPath makes it, its characters as they are. */
export function reportPath(file: string, cwd: string): string {
  // An object in a store (s3://, gs://, as://) is shown as its URL.
  if (isUrl(file)) return file;
  const rel = relative(cwd, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return file.split(sep).join('/');
  return rel.split(sep).join('/');
}

/** An object URL (s3://bucket/repo/m/config.pbtxt), not a path. */
export const isUrl = (p: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//.test(p);

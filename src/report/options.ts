// What every report formatter takes besides the results: where relative paths start, and colour.
import { isAbsolute, relative, sep } from 'node:path';

export interface ReportOptions {
  /** Paths are shown relative to it (default: process.cwd()). */
  cwd?: string;
  /** ANSI colours (stylish only). */
  color?: boolean;
  /** The tool version SARIF names. */
  version?: string;
}

/** A path for display: relative to cwd with `/` separators, absolute when it is outside cwd. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return file.split(sep).join('/');
  return rel.split(sep).join('/');
}

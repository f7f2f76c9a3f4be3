// What every report formatter takes besides the results: where relative paths start, and colour.

export interface ReportOptions {
  /** Paths are shown relative to it (default: process.cwd()). */
  cwd?: string;
  /** ANSI colours (stylish only). */
  color?: boolean;
  /** The tool version SARIF names. */
  version?: string;
}

export { displayPath, reportPath } from '../util/display-path.js';

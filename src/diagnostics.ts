// Diagnostics are data: every part of tritonc (parser, schema checks, lint rules) reports problems in
// this one shape, and the report formatters turn them into text, JSON, SARIF or annotations.

/** A position in a text file. Lines and columns are 1-based; offset is the 0-based UTF-16 index. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

export type PathSegment = string | number;

export interface Fix {
  /** What applying the fix does, in a few words. */
  description: string;
  /** Text edits; ranges refer to the file of the diagnostic. */
  edits?: { range: Range; text: string }[];
}

export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  file: string;
  range: Range;
  /** Where in the config value the problem is, e.g. ['input', 0, 'dims', 0]. */
  path: PathSegment[];
  fix?: Fix;
  data?: Record<string, unknown>;
}

export function formatPosition(file: string, pos: Position): string {
  return `${file}:${pos.line}:${pos.column}`;
}

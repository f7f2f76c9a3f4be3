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

/** Replace `range` (of the diagnostic's file) with `text`. */
export interface TextEdit {
  range: Range;
  text: string;
}

export interface Fix {
  /** What applying the fix does, in a few words. */
  description: string;
  /** Text edits in the diagnostic's file; they do not overlap. */
  edits: TextEdit[];
}

export interface Diagnostic {
  ruleId: string;
  /** Which of the rule's messages this is (its `meta.messages` key); the text is rendered from it and `data`. */
  messageId?: string;
  severity: Severity;
  message: string;
  file: string;
  range: Range;
  /** Where in the config value the problem is, e.g. ['input', 0, 'dims', 0]. */
  path: PathSegment[];
  /** A fix that is certainly right: `lint --fix` applies it. */
  fix?: Fix;
  /**
   * Fixes that might be wrong (a did-you-mean: the nearest name by spelling is not always the one
   * meant): offered to the user (LSP code actions, JSON/SARIF reports), never applied by `lint --fix`.
   */
  suggestions?: Fix[];
  data?: Record<string, unknown>;
  /**
   * The Triton releases it holds for ("24.10", "24.11-trtllm-python-py3"), where one run judged
   * several (`lint --triton-version 24.10,26.07`); absent when one was judged.
   */
  targets?: string[];
}

/** A rule as reports describe it (SARIF's rule metadata, links to its page). */
export interface RuleDescriptor {
  id: string;
  category: 'correctness' | 'suspicious' | 'performance' | 'style';
  defaultSeverity: Severity | 'off';
  description: string;
  /** The Triton messages the rule prevents, verbatim. */
  prevents: string[];
  requiresModel: boolean;
  /** Where the rule's documentation page is published. */
  docsUrl: string;
}

export interface FileResult {
  /** Absolute path of the file the diagnostics are in. */
  filePath: string;
  diagnostics: Diagnostic[];
  errorCount: number;
  warningCount: number;
  infoCount: number;
  /** The file's text after `lint --fix` / `--fix-dry-run`, when the fixes changed it (ESLint's `output`). */
  output?: string;
}

/**
 * A file that could not be read: the CLI reports it and exits 2. With level 'warning', something
 * that did not stop a check (the lint cache could not be written): reported, and no exit code changes.
 */
export interface InputProblem {
  file: string;
  /** What is wrong, without the file: "cannot read: not a regular file (a FIFO)". */
  message: string;
  level?: 'warning';
}

export interface LintResult {
  results: FileResult[];
  errorCount: number;
  warningCount: number;
  infoCount: number;
  /** Every rule the engine knows, for reports that describe rules (SARIF). */
  rules: RuleDescriptor[];
  problems: InputProblem[];
  /** The tool that made the result, for reports that name it. */
  tool: { name: string; version: string; informationUri: string };
  /** The Triton releases judged against (machine-readable reports record them). */
  triton: TargetJson[];
}

/** A Triton release judged against, as reports record it. */
export interface TargetJson {
  /** The container release: "24.10". */
  release: string;
  /** Its server version: "2.51.0". */
  server: string;
  /** The image flavour, where one was named: "trtllm-python-py3". */
  flavour?: string;
}

export function formatPosition(file: string, pos: Position): string {
  return `${file}:${pos.line}:${pos.column}`;
}

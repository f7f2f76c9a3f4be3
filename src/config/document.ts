// A parsed config.pbtxt: the plain value, the parse diagnostics, a way to find where any value path
// is written, and the syntax tree (made when first asked for).
import type { Diagnostic, PathSegment, Range } from '../diagnostics.js';
import type { Comment, DocumentNode, FieldNode } from '../pbtxt/ast.js';
import { parseText, type LeanParseResult } from '../pbtxt/parser.js';
import { LocationIndex, type Location } from '../pbtxt/locations.js';
import { dataTypeMeaning } from './data-type-meaning.js';
import type { ModelConfig } from './model-config.js';
import { loadSchema } from './schema.js';

export interface ConfigDocument {
  file: string;
  text: string;
  value: ModelConfig;
  tree: DocumentNode;
  diagnostics: Diagnostic[];
  /** Where the value at `path` is written, or the nearest enclosing thing that is. */
  locate(path: readonly PathSegment[]): Location | undefined;
  /** Where the value at `path` itself is written; undefined when it is not. */
  locateExact(path: readonly PathSegment[]): Location | undefined;
  /** The range to report for `path`: the value's token, else its field name, else the file start. */
  rangeOf(path: readonly PathSegment[]): Range;
}

const FILE_START: Range = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

/**
 * Above this size a config with something to report is parsed without its tree (parseText's `lean`): the
 * tree of a large config outweighs its value many times over, while checks ask for a few locations
 * (each top-level field asked about is parsed again for its nodes). Below it, keeping the tree costs
 * less than parsing fields again. A clean config of any size is read without a tree.
 */
export const LEAN_PARSE_ABOVE_CHARS = 64 * 1024;

/** What parseConfig reads; by default the document, its tree made when first asked for. */
export interface ConfigParseOptions {
  /**
   * Stop at the first syntax error: for a caller that only uses a config that parses (the other
   * models of a repository), a broken 10 MB file then costs what its first error costs.
   */
  stopAtFirstError?: boolean;
}

/** A config parsed with its tree in one pass (parseConfig's `tree`). */
export interface ParsedConfig {
  value: ModelConfig;
  tree: DocumentNode;
  diagnostics: Diagnostic[];
}

/** A config parsed field by field (parseConfig's `onField`): the diagnostics and the comments after the last field. */
export interface StreamedConfig {
  diagnostics: Diagnostic[];
  dangling: Comment[];
}

/**
 * The one way to read a config.pbtxt. By default its document, read without a tree where that is
 * cheaper (LEAN_PARSE_ABOVE_CHARS). `tree: true`: the value, diagnostics and tree in one pass, the tree
 * without scalar ranges (the canonical formatter reads all of the tree and no range; a plain object, as a document holding a tree made the
 * corpus's canonical format 1.2x slower, in garbage collection). `onField`: each top-level field
 * handed on as it is parsed and not kept, no map built and no scalar range kept (the layout-only
 * formatter, which reads no value and no range).
 */
export function parseConfig(text: string, file: string | undefined, options: ConfigParseOptions & { onField: (f: FieldNode) => void }): StreamedConfig;
export function parseConfig(text: string, file: string | undefined, options: ConfigParseOptions & { tree: true }): ParsedConfig;
export function parseConfig(text: string, file?: string, options?: ConfigParseOptions): ConfigDocument;
export function parseConfig(
  text: string,
  file = 'config.pbtxt',
  options: ConfigParseOptions & { onField?: (f: FieldNode) => void; tree?: boolean } = {},
): ConfigDocument | ParsedConfig | StreamedConfig {
  const schema = loadSchema().modelConfig;
  // Every config's parse: its file, and data type names read for what they mean. Each mode's options
  // are written out, not spread from these: a spread cost a tenth of a small config's parse.
  const { stopAtFirstError } = options;
  const parseOptions = { file, enumMeaning: dataTypeMeaning, stopAtFirstError };
  if (options.onField) {
    const r = parseText(text, schema, {
      file,
      enumMeaning: dataTypeMeaning,
      stopAtFirstError,
      onField: options.onField,
      storeMapEntries: false,
      ranges: false,
    });
    return { diagnostics: r.diagnostics, dangling: r.dangling };
  }
  if (options.tree) {
    // The canonical formatter's: it reads no range (ParseOptions.ranges).
    const r = parseText(text, schema, { file, enumMeaning: dataTypeMeaning, stopAtFirstError, ranges: false });
    return { value: r.value, tree: r.tree, diagnostics: r.diagnostics };
  }
  const r = parseText(text, schema, { file, enumMeaning: dataTypeMeaning, stopAtFirstError, lean: true, keepTreeUpTo: LEAN_PARSE_ABOVE_CHARS });
  let tree = r.tree;
  let index: LocationIndex | undefined;
  const locations = (): LocationIndex => (index ??= locationIndex(text, r));
  return {
    file,
    text,
    value: r.value,
    // The formatter and the editor want the tree: a lean document makes it on first use.
    get tree() {
      return (tree ??= parseText(text, schema, parseOptions).tree);
    },
    diagnostics: r.diagnostics,
    locate: (path) => locations().get(path) ?? locations().nearest(path),
    locateExact: (path) => locations().get(path),
    rangeOf: (path) => {
      const loc = locations().get(path) ?? locations().nearest(path);
      return loc?.value ?? FILE_START;
    },
  };
}

/** Where a parse's paths are written: from its tree where it kept one, else from its spans. */
function locationIndex(text: string, r: LeanParseResult): LocationIndex {
  if (r.tree) return LocationIndex.fromTree(r.tree);
  // A clean text's value finds a map's entries by their order.
  return LocationIndex.fromSpans(text, loadSchema().modelConfig, r.spans, r.clean ? r.value : undefined);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * The placeholders of an unfilled template (fill_template.py's `${name}`, or a sed-style `#name`
 * marker, where a value goes), when
 * they are the only reason the text does not parse: then it is a template to fill, not a broken
 * config. Empty otherwise.
 */
export function unfilledTemplate(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return errors.length && errors.every((d) => d.messageId === 'templatePlaceholder' || d.messageId === 'templateMarker') ? errors : [];
}

/**
 * A document known by its value only (a config read from lint's disk cache): no text, no tree, no
 * diagnostics; every path is located at the start of the file.
 */
export function valueDocument(file: string, value: ModelConfig): ConfigDocument {
  const at: Range = FILE_START;
  return {
    file,
    text: '',
    value,
    tree: { kind: 'document', range: at, fields: [], dangling: [] },
    diagnostics: [],
    locate: () => undefined,
    locateExact: () => undefined,
    rangeOf: () => at,
  };
}

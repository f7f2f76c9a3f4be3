// A parsed config.pbtxt: the plain value, the parse diagnostics, a way to find where any value path
// is written, and the syntax tree (made when first asked for).
import type { Diagnostic, PathSegment, Range } from '../diagnostics.js';
import type { Comment, DocumentNode, FieldNode } from '../pbtxt/ast.js';
import { parseCleanText } from '../pbtxt/clean-parse.js';
import { parseText, parseTextEach } from '../pbtxt/parser.js';
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
 * Above this size a config with something to report is parsed without its tree (parseTextLean): the
 * tree of a large config outweighs its value many times over, while checks ask for a few locations
 * (each top-level field asked about is parsed again for its nodes). Below it, keeping the tree costs
 * less than parsing fields again. A clean config of any size is read without a tree.
 */
export const LEAN_PARSE_ABOVE_CHARS = 64 * 1024;

/** The parse options of every config: its file, and data type names read for what they mean. */
const configParse = (file: string, options: { stopAtFirstError?: boolean } = {}) => ({ file, enumMeaning: dataTypeMeaning, ...options });

export function parseConfig(text: string, file = 'config.pbtxt', options: { stopAtFirstError?: boolean } = {}): ConfigDocument {
  const schema = loadSchema().modelConfig;
  const parseOptions = configParse(file, options);
  let tree: DocumentNode | undefined;
  let index: LocationIndex | undefined;
  let result: { value: unknown; diagnostics: Diagnostic[] };
  let locations: () => LocationIndex;
  const clean = parseCleanText(text, schema);
  if (clean || text.length > LEAN_PARSE_ABOVE_CHARS) {
    // parseTextLean, in two steps: the clean parse, else the tree parser keeping no nodes.
    const lean = clean ? { ...clean, diagnostics: [] } : parseTextEach(text, schema, () => undefined, parseOptions);
    result = lean;
    locations = () => (index ??= LocationIndex.fromSpans(text, schema, lean.spans, clean?.value));
  } else {
    const full = parseText(text, schema, parseOptions);
    result = full;
    tree = full.tree;
    locations = () => (index ??= LocationIndex.fromTree(full.tree));
  }
  return {
    file,
    text,
    value: result.value as ModelConfig,
    // The formatter and the editor want the tree: a lean document makes it on first use.
    get tree() {
      return (tree ??= parseText(text, schema, parseOptions).tree);
    },
    diagnostics: result.diagnostics,
    locate: (path) => locations().get(path) ?? locations().nearest(path),
    locateExact: (path) => locations().get(path),
    rangeOf: (path) => {
      const loc = locations().get(path) ?? locations().nearest(path);
      return loc?.value ?? FILE_START;
    },
  };
}

/** The full parse, tree first (the formatter): the value, the diagnostics and the syntax tree in one pass. */
export function parseConfigTree(text: string, file = 'config.pbtxt'): { value: ModelConfig; tree: DocumentNode; diagnostics: Diagnostic[] } {
  const r = parseText(text, loadSchema().modelConfig, configParse(file));
  return { value: r.value as ModelConfig, tree: r.tree, diagnostics: r.diagnostics };
}

/**
 * The parse that hands each top-level field on as it is parsed, and builds no maps (the layout-only
 * formatter, which reads no value): the diagnostics and the comments after the last field.
 */
export function parseConfigEach(text: string, onField: (f: FieldNode) => void, file = 'config.pbtxt'): { diagnostics: Diagnostic[]; dangling: Comment[] } {
  const r = parseTextEach(text, loadSchema().modelConfig, onField, { ...configParse(file), storeMapEntries: false });
  return { diagnostics: r.diagnostics, dangling: r.dangling };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * The placeholders of an unfilled template (fill_template.py's `${name}` where a value goes), when
 * they are the only reason the text does not parse: then it is a template to fill, not a broken
 * config. Empty otherwise.
 */
export function unfilledTemplate(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return errors.length && errors.every((d) => d.data?.code === 'template-placeholder') ? errors : [];
}

/**
 * A document known by its value only (a config read from lint's disk cache): no text, no tree, no
 * diagnostics; every path is located at the start of the file.
 */
export function valueDocument(file: string, value: ModelConfig): ConfigDocument {
  const at: Range = FILE_START;
  return {
    file, text: '', value,
    tree: { kind: 'document', range: at, fields: [], dangling: [] },
    diagnostics: [],
    locate: () => undefined,
    locateExact: () => undefined,
    rangeOf: () => at,
  };
}

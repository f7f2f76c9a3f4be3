// Where a rendered manifest's key was written in a Helm chart: the line of the template that writes
// it, and, when the template writes it from one `{{ .Values.a.b }}`, the place of `a.b` in the values
// file that gave it (the user's values files, the last first, then the chart's values.yaml), so a
// finding on a rendered Deployment points at what the user edits.
//
// A template is not YAML until helm runs it, so its keys are found by their indentation, line by
// line (linear): lines that are only template actions or comments add no structure, and a key that
// an action writes (an `include ... | nindent`, a `toYaml`) is not found; then the nearest enclosing
// key that is written out is given, with `exact: false`. Values files are YAML and are parsed.
import { join, relative, resolve, sep } from 'node:path';
import { LineCounter, parseDocument, isMap, isScalar, type Document, type Node } from 'yaml';
import { readText } from '../util/read-text.js';
import { quoted } from '../util/terminal-text.js';
import { DeploymentInputError } from './errors.js';

/** A key path: `spec.template.spec.containers[0].image`, `resources.limits["nvidia.com/gpu"]`, or its parts. */
export type KeyPath = string | readonly (string | number)[];

export interface LocateOptions {
  /** The user's values files, in the order given to helm (the last wins). */
  values?: readonly string[];
  /** The user's `--set` assignments: one that sets the value wins over every file. */
  set?: readonly string[];
  /**
   * Which document of the template: the `index`-th (0-based) of those whose `kind:` is written as
   * `kind`, or of all when `kind` is unset. helm keeps a template's documents of one kind in the
   * template's order (helm v4.3.2 pkg/release/v1/util/kind_sorter.go:121, sort.SliceStable).
   */
  kind?: string;
  index?: number;
  /** What earlier calls read of the chart (chartReads()): each file is read, and each values file parsed, once. */
  reads?: ChartReads;
}

/** The chart's files as locateInChart read them, kept for the calls on one render (chart.ts makes one per render). */
export interface ChartReads {
  readonly texts: Map<string, string | undefined>;
  readonly values: Map<string, { doc: Document.Parsed; lines: LineCounter } | undefined>;
}

export const chartReads = (): ChartReads => ({ texts: new Map(), values: new Map() });

export interface TemplatePlace {
  file: string;
  /** 1-based line and column of the key. */
  line: number;
  column: number;
  /** The key path found: the whole one, or the longest part of it the template writes out. */
  path: (string | number)[];
  exact: boolean;
}

export interface ValuesPlace {
  file: string;
  /** The value's range, 1-based lines and columns, the end exclusive. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface ChartLocation {
  template: TemplatePlace;
  /** `a.b` of the `{{ .Values.a.b }}` that writes the value, when that is all the template does with it. */
  valuesKey?: string;
  /** Where `valuesKey` is set: the first of the user's values files (the last given) that sets it, else the chart's values.yaml. */
  values?: ValuesPlace;
  /** The user's `--set` assignment that sets `valuesKey` (it wins over every file). */
  set?: string;
}

/** The largest template or values file read (8 MiB). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Where `keyPath` of a document rendered from `templateFile` (a file of `chartDir`) is written, or undefined. */
export function locateInChart(chartDir: string, templateFile: string, keyPath: KeyPath, options: LocateOptions = {}): ChartLocation | undefined {
  const path = typeof keyPath === 'string' ? parseKeyPath(keyPath) : [...keyPath];
  if (!path) return undefined;
  const reads = options.reads ?? chartReads();
  const text = textOf(templateFile, reads);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  const found = findKey(lines, path, options);
  if (!found) return undefined;
  const template: TemplatePlace = {
    file: templateFile,
    line: found.line + 1,
    column: found.column + 1,
    path: found.path,
    exact: found.path.length === path.length,
  };
  if (!template.exact) return { template };
  const valuesKey = valuesReference(found.value);
  // .Values of a subchart's template are the subchart's: only the chart's own templates are followed.
  const inside = relative(resolve(chartDir), resolve(templateFile));
  if (!valuesKey || inside.startsWith(`charts${sep}`) || inside.startsWith(`..${sep}`)) return { template };
  const set = [...(options.set ?? [])].reverse().find((s) => s.split(',').some((part) => part.includes('=') && part.slice(0, part.indexOf('=')) === valuesKey));
  if (set !== undefined) return { template, valuesKey, set };
  for (const file of [...(options.values ?? [])].reverse().concat(join(chartDir, 'values.yaml'))) {
    const values = valuePlace(file, valuesKey.split('.'), reads);
    if (values) return { template, valuesKey, values };
  }
  return { template, valuesKey };
}

/** `a.b[0]["c.d"]` as its parts, or undefined when it is not a key path. */
function parseKeyPath(text: string): (string | number)[] | undefined {
  const parts: (string | number)[] = [];
  const part = /\.?([^.[\]"']+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\['([^']*)'\]/y;
  let at = 0;
  while (at < text.length) {
    part.lastIndex = at;
    const m = part.exec(text);
    if (!m || (m[1] !== undefined && at > 0 && text[at] !== '.')) return undefined;
    parts.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3]?.replace(/\\(.)/g, '$1') ?? m[4]!)));
    at = part.lastIndex;
  }
  return parts.length > 0 ? parts : undefined;
}

interface Open {
  indent: number;
  part: string | number;
  /** A sequence item (`- `), not a key. */
  item: boolean;
  /** How many items of a sequence under this key were seen. */
  items: number;
  /** Whether the open path down to here is the start of the wanted one. */
  onPath: boolean;
}

interface Found {
  /** 0-based line and column of the key (of the `-` of an item). */
  line: number;
  column: number;
  path: (string | number)[];
  /** The key's value as written on its line (for an item, what follows `- `). */
  value: string;
}

/** A line that is only template actions (`{{- if }}`, `{{ end }}`, `{{- include ... | nindent 4 }}`); each action ends at its first `}}`. */
const ACTION_ONLY = /^(?:\{\{(?:[^}]|\}(?!\}))*\}\}\s*)+$/;
const QUOTED_KEY = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)')[ \t]*:(?:\s+|$)/;

/**
 * The key a block mapping's line starts with (double-quoted, single-quoted or plain, then `:` and a
 * space or the end of the line) and how long it is with what follows it; undefined when the line
 * holds no key, or one that a template action writes. One scan of the line.
 */
function keyOf(rest: string): { name: string; length: number } | undefined {
  const quotedKey = QUOTED_KEY.exec(rest);
  if (quotedKey)
    return { name: quotedKey[1] !== undefined ? quotedKey[1].replace(/\\(.)/g, '$1') : quotedKey[2]!.replace(/''/g, "'"), length: quotedKey[0].length };
  if (/^[#'"{[\]&*!|>%@`]|^-(?:\s|$)/.test(rest)) return undefined;
  const colon = rest.search(/:(?:\s|$)/);
  if (colon <= 0) return undefined;
  const name = rest.slice(0, colon).trimEnd();
  if (name.includes('{{') || / #/.test(name)) return undefined;
  const after = rest.slice(colon + 1);
  return { name, length: rest.length - after.trimStart().length };
}

function findKey(lines: readonly string[], path: readonly (string | number)[], options: LocateOptions): Found | undefined {
  const wanted = options.index ?? 0;
  let document = -1;
  let inDocument = false;
  let stack: Open[] = [];
  let best: Found | undefined;
  let bestHere: Found | undefined;
  let kindOk = options.kind === undefined;
  let comment = false;
  let block = -1;
  const startDocument = (): void => {
    stack = [];
    bestHere = undefined;
    inDocument = false;
    kindOk = options.kind === undefined;
  };
  const finishDocument = (): boolean => {
    if (inDocument && kindOk) {
      document += 1;
      if (document === wanted) {
        best = bestHere;
        return true;
      }
    }
    return false;
  };
  startDocument();
  for (const [number, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trim();
    // A template comment, {{/* ... */}}, may span lines.
    if (comment) {
      if (/\*\/\s*-?\}\}/.test(trimmed)) comment = false;
      continue;
    }
    if (/^\{\{-?\s*\/\*/.test(trimmed)) {
      comment = !/\*\/\s*-?\}\}\s*$/.test(trimmed);
      continue;
    }
    const indent = line.length - line.trimStart().length;
    if (block >= 0 && (trimmed === '' || indent > block)) continue;
    block = -1;
    if (/^---(?:\s|$)/.test(line)) {
      if (finishDocument()) return best;
      startDocument();
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#') || ACTION_ONLY.test(trimmed)) continue;
    inDocument = true;
    const text = line.trimEnd();
    let column = indent;
    // Sequence items, `- - a` included: each opens an item under the key above it. By position in
    // the line, not by slicing it: a line of many dashes is read once.
    while (text[column] === '-' && (column + 1 === text.length || text[column + 1] === ' ' || text[column + 1] === '\t')) {
      while (stack.length > 0 && (stack.at(-1)!.indent > column || (stack.at(-1)!.indent === column && stack.at(-1)!.item))) stack.pop();
      const parent = stack.at(-1);
      open(column, parent ? parent.items++ : 0, true);
      let next = column + 1;
      while (text[next] === ' ' || text[next] === '\t') next += 1;
      consider(number, column, text, next);
      column = next;
    }
    if (column >= text.length) continue;
    const rest = text.slice(column);
    const key = keyOf(rest);
    if (!key) continue;
    while (stack.length > 0 && stack.at(-1)!.indent >= column) stack.pop();
    open(column, key.name, false);
    const value = rest.slice(key.length);
    if (column === 0 && key.name === 'kind' && options.kind !== undefined) kindOk = value.trim().replace(/^(["'])(.*)\1$/, '$2') === options.kind;
    if (/^[|>][-+0-9]*\s*(?:#.*)?$/.test(value)) block = column;
    consider(number, column, text, column + key.length);
  }
  if (finishDocument()) return best;
  return undefined;

  function open(indent: number, part: string | number, item: boolean): void {
    const depth = stack.length;
    const onPath = (depth === 0 || stack[depth - 1]!.onPath) && depth < path.length && path[depth] === part;
    stack.push({ indent, part, item, items: 0, onPath });
  }

  /** Keeps the line (its value from `valueAt`) if the open path is the wanted one or a longer start of it than kept so far. */
  function consider(number: number, column: number, text: string, valueAt: number): void {
    if (!stack.at(-1)!.onPath || (bestHere && stack.length <= bestHere.path.length)) return;
    bestHere = { line: number, column, path: path.slice(0, stack.length), value: text.slice(valueAt) };
  }
}

// The one action that writes the value: `{{ .Values.a.b }}`, with `| quote`, `| default X` or
// `default X .Values.a.b`; the text around it may be more (`--flag={{ .Values.a }}`) but not another action.
const VALUES_ACTION =
  /^\{\{-?\s*(?:default\s+(?:"(?:[^"\\]|\\.)*"|'[^']*'|[\w.-]+)\s+)?\.Values((?:\.[A-Za-z_][\w-]*)+)(?:\s*\|\s*(?:quote|squote|toString|default\s+(?:"(?:[^"\\]|\\.)*"|'[^']*'|[\w.-]+)))*\s*-?\}\}$/;

function valuesReference(value: string): string | undefined {
  const actions = value.match(/\{\{(?:[^}]|\}(?!\}))*\}\}/g) ?? [];
  if (actions.length !== 1) return undefined;
  const key = VALUES_ACTION.exec(actions[0])?.[1];
  return key?.slice(1);
}

/** The range of `keys` in the YAML values `file`, or undefined when the file does not set it. */
function valuePlace(file: string, keys: readonly string[], reads: ChartReads): ValuesPlace | undefined {
  if (!reads.values.has(file)) {
    const text = textOf(file, reads);
    const lines = new LineCounter();
    const doc = text === undefined ? undefined : parseDocument(text, { keepSourceTokens: true, lineCounter: lines, uniqueKeys: false });
    reads.values.set(file, doc && doc.errors.length === 0 ? { doc, lines } : undefined);
  }
  const parsed = reads.values.get(file);
  if (!parsed) return undefined;
  const lineCounter = parsed.lines;
  let node: unknown = parsed.doc.contents;
  for (const key of keys) {
    if (!isMap(node)) return undefined;
    // The last pair of a key wins, as in helm's YAML reader.
    const pair = node.items.findLast((p) => (isScalar(p.key) ? String(p.key.value) : p.key) === key);
    if (!pair) return undefined;
    node = pair.value;
  }
  const range = (node as Node | null)?.range;
  if (!range) return undefined;
  const start = lineCounter.linePos(range[0]);
  const end = lineCounter.linePos(range[1]);
  return { file, line: start.line, column: start.col, endLine: end.line, endColumn: end.col };
}

/** A file's text (once per `reads`), refused past MAX_FILE_BYTES before it is read; undefined where it cannot be read. */
function textOf(file: string, reads: ChartReads): string | undefined {
  if (reads.texts.has(file)) return reads.texts.get(file);
  const read = readText(file, MAX_FILE_BYTES);
  if (read.kind === 'unreadable' && read.size !== undefined)
    throw new DeploymentInputError(
      `${quoted(file, 200)} is ${read.size.toLocaleString('en-US')} bytes, more than the 8 MiB tritonc reads of a chart's file`,
      file,
    );
  const text = read.kind === 'text' ? read.text : undefined;
  reads.texts.set(file, text);
  return text;
}

// Manifests as documents with positions: a YAML stream (Kubernetes manifests, several documents in
// one file) or JSON (a SageMaker CreateModel request; YAML 1.2 reads JSON), parsed by the `yaml`
// package once, the values handed on as plain data with a way back to where each one is written.
// Bounded: the text's size is checked by the caller's read (MAX_MANIFEST_BYTES), aliases may not
// expand past a small count (a "billion laughs" stream is refused, not expanded), and the number of
// documents is capped.
import { LineCounter, parseAllDocuments, isCollection, isScalar, isMap, type Document, type Node } from 'yaml';
import type { Range } from '../diagnostics.js';
import { DeploymentInputError } from './errors.js';
import { escapeControl } from '../util/terminal-text.js';

/** The largest manifest file (or rendered chart) read. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
const MAX_DOCUMENTS = 10_000;

export type ValuePath = readonly (string | number)[];

/** Where something is written: a file and a range in it. */
export interface Location {
  readonly file: string;
  readonly range: Range;
}

/** One document of a manifest: its value as plain data, and where each part of it is written. */
export interface ManifestDocument {
  readonly file: string;
  /** Where the document starts in the text (a rendered chart's documents map back to templates by it). */
  readonly offset: number;
  readonly value: unknown;
  /** Where the value at `path` is written; for a path not written, its nearest written ancestor. */
  locate(path: ValuePath): Location;
}

/** Every document of a manifest text (empty documents left out); DeploymentInputError at the first error. */
export function parseManifestText(text: string, file: string): ManifestDocument[] {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [];
  // An empty stream parses to an EmptyStream (no documents).
  if (list.length > MAX_DOCUMENTS) throw new DeploymentInputError(`${list.length} documents, more than the ${MAX_DOCUMENTS} a manifest may hold`, file);
  const position = (offset: number) => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col, offset };
  };
  const rangeOf = (from: number, to: number): Range => ({ start: position(from), end: position(to) });
  const out: ManifestDocument[] = [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      const at = position(error.pos[0]);
      throw new DeploymentInputError(`${escapeControl(error.message)}`, file, at.line, at.column);
    }
    if (doc.contents === null) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      // Aliases past the count: refused rather than expanded.
      const at = position(doc.range[0]);
      throw new DeploymentInputError(escapeControl((e as Error).message), file, at.line, at.column);
    }
    out.push({ file, offset: doc.contents.range?.[0] ?? doc.range[0], value, locate: (path) => locateIn(doc, path, file, rangeOf) });
  }
  return out;
}

function locateIn(doc: Document.Parsed, path: ValuePath, file: string, rangeOf: (from: number, to: number) => Range): Location {
  let node: Node | null = doc.contents;
  let at = node?.range ? rangeOf(node.range[0], node.range[1]) : rangeOf(0, 0);
  for (const key of path) {
    if (!node || !isCollection(node)) break;
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
      if (!pair) break;
      const value = pair.value as Node | null;
      const keyNode = pair.key as Node | null;
      // A key with no value is located at the key.
      const span = value?.range ?? keyNode?.range;
      if (span) at = rangeOf(span[0], span[1]);
      node = value;
    } else {
      const item = typeof key === 'number' ? (node.items[key] as Node | undefined) : undefined;
      if (!item?.range) break;
      at = rangeOf(item.range[0], item.range[1]);
      node = item;
    }
  }
  return { file, range: at };
}

// The lean parse against the full one (test/pbtxt/lean-parse.test.ts, and over the corpus).
import { expect } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { loadSchema } from '../../src/config/schema.js';
import type { PathSegment } from '../../src/diagnostics.js';
import { LocationIndex } from '../../src/pbtxt/locations.js';
import { parseText } from '../../src/pbtxt/parser.js';
import { printEach, printTree } from '../../src/pbtxt/printer.js';

export const schema = loadSchema().modelConfig;

/** Every path into a value: fields, list indexes, map keys; and one path under each that is not there. */
function pathsOf(value: unknown, prefix: PathSegment[] = []): PathSegment[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries: [PathSegment, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [prefix, [...prefix, 'not_a_field'], ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

/**
 * The lean parse gives what the full parse gives (and the parse that stores no map entries its
 * diagnostics), the field-by-field print what the tree prints, and parseConfig's modes agree.
 */
export function expectSameAsFull(text: string): void {
  const full = parseText(text, schema, { file: 'c.pbtxt' });
  const lean = parseText(text, schema, { file: 'c.pbtxt', lean: true });
  expect(lean.value).toEqual(full.value);
  expect(lean.diagnostics).toEqual(full.diagnostics);
  // The layout-only formatter's parse builds no maps, and reports the same.
  expect(parseText(text, schema, { file: 'c.pbtxt', onField: () => undefined, storeMapEntries: false }).diagnostics).toEqual(full.diagnostics);
  // The formatter's stream prints what the whole tree prints.
  expect(printEach((emit) => parseText(text, schema, { onField: emit }).dangling, { preserve: true })).toBe(printTree(full.tree, { preserve: true }));
  // The config entry point: its document (read lean where clean or large) gives what the full parse
  // gives; its tree mode (the canonical formatter's, which keeps no scalar range) the same value,
  // diagnostics and printed tree; its field-by-field mode the same diagnostics.
  const doc = parseConfig(text, 'c.pbtxt');
  const treeDoc = parseConfig(text, 'c.pbtxt', { tree: true });
  expect(treeDoc.value).toEqual(full.value);
  expect(treeDoc.diagnostics).toEqual(full.diagnostics);
  expect(printTree(treeDoc.tree, { preserve: true })).toBe(printTree(full.tree, { preserve: true }));
  expect(doc.value).toEqual(full.value);
  expect(doc.diagnostics).toEqual(full.diagnostics);
  expect(doc.tree).toEqual(full.tree);
  expect(parseConfig(text, 'c.pbtxt', { onField: () => undefined }).diagnostics).toEqual(full.diagnostics);
  const fromTree = LocationIndex.fromTree(full.tree);
  const docFromTree = fromTree;
  // Without the value, and with it where the text is clean (map entries then found by their order);
  // each path asked of a fresh index too, as a check that reports one finding asks.
  const indexes = () => [
    LocationIndex.fromSpans(text, schema, lean.spans),
    ...(lean.diagnostics.length ? [] : [LocationIndex.fromSpans(text, schema, lean.spans, lean.value)]),
  ];
  const shared = indexes();
  let fresh = 0;
  for (const path of pathsOf(full.value).filter((p) => p.length)) {
    const alone = path.length >= 2 && typeof path[1] === 'string' && fresh++ < 12 ? indexes() : [];
    for (const fromSpans of [...shared, ...alone]) {
      expect(fromSpans.get(path), path.join('.')).toEqual(fromTree.get(path));
      expect(fromSpans.nearest(path), path.join('.')).toEqual(fromTree.nearest(path));
    }
    expect(doc.locateExact(path), path.join('.')).toEqual(docFromTree.get(path));
    expect(doc.locate(path), path.join('.')).toEqual(docFromTree.nearest(path));
  }
}

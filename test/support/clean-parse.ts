// The clean parse against the tree parser (test/pbtxt/clean-parse.test.ts, and over the corpus).
import { expect } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import { parseCleanText } from '../../src/pbtxt/clean-parse.js';
import type { SchemaMessage } from '../../src/pbtxt/descriptor.js';
import { parseText } from '../../src/pbtxt/parser.js';

const schema = loadSchema().modelConfig;

/** A value with its key order made visible, so two values compare equal only in the same order. */
export function ordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(ordered);
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, ordered(x)]);
  return v;
}

/**
 * The clean parse never takes a text the tree parser reports anything on, and where it reads one it
 * gives the tree parser's value (key order and -0 included) and top-level spans. Returns whether it
 * read the text (false: it gave up, which is always allowed).
 */
export function expectCleanAgreesWithTree(text: string, message: SchemaMessage = schema): boolean {
  const tree = parseText(text, message, { onField: () => undefined });
  const clean = parseCleanText(text, message);
  if (tree.diagnostics.length) {
    expect(clean, `gave a value for a text with diagnostics: ${tree.diagnostics[0]?.message}`).toBeUndefined();
    return false;
  }
  if (!clean) return false;
  expect(ordered(clean.value)).toEqual(ordered(tree.value));
  expect(clean.spans.toArray()).toEqual(tree.spans.toArray());
  return true;
}

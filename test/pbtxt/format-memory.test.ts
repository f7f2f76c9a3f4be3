// What bounds the formatter's memory by its input (docs/performance.md, "fmt on a large list"): its
// parse keeps no scalar range and shares equal plain list elements, and its printer never builds the
// one-line form of a list past the line width. Structural facts, asserted on real parses and output;
// the bytes themselves are measured in bench/fmt-scale.mjs.
import { describe, expect, it } from 'vitest';
import { formatText } from '../../src/config/format.js';
import { loadSchema } from '../../src/config/schema.js';
import { parseText } from '../../src/pbtxt/parser.js';
import type { ListNode, MessageNode } from '../../src/pbtxt/ast.js';

const dimsOf = (text: string, ranges?: boolean): ListNode => {
  const r = parseText(text, loadSchema().modelConfig, ranges === undefined ? {} : { ranges });
  const input = r.tree.fields[0]!.value as ListNode;
  return (input.elements[0]!.value as MessageNode).fields.find((f) => f.name === 'dims')!.value as ListNode;
};

const layout = (text: string): string => {
  const r = formatText(text, 'config.pbtxt');
  if (r.status !== 'formatted') throw new Error(JSON.stringify(r));
  return r.output;
};

describe("the formatter's memory", () => {
  it('its parse shares equal plain elements of a list, never one with a comment or a blank line, and keeps no scalar range', () => {
    const text = 'input [ { name: "x" dims: [ 1, 1, 2,\n  # why\n  1, 1 # this one\n  ,\n\n  1, 0x1 ] } ]\n';
    const lean = dimsOf(text, false).elements;
    expect(lean.map((e) => e.value.kind === 'scalar' && e.value.text)).toEqual(['1', '1', '2', '1', '1', '1', '0x1']);
    expect(lean[1]).toBe(lean[0]);
    expect(lean[2]).not.toBe(lean[0]);
    // A leading comment, a trailing one, a blank line before: each element its own.
    expect(new Set([lean[0], lean[3], lean[4], lean[5]]).size).toBe(4);
    // Equal values written otherwise keep their spelling.
    expect(lean[6]).not.toBe(lean[0]);
    expect(lean[0]!.value.range).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } });
    // The ordinary parse: every element its own node, with its range.
    const full = dimsOf(text).elements;
    expect(full[1]).not.toBe(full[0]);
    expect(full[1]!.value.range.start).toEqual({ line: 1, column: 32, offset: 31 });
  });

  it('prints a 300,000-element list one element a line, as written, and a list of exactly the line width inline', () => {
    const n = 300_000;
    const values = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? '0x1' : String(i % 7)));
    const out = layout(`input [ { name: "x" data_type: TYPE_FP32 dims: [ ${values.join(', ')} ] } ]\n`);
    const lines = out.split('\n');
    expect(lines.slice(0, 6)).toEqual(['input [', '  {', '    name: "x"', '    data_type: TYPE_FP32', '    dims: [', '      0x1,']);
    expect(lines.slice(5, 5 + n)).toEqual(values.map((v, i) => `      ${v}${i < n - 1 ? ',' : ''}`));
    expect(lines.slice(5 + n)).toEqual(['    ]', '  }', ']', '']);
    // `dynamic_batching { preferred_batch_size: [ ... ] }` is 45 + 4k characters: 97 at k = 13, 101 at 14.
    const list = (k: number) => `dynamic_batching { preferred_batch_size: [ ${Array.from({ length: k }, () => '10').join(', ')} ] }\n`;
    expect(layout(list(13))).toBe(list(13));
    expect(layout(list(14)).split('\n')[0]).toBe('dynamic_batching {');
  });
});

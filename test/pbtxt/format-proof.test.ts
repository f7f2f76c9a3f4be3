// The formatter's proof that its output means what its input meant: fed trees that a printer bug
// would make (a field dropped, a token respelled, a comment lost), it refuses instead of formatting.
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import type { FieldNode, ScalarNode } from '../../src/pbtxt/ast.js';
import { formatParsed, type Parsers } from '../../src/pbtxt/format.js';
import { parseText } from '../../src/pbtxt/parser.js';

const schema = loadSchema().modelConfig;
const TEXT = '# the model\nname: "m"   max_batch_size:8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 0x3 ] } ]  # three\n';

/** The real parsers, with `alter` applied to each top-level field (or the tree) before printing. */
function parsers(alter: (f: FieldNode) => FieldNode | undefined): Parsers {
  return {
    tree: (t) => {
      const r = parseText(t, schema);
      return { ...r, tree: { ...r.tree, fields: r.tree.fields.map(alter).filter((f): f is FieldNode => f !== undefined) } };
    },
    each: (t, onField) =>
      parseText(t, schema, {
        onField: (f) => {
          const g = alter(f);
          if (g) onField(g);
        },
      }),
    value: (t) => parseText(t, schema, { lean: true }),
  };
}

describe('formatParsed proves its output', () => {
  it('formats when nothing is altered, in both forms', () => {
    for (const canonical of [false, true]) {
      const r = formatParsed(
        TEXT,
        parsers((f) => f),
        { canonical },
      );
      expect(r.status, String(canonical)).toBe('formatted');
    }
  });

  it('layout only: a dropped field or a respelled token is refused, naming the token', () => {
    const dropped = formatParsed(
      TEXT,
      parsers((f) => (f.name === 'max_batch_size' ? undefined : f)),
    );
    expect(dropped).toEqual({
      status: 'unsafe',
      reason: expect.stringMatching(/^the formatted text changed "max_batch_size" at 2:13 into "input"; nothing was changed/),
    });
    // The same value spelled otherwise (0x3 as 3) is still a change the layout-only form must not make.
    const respelled = formatParsed(
      TEXT,
      parsers((f) => {
        if (f.name !== 'input' || f.value.kind !== 'list') return f;
        const dims = (f.value.elements[0]!.value as { fields: FieldNode[] }).fields.find((g) => g.name === 'dims')!;
        if (dims.value.kind === 'list') (dims.value.elements[0]!.value as ScalarNode).text = '3';
        return f;
      }),
    );
    expect(respelled).toEqual({ status: 'unsafe', reason: expect.stringContaining('changed "0x3" at 3:50 into "3"') });
  });

  it('a lost comment is refused in both forms', () => {
    const noComment = (f: FieldNode): FieldNode => (f.name === 'name' ? { ...f, leading: [] } : f);
    for (const canonical of [false, true]) {
      expect(formatParsed(TEXT, parsers(noComment), { canonical })).toEqual({
        status: 'unsafe',
        reason: expect.stringContaining('lost the comment "# the model"'),
      });
    }
  });

  it('canonical: an output that parses to another value is refused', () => {
    const r = formatParsed(
      TEXT,
      parsers((f) => (f.name === 'max_batch_size' ? { ...f, value: { ...(f.value as ScalarNode), value: 9 } } : f)),
      { canonical: true },
    );
    expect(r).toEqual({ status: 'unsafe', reason: expect.stringContaining('does not parse to the same config') });
  });
});

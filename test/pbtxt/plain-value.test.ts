// The parsers' value objects and packed spans: a message value is a plain object in every way a
// caller can see, and the packed spans give the positions the fields are written at.
import { inspect, isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import { FieldSpans, newMessageValue } from '../../src/pbtxt/plain-value.js';

const schema = loadSchema().modelConfig;

describe('newMessageValue', () => {
  it('is a plain object: prototype, constructor, printing, equality and cloning as {}', () => {
    const v = newMessageValue(schema);
    v.name = 'm';
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(v.constructor).toBe(Object);
    expect(inspect(v)).toBe("{ name: 'm' }");
    expect(isDeepStrictEqual(v, { name: 'm' })).toBe(true);
    expect(structuredClone(v)).toStrictEqual({ name: 'm' });
    expect(JSON.stringify(v)).toBe('{"name":"m"}');
    expect(Object.keys(newMessageValue(schema))).toEqual([]);
  });
});

describe('FieldSpans', () => {
  const text = 'name: "a"\r\n\n  input { }\n# c\nname: "b" output { }\n';
  const spans = new FieldSpans(text);
  for (const [name, offset] of [
    ['name', 0],
    ['input', text.indexOf('input')],
    ['name', text.lastIndexOf('name')],
    ['output', text.indexOf('output')],
  ] as const)
    spans.add(name, offset);

  it('counts lines and columns from the text, for the fields asked about', () => {
    expect(spans.length).toBe(4);
    expect(spans.startsOf('name')).toEqual([
      { line: 1, column: 1, offset: 0 },
      { line: 5, column: 1, offset: text.lastIndexOf('name') },
    ]);
    expect(spans.firstOf('input')).toEqual({ line: 3, column: 3, offset: text.indexOf('input') });
    expect(spans.firstOf('output')).toEqual({ line: 5, column: 11, offset: text.indexOf('output') });
    expect(spans.firstOf('platform')).toBeUndefined();
    expect(spans.startsOf('platform')).toEqual([]);
    expect(spans.toArray().map((s) => [s.name, s.start.line])).toEqual([
      ['name', 1],
      ['input', 3],
      ['name', 5],
      ['output', 5],
    ]);
  });

  it('grows past its first arrays without losing a span', () => {
    const many = 'max_batch_size: 1\n'.repeat(1000);
    const big = new FieldSpans(many);
    for (let i = 0; i < 1000; i++) big.add('max_batch_size', i * 18);
    const starts = big.startsOf('max_batch_size');
    expect(starts).toHaveLength(1000);
    expect(starts[999]).toEqual({ line: 1000, column: 1, offset: 999 * 18 });
  });
});

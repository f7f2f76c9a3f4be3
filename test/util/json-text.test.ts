import { describe, expect, it } from 'vitest';
import { parseJsonText, topLevelKeys } from '../../src/util/json-text.js';

describe('parseJsonText', () => {
  it('gives line and column of a syntax error, and the end of the text when V8 names no position', () => {
    const r = parseJsonText('{\n  "a": 1,\n}');
    expect(r).toMatchObject({ ok: false, at: { line: 3, column: 1 } });
    expect(parseJsonText('{"a": ')).toMatchObject({ ok: false, at: { offset: 6 } });
    expect(parseJsonText('{"a": [1, {"b": "}"}]}')).toEqual({ ok: true, value: { a: [1, { b: '}' }] } });
  });
});

describe('topLevelKeys', () => {
  it('finds each key and value of the top-level object, past nested values and strings with brackets', () => {
    const text = '{\n  "model": "x\\"}",\n  "nested": {"a": [1, {"}": 2}]},\n  "n": -1.5e3,\n  "b": true\n}';
    const keys = topLevelKeys(text);
    expect([...keys.keys()]).toEqual(['model', 'nested', 'n', 'b']);
    const slice = (k: string) => text.slice(keys.get(k)!.value.start, keys.get(k)!.value.end);
    expect(slice('model')).toBe('"x\\"}"');
    expect(slice('nested')).toBe('{"a": [1, {"}": 2}]}');
    expect(slice('n')).toBe('-1.5e3');
    expect(text.slice(keys.get('b')!.key.start, keys.get('b')!.key.end)).toBe('"b"');
  });
  it('gives nothing for what is not an object', () => {
    expect(topLevelKeys('[1, 2]').size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, parseJsonText, topLevelKeys } from '../../src/util/json-text.js';
import { seededRandom } from '../../src/util/seeded-random.js';

describe('parseJsonText', () => {
  it('gives line and column of a syntax error and the character there, or the end of the text', () => {
    const r = parseJsonText('{\n  "a": 1,\n}');
    expect(r).toMatchObject({ ok: false, at: { line: 3, column: 1 }, found: '}' });
    expect(parseJsonText('{"a": ')).toMatchObject({ ok: false, at: { offset: 6 }, found: undefined });
    // V8 names no position for an unexpected token ("Unexpected token 'x', ... is not valid JSON"): the scan does.
    expect(parseJsonText('{"model": x}')).toMatchObject({ ok: false, at: { line: 1, column: 11 }, found: 'x' });
    expect(parseJsonText('["a\tb"]')).toMatchObject({ ok: false, at: { offset: 3 }, found: '\t' });
    expect(parseJsonText('{"a": [1, {"b": "}"}]}')).toEqual({ ok: true, value: { a: [1, { b: '}' }] } });
  });
});

describe('jsonErrorOffset', () => {
  // Checked against V8's JSON.parse itself: valid exactly when it parses, and where V8's message names a
  // position ("... in JSON at position N", Node 20), the same position.
  it('agrees with JSON.parse on texts corrupted at seeded places', () => {
    const base = [
      '{"model": "facebook/opt-125m", "gpu_memory_utilization": 0.5, "enforce_eager": true}',
      '[1, -2.5e-3, 0, "a\\u00e9\\n", null, false, {"k": [[], {}]}]',
      ' "s" ',
      '-0.0E+1',
      '{"a":{"b":[true,null]}}',
    ];
    const slips = ['', ',', '}', ']', '{', '[', ':', '"', '\\', '\\u12', '-', '.', 'e', '0', '01', 'tru', 'nul', 'x', '\n', '\u0001', ' ', '1.', '+1'];
    const random = seededRandom(8259);
    let positioned = 0;
    for (let n = 0; n < 4000; n++) {
      const text = base[Math.floor(random() * base.length)]!;
      const at = Math.floor(random() * (text.length + 1));
      const slip = slips[Math.floor(random() * slips.length)]!;
      const broken = random() < 0.3 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + slip + text.slice(at);
      let v8: string | undefined;
      try {
        JSON.parse(broken);
      } catch (e) {
        v8 = (e as Error).message;
      }
      const offset = jsonErrorOffset(broken);
      expect(offset < 0, `${JSON.stringify(broken)}: ${v8}`).toBe(v8 === undefined);
      const m = v8 && /at position (\d+)/.exec(v8);
      if (m) {
        positioned++;
        expect(offset, `${JSON.stringify(broken)}: ${v8}`).toBe(Number(m[1]));
      }
    }
    expect(positioned).toBeGreaterThan(500);
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

// nameRecord and ownValue: records keyed by names users choose.
import { describe, expect, it } from 'vitest';
import { nameRecord, ownValue } from '../../src/util/name-record.js';

describe('nameRecord', () => {
  it("holds Object.prototype's names as keys like any other, and JSON writes them", () => {
    const r = nameRecord<number>();
    r['__proto__'] = 1;
    const key: string = 'constructor';
    r[key] = 2;
    expect(Object.keys(r)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(r)).toBe('{"__proto__":1,"constructor":2}');
    expect(ownValue({}, 'toString')).toBeUndefined();
    expect(ownValue(JSON.parse('{"__proto__":3}') as Record<string, number>, '__proto__')).toBe(3);
  });
});

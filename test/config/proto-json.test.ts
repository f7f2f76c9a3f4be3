// toProtoJson: a config's map written with every key its own, "__proto__" included.
import { describe, expect, it } from 'vitest';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';

describe('toProtoJson', () => {
  it('writes a map key named __proto__ or constructor as the key it is', () => {
    // As the parser stores a map (pbtxt/plain-value.ts storeMapEntry): "__proto__" an own key.
    const config = { parameters: JSON.parse('{"__proto__":{"string_value":"a"},"constructor":{"string_value":"b"}}') as Record<string, unknown> };
    const json = toProtoJson(config, loadSchema().modelConfig);
    expect(JSON.stringify(json)).toBe('{"parameters":{"__proto__":{"string_value":"a"},"constructor":{"string_value":"b"}}}');
  });
});

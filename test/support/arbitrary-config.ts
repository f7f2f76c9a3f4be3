// fast-check arbitraries for config values, generated from the schema itself, so every field, type,
// oneof and map of ModelConfig is exercised.
import fc from 'fast-check';
import type { SchemaField, SchemaMessage } from '../../src/config/schema.js';
import { toInt64 } from '../../src/pbtxt/scalars.js';

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom(
    '',
    'input',
    'onnx::Flatten_0',
    'x.1',
    '"quoted"',
    "it's",
    'back\\slash',
    'tab\tnew\nline',
    '\u0000\u0001',
    'résumé 模型',
    '{"json": true}',
    '${var}',
  ),
);

function scalarArb(field: SchemaField): fc.Arbitrary<unknown> {
  const t = field.type;
  if (t.kind === 'enum')
    return fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...t.enum.names) }, { weight: 1, arbitrary: fc.integer({ min: 15, max: 1000 }) });
  if (t.kind === 'message') throw new Error('not a scalar');
  switch (t.type) {
    case 'string':
    case 'bytes':
      return text;
    case 'bool':
      return fc.boolean();
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return fc.oneof(fc.integer({ min: -2, max: 1024 }), fc.integer(INT32));
    case 'uint32':
    case 'fixed32':
      return fc.oneof(fc.integer({ min: 0, max: 1024 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return fc.oneof(fc.integer({ min: -1, max: 4096 }), fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map(toInt64));
    case 'uint64':
    case 'fixed64':
      return fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.bigInt(0n, 2n ** 64n - 1n).map(toInt64));
    case 'float':
      return fc.oneof(fc.constantFrom(0, 0.5, 1, 0.1, Infinity, -Infinity, NaN), fc.float()).map((v) => (Object.is(v, -0) ? 0 : v));
    case 'double':
      return fc.oneof(fc.constantFrom(0, 1.5, 1e-7, 1e21, Infinity, NaN), fc.double()).map((v) => (Object.is(v, -0) ? 0 : v));
  }
}

function mapKeyArb(field: SchemaField): fc.Arbitrary<string> {
  const keyType = field.mapEntry!.fields.get('key')!.type;
  if (keyType.kind === 'scalar' && keyType.type === 'string') return text;
  return fc.bigInt(0n, 2n ** 64n - 1n).map(String);
}

export function messageArb(message: SchemaMessage, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const oneofs = new Map<string, SchemaField[]>();
  const plain: SchemaField[] = [];
  for (const f of message.fieldList) {
    if (f.oneof) oneofs.set(f.oneof, [...(oneofs.get(f.oneof) ?? []), f]);
    else plain.push(f);
  }
  const valueOf = (f: SchemaField): fc.Arbitrary<unknown> => {
    if (f.mapEntry) {
      const valueField = f.mapEntry.fields.get('value')!;
      const v = valueField.type.kind === 'message' ? messageArb(valueField.type.message, depth - 1) : scalarArb(valueField);
      return fc.array(fc.tuple(mapKeyArb(f), v), { maxLength: 3 }).map((entries) => {
        const map: Record<string, unknown> = {};
        for (const [k, val] of entries) Object.defineProperty(map, k, { value: val, enumerable: true, writable: true, configurable: true });
        return map;
      });
    }
    const one = f.type.kind === 'message' ? messageArb(f.type.message, depth - 1) : scalarArb(f);
    return f.repeated ? fc.array(one, { maxLength: 3 }) : one;
  };
  const usable = (f: SchemaField): boolean => depth > 0 || f.type.kind !== 'message';
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of plain) if (usable(f)) record[f.name] = valueOf(f);
  const base = fc.record(record, { requiredKeys: [] });
  const choices = [...oneofs.values()].map((members) => {
    const ok = members.filter(usable);
    return ok.length ? fc.option(fc.oneof(...ok.map((m) => valueOf(m).map((v) => [m.name, v] as const))), { nil: undefined }) : fc.constant(undefined);
  });
  return fc.tuple(base, ...choices).map(([b, ...picked]) => {
    const out: Record<string, unknown> = { ...b };
    for (const p of picked) if (p) out[p[0]] = p[1];
    return out;
  });
}

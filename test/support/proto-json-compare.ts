// Puts protobuf's JSON of a config (from Python's MessageToDict) in the same form as tritonc's
// toProtoJson, so the two compare with toEqual: float fields are rounded to float32 on both sides
// (Python prints the shortest float32 text, which reads back as a slightly different double).
import type { SchemaField, SchemaMessage } from '../../src/config/schema.js';

export function normalizeReferenceJson(json: unknown, message: SchemaMessage): unknown {
  if (typeof json !== 'object' || json === null) return json;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    const field = message.fields.get(k);
    out[k] = field ? normalizeField(v, field) : v;
  }
  return out;
}

function normalizeField(v: unknown, field: SchemaField): unknown {
  if (field.mapEntry) {
    const valueField = field.mapEntry.fields.get('value')!;
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v as Record<string, unknown>)) out[k] = normalizeOne(e, valueField);
    return out;
  }
  if (field.repeated) return (v as unknown[]).map((e) => normalizeOne(e, field));
  return normalizeOne(v, field);
}

function normalizeOne(v: unknown, field: SchemaField): unknown {
  if (field.type.kind === 'message') return normalizeReferenceJson(v, field.type.message);
  if (field.type.kind === 'scalar' && field.type.type === 'float' && typeof v === 'number') return Math.fround(v);
  return v;
}

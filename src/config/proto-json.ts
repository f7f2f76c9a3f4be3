// A config value in protobuf's JSON mapping with proto field names: the form Triton's
// GET /v2/models/<name>/config returns and protobuf's own MessageToJson writes. 64-bit integers are
// strings, enums are names, non-finite floats are "NaN"/"Infinity"/"-Infinity".
import type { SchemaField, SchemaMessage } from './schema.js';
import { nameRecord } from '../util/name-record.js';

export interface ProtoJsonOptions {
  /**
   * Print scalar fields at their default value and empty repeated/map fields, as Triton does
   * (protobuf's always_print_primitive_fields). Default: omit them, as MessageToDict does.
   */
  emitDefaults?: boolean;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export function toProtoJson(value: Record<string, unknown>, message: SchemaMessage, options: ProtoJsonOptions = {}): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = {};
  for (const field of message.fieldList) {
    const v = value[field.name];
    if (v === undefined) {
      if (options.emitDefaults && (field.type.kind !== 'message' || field.repeated) && !field.oneof)
        out[field.name] = field.repeated ? (field.mapEntry ? {} : []) : defaultJson(field);
      continue;
    }
    if (field.mapEntry) {
      const valueField = field.mapEntry.fields.get('value')!;
      // No prototype: a map key "__proto__" is written as the key it is.
      const map = nameRecord<JsonValue>();
      for (const [k, e] of Object.entries(v as Record<string, unknown>)) map[k] = elementJson(e, valueField, options);
      if (Object.keys(map).length || options.emitDefaults) out[field.name] = map;
    } else if (field.repeated) {
      const list = (v as unknown[]).map((e) => elementJson(e, field, options));
      if (list.length || options.emitDefaults) out[field.name] = list;
    } else if (field.type.kind === 'message') {
      out[field.name] = toProtoJson(v as Record<string, unknown>, field.type.message, options);
    } else {
      const json = scalarJson(v, field);
      // proto3 scalars without presence: a default value is "not set" unless it belongs to a oneof.
      if (field.oneof || options.emitDefaults || !Object.is(json, defaultJson(field))) out[field.name] = json;
    }
  }
  return out;
}

function elementJson(v: unknown, field: SchemaField, options: ProtoJsonOptions): JsonValue {
  return field.type.kind === 'message' ? toProtoJson(v as Record<string, unknown>, field.type.message, options) : scalarJson(v, field);
}

function scalarJson(v: unknown, field: SchemaField): JsonValue {
  const type = field.type;
  if (type.kind === 'enum') return v as string | number;
  if (type.kind === 'message') throw new Error('not a scalar');
  switch (type.type) {
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return String(v);
    case 'float':
    case 'double': {
      const n = v as number;
      if (Number.isNaN(n)) return 'NaN';
      if (n === Infinity) return 'Infinity';
      if (n === -Infinity) return '-Infinity';
      return type.type === 'float' ? Math.fround(n) : n;
    }
    default:
      return v as string | number | boolean;
  }
}

function defaultJson(field: SchemaField): JsonValue {
  const type = field.type;
  if (type.kind === 'enum') return type.enum.names[0]!;
  if (type.kind === 'message') return null;
  switch (type.type) {
    case 'string':
    case 'bytes':
      return '';
    case 'bool':
      return false;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return '0';
    default:
      return 0;
  }
}

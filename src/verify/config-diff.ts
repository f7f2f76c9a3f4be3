// The effective config (Triton's GET /v2/models/<name>/config) against config.pbtxt, field by field.
// Triton prints every scalar, defaults included (protobuf's always-print-primitive-fields) and int64
// values as numbers; tritonc's own JSON leaves defaults out and writes int64 as strings. Both sides
// are first brought to one form through the schema: defaults dropped, int64 as numbers, enums by name.
import type { SchemaField, SchemaMessage } from '../config/schema.js';
import { loadSchema } from '../config/schema.js';
import type { ConfigDifference } from './types.js';

type Leaves = Map<string, string>;

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function scalarValue(v: unknown, field: SchemaField): unknown {
  const type = field.type;
  if (type.kind === 'enum') return typeof v === 'number' ? (type.enum.byNumber.get(v) ?? v) : v;
  if (type.kind === 'scalar' && INT64.has(type.type) && typeof v === 'string' && /^-?\d+$/.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : v;
  }
  if (type.kind === 'scalar' && type.type === 'float' && typeof v === 'number') return Math.fround(v);
  return v;
}

function isDefault(v: unknown, field: SchemaField): boolean {
  const type = field.type;
  if (type.kind === 'enum') return v === 0 || v === type.enum.names[0];
  return v === '' || v === 0 || v === '0' || v === false || v === null;
}

const looseDefault = (v: unknown): boolean =>
  v === '' ||
  v === 0 ||
  v === false ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** Flattens a config JSON into path -> JSON text of the value, defaults left out. */
export function configLeaves(json: unknown, message: SchemaMessage = loadSchema().modelConfig): Leaves {
  const out: Leaves = new Map();
  walk(json, message, '', out);
  return out;
}

function walk(json: unknown, message: SchemaMessage, prefix: string, out: Leaves): void {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return;
  for (const [key, v] of Object.entries(json as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const field = message.fields.get(key);
    if (!field) {
      // A field newer than tritonc's schema: compare it as written.
      if (!looseDefault(v)) out.set(path, JSON.stringify(v));
      continue;
    }
    if (field.mapEntry) {
      const valueField = field.mapEntry.fields.get('value')!;
      for (const [k, e] of Object.entries((v ?? {}) as Record<string, unknown>)) element(e, valueField, `${path}[${JSON.stringify(k)}]`, out);
    } else if (field.repeated) {
      const list = Array.isArray(v) ? v : [];
      if (!list.length) continue;
      if (field.type.kind === 'message') list.forEach((e, i) => element(e, field, `${path}[${i}]`, out));
      else out.set(path, JSON.stringify(list.map((e) => scalarValue(e, field))));
    } else {
      element(v, field, path, out);
    }
  }
}

function element(v: unknown, field: SchemaField, path: string, out: Leaves): void {
  if (field.type.kind === 'message') {
    const before = out.size;
    walk(v, field.type.message, path, out);
    // A message with nothing but defaults still matters by being there (e.g. dynamic_batching {}).
    if (out.size === before) out.set(path, '{}');
    return;
  }
  const value = scalarValue(v, field);
  if (!isDefault(value, field)) out.set(path, JSON.stringify(value));
}

export function diffConfigs(local: unknown, effective: unknown): ConfigDifference[] {
  const a = configLeaves(local);
  const b = configLeaves(effective);
  const diffs: ConfigDifference[] = [];
  // An empty message on one side is present, not removed, when the other side has fields inside it.
  const hasInside = (leaves: Leaves, path: string): boolean => [...leaves.keys()].some((k) => k.startsWith(`${path}.`) || k.startsWith(`${path}[`));
  for (const [path, value] of a) {
    const other = b.get(path);
    if (other === undefined) {
      if (!(value === '{}' && hasInside(b, path))) diffs.push({ path, change: 'removed', local: value });
    } else if (other !== value) diffs.push({ path, change: 'changed', local: value, effective: other });
  }
  for (const [path, value] of b) if (!a.has(path) && !(value === '{}' && hasInside(a, path))) diffs.push({ path, change: 'added', effective: value });
  return diffs;
}

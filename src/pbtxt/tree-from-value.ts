// Builds the syntax tree of a plain config value, in canonical shape (repeated fields as one list,
// map entries one by one), so the value printer and the formatter share one printer.
import type { Position, Range } from '../diagnostics.js';
import type { SchemaField, SchemaMessage } from './descriptor.js';
import type { DocumentNode, FieldNode, ListNode, MessageNode, ScalarNode, ScalarValue } from './ast.js';
import { toInt64 } from './scalars.js';

const AT: Position = { line: 0, column: 0, offset: 0 };
const NO_RANGE: Range = { start: AT, end: AT };

export class ValueShapeError extends Error {}

export function treeFromValue(value: Record<string, unknown>, message: SchemaMessage): DocumentNode {
  return { kind: 'document', range: NO_RANGE, fields: fieldsOf(value, message, message.fullName), dangling: [] };
}

function fieldsOf(value: Record<string, unknown>, message: SchemaMessage, where: string): FieldNode[] {
  const out: FieldNode[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const field = message.fields.get(name);
    if (!field) throw new ValueShapeError(`${where} has no field named "${name}"`);
    const at = `${where}.${name}`;
    if (field.mapEntry) {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ValueShapeError(`${at} must be an object (a map)`);
      const entries = Object.entries(v as Record<string, unknown>);
      // An empty map that was set prints as an empty list, the one way to write it.
      if (!entries.length) out.push(fieldNode(field, { kind: 'list', range: NO_RANGE, elements: [], dangling: [] }));
      for (const [key, entryValue] of entries) {
        const entry = { key: mapKey(key, field.mapEntry), value: entryValue };
        out.push(fieldNode(field, messageNode(entry, field.mapEntry, `${at}[${JSON.stringify(key)}]`)));
      }
    } else if (field.repeated) {
      if (!Array.isArray(v)) throw new ValueShapeError(`${at} is repeated and must be an array`);
      const list: ListNode = {
        kind: 'list',
        range: NO_RANGE,
        dangling: [],
        elements: v.map((e, i) => ({
          value: field.type.kind === 'message' ? messageNode(e, field.type.message, `${at}[${i}]`) : scalarNode(e, field, `${at}[${i}]`),
          leading: [],
          blankLineBefore: false,
          blankLineAfterComments: false,
        })),
      };
      out.push(fieldNode(field, list));
    } else if (field.type.kind === 'message') {
      out.push(fieldNode(field, messageNode(v, field.type.message, at)));
    } else {
      out.push(fieldNode(field, scalarNode(v, field, at)));
    }
  }
  return out;
}

function mapKey(key: string, entry: SchemaMessage): ScalarValue {
  const type = entry.fields.get('key')!.type;
  if (type.kind !== 'scalar' || type.type === 'string') return key;
  if (type.type === 'bool') return key === 'true';
  return toInt64(BigInt(key));
}

function fieldNode(field: SchemaField, value: FieldNode['value']): FieldNode {
  return {
    kind: 'field',
    name: field.name,
    nameRange: NO_RANGE,
    field,
    colon: value.kind === 'scalar',
    value,
    range: NO_RANGE,
    leading: [],
    blankLineBefore: false,
    blankLineAfterComments: false,
  };
}

function messageNode(v: unknown, message: SchemaMessage, at: string): MessageNode {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ValueShapeError(`${at} must be an object (a ${message.fullName})`);
  return { kind: 'message', range: NO_RANGE, message, fields: fieldsOf(v as Record<string, unknown>, message, at), dangling: [] };
}

function scalarNode(v: unknown, field: SchemaField, at: string): ScalarNode {
  const type = field.type;
  let ok: boolean;
  if (type.kind === 'enum') ok = typeof v === 'string' ? type.enum.byName.has(v) : Number.isInteger(v);
  else if (type.kind === 'message') ok = false;
  else if (type.type === 'string' || type.type === 'bytes') ok = typeof v === 'string';
  else if (type.type === 'bool') ok = typeof v === 'boolean';
  else ok = typeof v === 'number' || typeof v === 'bigint';
  const typeName = type.kind === 'enum' ? type.enum.fullName : type.kind === 'message' ? type.message.fullName : type.type;
  if (!ok) throw new ValueShapeError(`${at} has a value of the wrong type for ${typeName}: ${String(v)}`);
  return { kind: 'scalar', range: NO_RANGE, text: String(v), value: v as ScalarValue };
}

// Builds the syntax tree of a plain config value, in canonical shape (repeated fields as one list,
// map entries one by one), so the value printer and the formatter share one printer.
import type { Position, Range } from '../diagnostics.js';
import type { SchemaField, SchemaMessage } from './descriptor.js';
import type { DocumentNode, FieldNode, ListNode, MessageNode, ScalarNode, ScalarValue } from './ast.js';
import { toInt64 } from './scalars.js';

const AT: Position = { line: 0, column: 0, offset: 0 };
const NO_RANGE: Range = { start: AT, end: AT };

export class ValueShapeError extends Error {}

/** The tree of a plain config value; throws ValueShapeError where the value does not have the message's shape. */
export function treeFromValue(value: Record<string, unknown>, message: SchemaMessage): DocumentNode {
  const problem = valueShapeProblem(value, message);
  if (problem !== undefined) throw new ValueShapeError(problem);
  return { kind: 'document', range: NO_RANGE, fields: fieldsOf(value, message), dangling: [] };
}

/**
 * What in `value` does not fit `message` (a field it does not have, a value of the wrong type, at any
 * depth), said with the path to it; undefined where every field fits. Makes nothing where it fits: a
 * lint checks every model's cached summary with it (value-shape.ts).
 */
export function valueShapeProblem(value: unknown, message: SchemaMessage): string | undefined {
  const path: Path = [];
  const problem = messageProblem(value, message, path);
  if (problem === undefined) return undefined;
  const at = path.map((s) => (typeof s === 'string' ? `.${s}` : typeof s === 'number' ? `[${s}]` : `[${JSON.stringify(s[0])}]`));
  return `${message.fullName}${at.join('')} ${problem}`;
}

/** Where in a value: a field's name, a list's index, a map's key (in a one-element array); made into text only for a problem. */
type Path = (string | number | [string])[];

/** What does not fit in a message value; `path` is left at the field that does not. */
function messageProblem(v: unknown, message: SchemaMessage, path: Path): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `must be an object (a ${message.fullName})`;
  for (const name in v) {
    if (!Object.hasOwn(v, name)) continue;
    const fieldValue = (v as Record<string, unknown>)[name];
    if (fieldValue === undefined) continue;
    path.push(name);
    const field = message.fields.get(name);
    if (!field) {
      path.pop();
      return `has no field named "${name}"`;
    }
    const problem = fieldProblem(fieldValue, field, path);
    if (problem !== undefined) return problem;
    path.pop();
  }
  return undefined;
}

function fieldProblem(v: unknown, field: SchemaField, path: Path): string | undefined {
  if (field.mapEntry) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object (a map)';
    const valueField = field.mapEntry.fields.get('value')!;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      path.push([key]);
      if (!mapKeyFits(key, field.mapEntry)) return `is not a key of ${field.mapEntry.fullName}`;
      const entryValue = (v as Record<string, unknown>)[key];
      if (entryValue !== undefined) {
        path.push('value');
        const problem = elementProblem(entryValue, valueField, path);
        if (problem !== undefined) return problem;
        path.pop();
      }
      path.pop();
    }
    return undefined;
  }
  if (!field.repeated) return elementProblem(v, field, path);
  if (!Array.isArray(v)) return 'is repeated and must be an array';
  for (let i = 0; i < v.length; i++) {
    path.push(i);
    const problem = elementProblem(v[i], field, path);
    if (problem !== undefined) return problem;
    path.pop();
  }
  return undefined;
}

/** One value of the field's type: a message, or a scalar or enum value. */
function elementProblem(v: unknown, field: SchemaField, path: Path): string | undefined {
  const type = field.type;
  if (type.kind === 'message') return messageProblem(v, type.message, path);
  let ok: boolean;
  if (type.kind === 'enum') ok = typeof v === 'string' ? type.enum.byName.has(v) : Number.isInteger(v);
  else if (type.type === 'string' || type.type === 'bytes') ok = typeof v === 'string';
  else if (type.type === 'bool') ok = typeof v === 'boolean';
  else ok = typeof v === 'number' || typeof v === 'bigint';
  return ok ? undefined : `has a value of the wrong type for ${type.kind === 'enum' ? type.enum.fullName : type.type}: ${String(v)}`;
}

/** Whether mapKey can read `key` as a key of the entry's type (an integer key must be an integer's text). */
function mapKeyFits(key: string, entry: SchemaMessage): boolean {
  const type = entry.fields.get('key')!.type;
  if (type.kind !== 'scalar' || type.type === 'string' || type.type === 'bool') return true;
  try {
    BigInt(key);
    return true;
  } catch {
    return false;
  }
}

/** The nodes of a value whose shape valueShapeProblem found fitting. */
function fieldsOf(value: Record<string, unknown>, message: SchemaMessage): FieldNode[] {
  const out: FieldNode[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const field = message.fields.get(name)!;
    if (field.mapEntry) {
      const entries = Object.entries(v as Record<string, unknown>);
      // An empty map that was set prints as an empty list, the one way to write it.
      if (!entries.length) out.push(fieldNode(field, { kind: 'list', range: NO_RANGE, elements: [], dangling: [] }));
      for (const [key, entryValue] of entries) {
        const entry = { key: mapKey(key, field.mapEntry), value: entryValue };
        out.push(fieldNode(field, messageNode(entry, field.mapEntry)));
      }
    } else if (field.repeated) {
      const list: ListNode = {
        kind: 'list',
        range: NO_RANGE,
        dangling: [],
        elements: (v as unknown[]).map((e) => ({
          value: field.type.kind === 'message' ? messageNode(e, field.type.message) : scalarNode(e),
          leading: [],
          blankLineBefore: false,
          blankLineAfterComments: false,
        })),
      };
      out.push(fieldNode(field, list));
    } else if (field.type.kind === 'message') {
      out.push(fieldNode(field, messageNode(v, field.type.message)));
    } else {
      out.push(fieldNode(field, scalarNode(v)));
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

function messageNode(v: unknown, message: SchemaMessage): MessageNode {
  return { kind: 'message', range: NO_RANGE, message, fields: fieldsOf(v as Record<string, unknown>, message), dangling: [] };
}

function scalarNode(v: unknown): ScalarNode {
  return { kind: 'scalar', range: NO_RANGE, text: String(v), value: v as ScalarValue };
}

// The plain value a parse builds (a message as an object of its fields), where a top-level field is
// written, and how a map entry is stored: shared by the tree parser and the clean parse.
import type { FieldKind, SchemaMessage } from './descriptor.js';
import type { Position } from '../diagnostics.js';
import type { ScalarValue } from './ast.js';

export type PlainMessage = Record<string, unknown>;

/**
 * Where a top-level field is written: what a lean parse keeps instead of its syntax tree, enough to
 * parse that field again on its own (parseFieldsAt) when a location in it is asked for.
 */
export interface FieldSpan {
  name: string;
  /** Where its name starts. */
  start: Position;
}

/** Adds a parsed map entry to the map field `name` of obj: the entry's value (its default when omitted) under its key's text. */
export function storeMapEntry(entryMsg: SchemaMessage, obj: PlainMessage, name: string, entry: PlainMessage): void {
  const valueField = entryMsg.fields.get('value')!;
  const key = mapKeyText(entry, entryMsg);
  const value = 'value' in entry ? entry.value : valueField.type.kind === 'message' ? {} : defaultScalar(valueField.type);
  const map = (obj[name] ??= {}) as PlainMessage;
  // Map keys come from the user: "__proto__" must be defined as an own property (an assignment would
  // set the prototype); every other key is assigned, which is much cheaper on a large map.
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

/** The text of a map entry's key as it is stored in the plain value (the key's default when omitted). */
export function mapKeyText(entry: PlainMessage, entryMsg: SchemaMessage): string {
  return 'key' in entry ? String(entry.key) : String(defaultScalar(entryMsg.fields.get('key')!.type));
}

export function defaultScalar(type: FieldKind): ScalarValue {
  if (type.kind === 'enum') return type.enum.names[0]!;
  if (type.kind === 'message') throw new Error('not a scalar');
  switch (type.type) {
    case 'string': case 'bytes': return '';
    case 'bool': return false;
    default: return 0;
  }
}

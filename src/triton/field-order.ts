// Puts a config value's fields in the order the schema declares them, at every level, so a resolved
// config prints the same way whatever order the pipeline added fields in (and in the order Triton's
// JSON uses).
import type { SchemaMessage } from '../config/schema.js';

export function inSchemaOrder<T extends object>(value: T, message: SchemaMessage): T {
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of message.fieldList) {
    const v = source[field.name];
    if (v === undefined) continue;
    if (field.mapEntry) {
      const valueField = field.mapEntry.fields.get('value')!;
      const entries = Object.entries(v as Record<string, unknown>);
      out[field.name] =
        valueField.type.kind === 'message'
          ? Object.fromEntries(entries.map(([k, e]) => [k, inSchemaOrder(e as object, (valueField.type as { message: SchemaMessage }).message)]))
          : v;
    } else if (field.type.kind === 'message') {
      const m = field.type.message;
      out[field.name] = field.repeated ? (v as object[]).map((e) => inSchemaOrder(e, m)) : inSchemaOrder(v as object, m);
    } else {
      out[field.name] = v;
    }
  }
  // Keep anything the schema does not know (it cannot come from the parser, but never drop data).
  for (const [k, v] of Object.entries(source)) if (!(k in out) && v !== undefined) out[k] = v;
  return out as T;
}

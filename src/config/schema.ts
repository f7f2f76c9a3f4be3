// The ModelConfig schema (schemas/model_config.proto), linked into the small shape the text-format
// parser, printer and checks need. The bundle carries it as data the build read from the .proto
// (schema-source.ts); the source tree reads the .proto.
import type { FieldKind, SchemaEnum, SchemaField, SchemaMessage } from '../pbtxt/descriptor.js';
import { readSchemaSource, type FieldSource, type SchemaSource, type TypeSource } from './schema-source.js';

export type { SchemaEnum, SchemaField, SchemaMessage };

export interface Schema {
  readonly modelConfig: SchemaMessage;
  message(fullName: string): SchemaMessage;
  readonly enums: ReadonlyMap<string, SchemaEnum>;
}

// Replaced at build time by the bundler with the JSON of readSchemaSource().
declare const __TRITONC_SCHEMA__: string | undefined;

let cached: Schema | undefined;

export function loadSchema(): Schema {
  cached ??= linkSchema(typeof __TRITONC_SCHEMA__ === 'string' ? (JSON.parse(__TRITONC_SCHEMA__) as SchemaSource) : readSchemaSource());
  return cached;
}

function linkSchema(source: SchemaSource): Schema {
  const enums = new Map<string, SchemaEnum>();
  for (const e of source.enums) {
    const byName = new Map<string, number>(e.values);
    const byNumber = new Map<number, string>();
    for (const [name, num] of byName) if (!byNumber.has(num)) byNumber.set(num, name);
    enums.set(e.fullName, { fullName: e.fullName, byName, byNumber, names: [...byName.keys()], docs: new Map(e.docs) });
  }
  const messages = new Map<string, SchemaMessage>();
  for (const m of source.messages) messages.set(m.fullName, { fullName: m.fullName, fields: new Map(), fieldList: [], isMapEntry: false });
  const kindOf = (t: TypeSource): FieldKind =>
    t.kind === 'scalar'
      ? { kind: 'scalar', type: t.type }
      : t.kind === 'enum'
        ? { kind: 'enum', enum: enums.get(t.enum)! }
        : { kind: 'message', message: messages.get(t.message)! };
  const fieldOf = (f: FieldSource, parent: SchemaMessage): SchemaField => {
    const extra = { ...(f.oneof !== undefined ? { oneof: f.oneof } : {}), ...(f.doc !== undefined ? { doc: f.doc } : {}) };
    if (f.map) {
      const entryFields = new Map<string, SchemaField>();
      const entry: SchemaMessage = { fullName: f.map.entry, fields: entryFields, fieldList: [], isMapEntry: true };
      const key: SchemaField = { name: 'key', number: 1, type: { kind: 'scalar', type: f.map.key }, repeated: false, parent: entry };
      const value: SchemaField = { name: 'value', number: 2, type: kindOf(f.type), repeated: false, parent: entry };
      entryFields.set('key', key);
      entryFields.set('value', value);
      (entry.fieldList as SchemaField[]).push(key, value);
      return { name: f.name, number: f.number, type: { kind: 'message', message: entry }, repeated: true, mapEntry: entry, parent, ...extra };
    }
    return { name: f.name, number: f.number, type: kindOf(f.type), repeated: f.repeated, parent, ...extra };
  };
  for (const m of source.messages) {
    const msg = messages.get(m.fullName)!;
    for (const f of m.fields) {
      const field = fieldOf(f, msg);
      (msg.fields as Map<string, SchemaField>).set(field.name, field);
      (msg.fieldList as SchemaField[]).push(field);
    }
  }
  const modelConfig = messages.get('inference.ModelConfig')!;

  return {
    modelConfig,
    enums,
    message(fullName: string): SchemaMessage {
      const m = messages.get(fullName);
      if (!m) throw new Error(`unknown message type ${fullName}`);
      return m;
    },
  };
}

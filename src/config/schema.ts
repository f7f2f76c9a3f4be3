// The ModelConfig schema, read from schemas/model_config.proto through protobufjs reflection and
// flattened into the small shape the text-format parser, printer and checks need.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { FieldKind, ScalarType, SchemaEnum, SchemaField, SchemaMessage } from '../pbtxt/descriptor.js';

export type { FieldKind, ScalarType, SchemaEnum, SchemaField, SchemaMessage };

export interface Schema {
  readonly root: protobuf.Root;
  readonly modelConfig: SchemaMessage;
  message(fullName: string): SchemaMessage;
  readonly enums: ReadonlyMap<string, SchemaEnum>;
}

const SCHEMA_RELATIVE = join('schemas', 'model_config.proto');

/** Finds schemas/model_config.proto above this module, in the source tree and in the bundle alike. */
export function schemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, SCHEMA_RELATIVE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`tritonc: cannot find ${SCHEMA_RELATIVE} next to the installed package`);
    dir = parent;
  }
}

let cached: Schema | undefined;

export function loadSchema(): Schema {
  if (cached) return cached;
  const source = readFileSync(schemaPath(), 'utf8');
  // alternateCommentMode: the `//` lines above a field or enum value become its comment (its docs).
  const root = protobuf.parse(source, { keepCase: true, alternateCommentMode: true }).root;
  root.resolveAll();
  cached = buildSchema(root);
  return cached;
}

function buildSchema(root: protobuf.Root): Schema {
  const messages = new Map<string, SchemaMessage>();
  const enums = new Map<string, SchemaEnum>();

  const enumOf = (e: protobuf.Enum): SchemaEnum => {
    const fullName = e.fullName.replace(/^\./, '');
    let out = enums.get(fullName);
    if (!out) {
      const byName = new Map<string, number>(Object.entries(e.values));
      const byNumber = new Map<number, string>();
      for (const [name, num] of byName) if (!byNumber.has(num)) byNumber.set(num, name);
      const docs = new Map(Object.entries(e.comments).flatMap(([name, c]) => (c ? [[name, c] as [string, string]] : [])));
      out = { fullName, byName, byNumber, names: [...byName.keys()], docs };
      enums.set(fullName, out);
    }
    return out;
  };

  const messageOf = (t: protobuf.Type): SchemaMessage => {
    const fullName = t.fullName.replace(/^\./, '');
    const existing = messages.get(fullName);
    if (existing) return existing;
    const fields = new Map<string, SchemaField>();
    const fieldList: SchemaField[] = [];
    const msg: SchemaMessage = { fullName, fields, fieldList, isMapEntry: false };
    messages.set(fullName, msg);
    for (const f of t.fieldsArray) {
      const field = fieldOf(f, msg);
      fields.set(field.name, field);
      fieldList.push(field);
    }
    return msg;
  };

  const kindOf = (f: protobuf.Field, type: string): FieldKind => {
    const resolved = f.resolvedType;
    if (resolved instanceof protobuf.Type) return { kind: 'message', message: messageOf(resolved) };
    if (resolved instanceof protobuf.Enum) return { kind: 'enum', enum: enumOf(resolved) };
    return { kind: 'scalar', type: type as ScalarType };
  };

  const fieldOf = (f: protobuf.Field, parent: SchemaMessage): SchemaField => {
    const oneof = f.partOf ? { oneof: f.partOf.name } : {};
    const doc = f.comment ? { doc: f.comment } : {};
    if (f instanceof protobuf.MapField) {
      // protobuf models a map as a repeated `<Name>Entry { key = 1; value = 2; }` message; so do we,
      // because that is how the text format spells it.
      const entryName = `${parent.fullName}.${f.name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Entry`;
      const entryFields = new Map<string, SchemaField>();
      const entry: SchemaMessage = { fullName: entryName, fields: entryFields, fieldList: [], isMapEntry: true };
      const key: SchemaField = { name: 'key', number: 1, type: { kind: 'scalar', type: f.keyType as ScalarType }, repeated: false, parent: entry };
      const value: SchemaField = { name: 'value', number: 2, type: kindOf(f, f.type), repeated: false, parent: entry };
      entryFields.set('key', key);
      entryFields.set('value', value);
      (entry.fieldList as SchemaField[]).push(key, value);
      return { name: f.name, number: f.id, type: { kind: 'message', message: entry }, repeated: true, mapEntry: entry, parent, ...oneof, ...doc };
    }
    return { name: f.name, number: f.id, type: kindOf(f, f.type), repeated: f.repeated, parent, ...oneof, ...doc };
  };

  const modelConfig = messageOf(root.lookupType('inference.ModelConfig'));
  // Visit every declared type so lookups of messages not reachable from ModelConfig work too.
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) messageOf(nested);
      else if (nested instanceof protobuf.Enum) enumOf(nested);
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested as protobuf.NamespaceBase);
    }
  };
  visit(root);

  return {
    root,
    modelConfig,
    enums,
    message(fullName: string): SchemaMessage {
      const m = messages.get(fullName);
      if (!m) throw new Error(`unknown message type ${fullName}`);
      return m;
    },
  };
}

// schemas/model_config.proto read with protobufjs and flattened into plain data (SchemaSource):
// what schema.ts links into the descriptors the parser and printer use. The build does this once
// and puts the data in the bundle, so a command never parses the .proto (nor loads protobufjs);
// the source tree (tests) reads the .proto here.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { ScalarType } from '../pbtxt/descriptor.js';

/** A field's type, naming messages and enums by their full names. */
export type TypeSource = { kind: 'scalar'; type: ScalarType } | { kind: 'enum'; enum: string } | { kind: 'message'; message: string };

export interface FieldSource {
  name: string;
  number: number;
  repeated: boolean;
  /** For a map field, the value's type; else the field's. */
  type: TypeSource;
  /** A map field: the name of its `<Name>Entry` message and the key's type. */
  map?: { entry: string; key: ScalarType };
  oneof?: string;
  doc?: string;
}

export interface SchemaSource {
  /** In the order the descriptors are first met (from ModelConfig, then every declared type). */
  enums: { fullName: string; values: [string, number][]; docs: [string, string][] }[];
  messages: { fullName: string; fields: FieldSource[] }[];
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

/** The .proto as protobufjs reflects it (tests decode protoc's output with it). */
export function protoRoot(path: string = schemaPath()): protobuf.Root {
  // alternateCommentMode: the `//` lines above a field or enum value become its comment (its docs).
  const root = protobuf.parse(readFileSync(path, 'utf8'), { keepCase: true, alternateCommentMode: true }).root;
  root.resolveAll();
  return root;
}

export function readSchemaSource(path: string = schemaPath()): SchemaSource {
  const root = protoRoot(path);
  const enums = new Map<string, SchemaSource['enums'][number]>();
  const messages = new Map<string, SchemaSource['messages'][number]>();
  const nameOf = (t: protobuf.ReflectionObject): string => t.fullName.replace(/^\./, '');

  const enumOf = (e: protobuf.Enum): string => {
    const fullName = nameOf(e);
    if (!enums.has(fullName)) {
      enums.set(fullName, {
        fullName,
        values: Object.entries(e.values),
        docs: Object.entries(e.comments).flatMap(([name, c]) => (c ? [[name, c] as [string, string]] : [])),
      });
    }
    return fullName;
  };
  const messageOf = (t: protobuf.Type): string => {
    const fullName = nameOf(t);
    if (messages.has(fullName)) return fullName;
    const fields: FieldSource[] = [];
    messages.set(fullName, { fullName, fields });
    for (const f of t.fieldsArray) fields.push(fieldOf(f, fullName));
    return fullName;
  };
  const typeOf = (f: protobuf.Field): TypeSource => {
    const resolved = f.resolvedType;
    if (resolved instanceof protobuf.Type) return { kind: 'message', message: messageOf(resolved) };
    if (resolved instanceof protobuf.Enum) return { kind: 'enum', enum: enumOf(resolved) };
    return { kind: 'scalar', type: f.type as ScalarType };
  };
  const fieldOf = (f: protobuf.Field, parent: string): FieldSource => {
    const extra = { ...(f.partOf ? { oneof: f.partOf.name } : {}), ...(f.comment ? { doc: f.comment } : {}) };
    if (f instanceof protobuf.MapField) {
      // protobuf models a map as a repeated `<Name>Entry { key = 1; value = 2; }` message; so do we,
      // because that is how the text format spells it.
      const entry = `${parent}.${f.name.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}Entry`;
      return { name: f.name, number: f.id, repeated: true, type: typeOf(f), map: { entry, key: f.keyType as ScalarType }, ...extra };
    }
    return { name: f.name, number: f.id, repeated: f.repeated, type: typeOf(f), ...extra };
  };

  messageOf(root.lookupType('inference.ModelConfig'));
  // Every declared type too, so lookups of messages not reachable from ModelConfig work.
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) messageOf(nested);
      else if (nested instanceof protobuf.Enum) enumOf(nested);
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested);
    }
  };
  visit(root);
  return { enums: [...enums.values()], messages: [...messages.values()] };
}

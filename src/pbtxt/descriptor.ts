// The schema descriptors the text-format parser and printer are driven by: messages, fields,
// enums and scalar types, as protobuf describes them. Any .proto can be flattened into this shape;
// src/config/schema.ts does it for Triton's model_config.proto.
export type ScalarType =
  | 'double'
  | 'float'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes';

export interface SchemaEnum {
  readonly fullName: string;
  readonly byName: ReadonlyMap<string, number>;
  readonly byNumber: ReadonlyMap<number, string>;
  /** Value names in declaration order. */
  readonly names: readonly string[];
  /** Each value's documentation (the schema's comment above it), where it has one. */
  readonly docs?: ReadonlyMap<string, string>;
}

export type FieldKind =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'enum'; readonly enum: SchemaEnum }
  | { readonly kind: 'message'; readonly message: SchemaMessage };

export interface SchemaField {
  readonly name: string;
  readonly number: number;
  readonly type: FieldKind;
  readonly repeated: boolean;
  /** Set for map fields: the entry message (fields `key` and `value`). */
  readonly mapEntry?: SchemaMessage;
  /** Name of the oneof this field belongs to. */
  readonly oneof?: string;
  /** The message that declares the field. */
  readonly parent: SchemaMessage;
  /** The field's documentation: the schema's comment above it (editor hover and completion). */
  readonly doc?: string;
}

export interface SchemaMessage {
  readonly fullName: string;
  readonly fields: ReadonlyMap<string, SchemaField>;
  /** Fields in declaration order. */
  readonly fieldList: readonly SchemaField[];
  /** True for the synthetic `<Field>Entry` message of a map field. */
  readonly isMapEntry: boolean;
}

// The protobuf wire format as the model readers that walk protobuf (ONNX's ModelProto, TensorFlow's
// SavedModel) check it: wire types, and what a tag must be. Each reader keeps its own cursor over the
// file (ONNX's reads by generator-driven windows, the SavedModel's by one refilled window).

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

const WIRE_NAMES = ['varint', '64-bit', 'length-delimited', 'group start', 'group end', '32-bit'];

export interface Tag {
  field: number;
  wire: number;
  /** File offset of the tag's first byte. */
  at: number;
}

/**
 * The tag whose varint `value` took `bytes` bytes from file offset `at`, or why it is not one;
 * `writer` names what writes the format (a group is never written by it).
 */
export function decodeTag(value: number, bytes: number, at: number, writer: string): Tag | string {
  if (bytes > 5 || value > 0xffffffff) return 'invalid field tag (larger than 32 bits)';
  const field = Math.floor(value / 8);
  const wire = value % 8;
  if (field === 0) return 'invalid field tag (field number 0)';
  if (wire === 3 || wire === 4) return `field ${field} uses a protobuf group (wire type ${wire}), which ${writer} never writes`;
  if (wire > 5) return `invalid wire type ${wire} for field ${field}`;
  return { field, wire, at };
}

/** Why `tag` is not of the wire type the schema gives its field (`what`), or undefined when it is. */
export function wireMismatch(tag: Tag, wire: number, what: string): string | undefined {
  return tag.wire === wire ? undefined : `${what} (field ${tag.field}) has wire type ${tag.wire} (${WIRE_NAMES[tag.wire]}), expected ${wire} (${WIRE_NAMES[wire]})`;
}

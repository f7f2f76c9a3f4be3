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

/** Why a varint is not a tag: each reader words it by its own message id (messages.ts). */
export type TagProblem = { problem: 'tooLarge' } | { problem: 'fieldZero' } | { problem: 'group' | 'wireType'; fieldNumber: number; wire: number };

/** The tag whose varint `value` took `bytes` bytes from file offset `at`, or why it is not one (a group: the formats never write one). */
export function decodeTag(value: number, bytes: number, at: number): Tag | TagProblem {
  if (bytes > 5 || value > 0xffffffff) return { problem: 'tooLarge' };
  const field = Math.floor(value / 8);
  const wire = value % 8;
  if (field === 0) return { problem: 'fieldZero' };
  if (wire === 3 || wire === 4) return { problem: 'group', fieldNumber: field, wire };
  if (wire > 5) return { problem: 'wireType', fieldNumber: field, wire };
  return { field, wire, at };
}

/** The values of a wire type mismatch: `tag` is not of the wire type the schema gives its field (`field`); undefined when it is. */
export function wireMismatch(
  tag: Tag,
  wire: number,
  field: string,
): { field: string; fieldNumber: number; wire: number; wireName: string; expected: number; expectedName: string } | undefined {
  return tag.wire === wire
    ? undefined
    : { field, fieldNumber: tag.field, wire: tag.wire, wireName: WIRE_NAMES[tag.wire]!, expected: wire, expectedName: WIRE_NAMES[wire]! };
}

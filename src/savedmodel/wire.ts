// A bounded protobuf walk over a file read by position, for saved_model.pb: one fixed window of
// bytes, refilled on demand, and length-delimited fields the walk does not need (the GraphDef with
// its node bodies and constants) skipped by moving the position past them, never read. Every length
// is checked against the end of the message that holds it, so a corrupt length fails with the byte
// offset instead of reading past the file or allocating what it claims.
import { ModelReadError } from '../model-file/errors.js';
import type { ReadMessage } from '../model-file/messages.js';
import { decodeTag, WIRE_I32, WIRE_I64, WIRE_VARINT, wireMismatch, type Tag } from '../model-file/protobuf.js';

/**
 * What a varint is read for, which the messages word apart: a field's tag, the length of the field
 * named (`the length of MetaGraphDef.signature_def`), or the field's value. A field is named by its
 * path in TensorFlow's protos, or where the walk has no name for it, "field <number>".
 */
type VarintPart = 'tag' | 'length' | 'value';
const VARINT_IDS = {
  tag: { cutOffFile: 'savedModelTagCutOffFile', cutOffMessage: 'savedModelTagCutOffMessage', overflow: 'savedModelTagOverflow' },
  length: { cutOffFile: 'savedModelLengthCutOffFile', cutOffMessage: 'savedModelLengthCutOffMessage', overflow: 'savedModelLengthOverflow' },
  value: { cutOffFile: 'savedModelCutOffFile', cutOffMessage: 'savedModelCutOffMessage', overflow: 'savedModelVarintOverflow' },
} as const;

/** Positioned reads of one file: answer how many bytes were read into buffer[offset..offset+length). */
export interface ByteSource {
  readonly size: number;
  read(buffer: Buffer, offset: number, length: number, position: number): number;
}


/** Names, tags and signature keys are short; a string claiming more than this is refused. */
export const MAX_STRING_BYTES = 1024 * 1024;

const WINDOW_BYTES = 64 * 1024;


export class Cursor {
  pos = 0;
  private readonly buf: Buffer;
  private start = 0;
  private end = 0;

  constructor(
    readonly file: string,
    private readonly source: ByteSource,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(16, Math.min(WINDOW_BYTES, source.size)));
  }

  get size(): number {
    return this.source.size;
  }

  fail(problem: ReadMessage, at: number = this.pos): never {
    throw new ModelReadError('format', this.file, at, problem);
  }

  /** Makes min(n, limit - pos) bytes at pos available in the window (n at most the window's size). */
  private fill(n: number, limit: number): void {
    const want = Math.min(n, limit - this.pos, this.buf.length);
    if (this.pos >= this.start && this.pos + want <= this.end) return;
    const length = Math.min(this.buf.length, this.size - this.pos);
    const got = this.source.read(this.buf, 0, length, this.pos);
    this.start = this.pos;
    this.end = this.pos + got;
    if (this.end < this.pos + want) this.fail({ messageId: 'savedModelFileChanged', data: { end: this.end, size: this.size } });
  }

  /** The byte at pos (which must be below limit). */
  private byte(limit: number, what: string, part: VarintPart): number {
    if (this.pos >= limit) this.cutOff(limit, what, part);
    this.fill(1, limit);
    return this.buf[this.pos++ - this.start]!;
  }

  private cutOff(limit: number, what: string, part: VarintPart): never {
    const ids = VARINT_IDS[part];
    // A tag's messages take no field name (the id says it is the tag).
    const field = part === 'tag' ? {} : { field: what };
    const problem = limit >= this.size ? { messageId: ids.cutOffFile, data: field } : { messageId: ids.cutOffMessage, data: { ...field, limit } };
    return this.fail(problem as ReadMessage);
  }

  /** An unsigned varint as a Number (above 2^53 inexact but still above MAX_SAFE_INTEGER: "too large" to every caller). */
  uvarint(limit: number, what: string, part: VarintPart = 'value'): number {
    const at = this.pos;
    let value = 0;
    let scale = 1;
    for (let n = 0; ; n++) {
      // The 10th byte ends the varint or fails here: no varint reaches an 11th byte.
      const b = this.byte(limit, what, part);
      if (n === 9 && b > 1) this.fail({ messageId: VARINT_IDS[part].overflow, data: part === 'tag' ? {} : { field: what } } as ReadMessage, at);
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) return value;
    }
  }

  /** A varint read as protobuf's int64 (two's complement: -1 is ten bytes); exact within +-2^53. */
  int64(limit: number, what: string): number {
    const at = this.pos;
    let value = 0n;
    for (let n = 0; ; n++) {
      if (n === 10) this.fail({ messageId: 'savedModelVarintTooLong', data: { field: what } }, at);
      const b = this.byte(limit, what, 'value');
      value |= BigInt(b & 0x7f) << BigInt(7 * n);
      if (b < 0x80) return Number(BigInt.asIntN(64, value));
    }
  }

  tag(limit: number): Tag {
    const at = this.pos;
    const value = this.uvarint(limit, '', 'tag');
    const tag = decodeTag(value, this.pos - at, at);
    if (!('problem' in tag)) return tag;
    if (tag.problem === 'tooLarge') return this.fail({ messageId: 'savedModelTagTooLarge', data: {} }, at);
    if (tag.problem === 'fieldZero') return this.fail({ messageId: 'savedModelTagFieldZero', data: {} }, at);
    const data = { fieldNumber: tag.fieldNumber, wire: tag.wire };
    return this.fail(tag.problem === 'group' ? { messageId: 'savedModelTagGroup', data } : { messageId: 'savedModelTagWireType', data }, at);
  }

  expect(tag: Tag, wire: number, what: string): void {
    const mismatch = wireMismatch(tag, wire, what);
    if (mismatch) this.fail({ messageId: 'savedModelWireMismatch', data: mismatch }, tag.at);
  }

  /** Reads a length prefix and answers the end offset of the field's bytes, checked against `limit`. */
  lengthEnd(limit: number, what: string): number {
    const at = this.pos;
    const length = this.uvarint(limit, what, 'length');
    if (length > limit - this.pos) {
      const data = { field: what, claimed: length, remaining: limit - this.pos };
      this.fail(limit >= this.size ? { messageId: 'savedModelLengthPastFile', data } : { messageId: 'savedModelLengthPastMessage', data: { ...data, limit } }, at);
    }
    return this.pos + length;
  }

  /** Moves past the value of a field the walk does not need, without reading a length-delimited one. */
  skip(tag: Tag, limit: number): void {
    switch (tag.wire) {
      case WIRE_VARINT:
        this.uvarint(limit, `field ${tag.field}`);
        return;
      case WIRE_I64:
        this.advance(8, limit, `field ${tag.field}`);
        return;
      case WIRE_I32:
        this.advance(4, limit, `field ${tag.field}`);
        return;
      default:
        this.pos = this.lengthEnd(limit, `field ${tag.field}`);
    }
  }

  private advance(n: number, limit: number, what: string): void {
    if (n > limit - this.pos) this.cutOff(limit, what, 'value');
    this.pos += n;
  }

  /** A length-delimited string (UTF-8), at most MAX_STRING_BYTES. */
  string(limit: number, what: string): string {
    const at = this.pos;
    const end = this.lengthEnd(limit, what);
    const length = end - this.pos;
    if (length > MAX_STRING_BYTES) this.fail({ messageId: 'savedModelStringTooLong', data: { field: what, length, max: MAX_STRING_BYTES } }, at);
    const out = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      this.fill(length - done, end);
      const n = Math.min(length - done, this.end - this.pos);
      this.buf.copy(out, done, this.pos - this.start, this.pos - this.start + n);
      done += n;
      this.pos += n;
    }
    return out.toString('utf8');
  }

  /** The first `n` bytes of the file (fewer when it is shorter). */
  head(n: number): Buffer {
    const length = Math.min(n, this.size);
    const out = Buffer.alloc(length);
    const saved = this.pos;
    this.pos = 0;
    this.fill(length, length);
    this.buf.copy(out, 0, 0 - this.start, length - this.start);
    this.pos = saved;
    return out;
  }
}

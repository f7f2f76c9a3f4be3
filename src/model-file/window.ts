// The protobuf byte window every model reader that walks protobuf uses (ONNX's ModelProto,
// TensorFlow's saved_model.pb): wire-format primitives over one small movable window of a file.
//
// The walker never holds the file: it asks its driver for positioned reads into one fixed buffer
// (64 KiB by default) and moves `pos` past fields it does not need without reading them. Reads are
// expressed as yielded requests so the same walker runs under a synchronous driver (fs.readSync,
// driveSync) and an asynchronous one (FileHandle.read, a ranged GET). Every length is checked against
// the end of the message that holds it before anything is read or allocated. Offsets are plain
// Numbers: exact up to 2^53, far beyond any file, so > 4 GiB models need no special casing.

import { isUtf8 } from 'node:buffer';
import { bytesText } from '../util/bytes-text.js';
import { ModelReadError } from './errors.js';
import type { ReadMessage } from './messages.js';
import type { ModelFormat } from './open.js';
import { decodeTag, WIRE_I32, WIRE_I64, WIRE_VARINT, wireMismatch, type Tag } from './protobuf.js';

/**
 * What a varint is read for, which the messages word apart: a field's tag, the length of the field
 * named (`length of ModelProto.graph`), or the field's value. A field is named by its path in the
 * format's protos, or where the walk has no name for it, "field <number>".
 */
type VarintPart = 'tag' | 'length' | 'value';
const VARINT_IDS = {
  tag: { cutOffFile: 'protobufTagCutOffFile', cutOffMessage: 'protobufTagCutOffMessage', overflow: 'protobufTagOverflow' },
  length: { cutOffFile: 'protobufLengthCutOffFile', cutOffMessage: 'protobufLengthCutOffMessage', overflow: 'protobufLengthOverflow' },
  value: { cutOffFile: 'protobufVarintCutOffFile', cutOffMessage: 'protobufVarintCutOffMessage', overflow: 'protobufVarintOverflow' },
} as const;

export type IoRequest =
  /**
   * Read `length` bytes at file `position` into buffer[offset..]; answer the count read. Of these the
   * walk needs the first `need`: the rest is read-ahead, which a driver may cut short (a ranged GET
   * after a jump past weights); a count below `need` means the file ended.
   */
  | { op: 'read'; buffer: Buffer; offset: number; length: number; position: number; need: number }
  /**
   * Answer the size in bytes of the regular file at `path` (external data), null when there is none,
   * or OUTSIDE when its links lead out of `dir` (the model's directory), which is then never stat-ed.
   */
  | { op: 'size'; path: string; dir: string };

/** The answer to a 'size' request whose path, its links followed, is not in the model's directory. */
export const OUTSIDE = 'outside';

export type IoAnswer = number | null | typeof OUTSIDE;

/** The answer to a 'read': a count (a driver answers nothing else to one). */
export function readCount(answer: IoAnswer): number {
  return typeof answer === 'number' ? answer : 0;
}

/** A computation that performs I/O through its driver and returns T. */
export type Io<T> = Generator<IoRequest, T, IoAnswer>;

/** Bytes a tag plus the varint or fixed value right after it can take: fetched together. */
export const HEADER_BYTES = 20;

/** Decoded strings beyond this many bytes are refused by default: names and metadata are never this large. */
export const MAX_STRING_BYTES = 64 * 1024 * 1024;

export const MIN_WINDOW_BYTES = 64;
export const DEFAULT_WINDOW_BYTES = 64 * 1024;

/** The window's size for a file of `size` bytes: `windowBytes`, at most the file and at least MIN_WINDOW_BYTES. */
export function windowSize(size: number, windowBytes: number = DEFAULT_WINDOW_BYTES): number {
  return Math.max(MIN_WINDOW_BYTES, Math.min(Math.floor(windowBytes), size));
}

export class ByteWindow {
  /** Current read position (file offset). */
  pos = 0;
  private readonly buf: Buffer;
  /** File range currently held in buf: [start, end). */
  private start = 0;
  private end = 0;
  private readonly maxStringBytes: number;

  /**
   * `format`: the reader's, which its errors carry. `scratch`: a buffer to hold the window in, when the
   * caller has one free (the synchronous ONNX reader reuses one for every model: a new 64 KiB buffer
   * per model, zeroed and soon garbage, cost more than reading a small model). Never more window than
   * the file: a small model gets a small buffer. `maxStringBytes`: the longest string decoded.
   */
  constructor(
    readonly file: string,
    readonly size: number,
    readonly format: ModelFormat,
    options: { windowBytes?: number; scratch?: Buffer; maxStringBytes?: number } = {},
  ) {
    const bytes = windowSize(size, options.windowBytes);
    const scratch = options.scratch;
    this.buf = scratch && scratch.length >= bytes ? scratch.subarray(0, bytes) : Buffer.allocUnsafe(bytes);
    this.maxStringBytes = options.maxStringBytes ?? MAX_STRING_BYTES;
  }

  fail(problem: ReadMessage, at: number = this.pos): never {
    throw new ModelReadError('format', this.file, at, problem, undefined, { format: this.format });
  }

  /** True when min(n, limit - pos) bytes at pos are already in the window. */
  ready(n: number, limit: number): boolean {
    return this.pos >= this.start && this.pos + Math.min(n, limit - this.pos) <= this.end;
  }

  /** Make min(n, limit - pos) bytes at pos available (n at most the window size). */
  *fill(n: number, limit: number): Io<void> {
    if (this.ready(n, limit)) return;
    const want = Math.min(n, limit - this.pos, this.buf.length);
    const length = Math.min(this.buf.length, this.size - this.pos);
    const got = yield { op: 'read', buffer: this.buf, offset: 0, length, position: this.pos, need: want };
    this.start = this.pos;
    this.end = this.pos + readCount(got);
    if (this.end < this.pos + want) {
      this.fail({ messageId: 'protobufFileChanged', data: { end: this.end, size: this.size } });
    }
  }

  /** True when the bytes at pos (already in the window) begin with `prefix`. */
  lookingAt(prefix: readonly number[]): boolean {
    const from = this.pos - this.start;
    return this.pos >= this.start && this.pos + prefix.length <= this.end && prefix.every((b, i) => this.buf[from + i] === b);
  }

  /** The byte at file offset `at` if the window holds it. */
  byteAt(at: number): number | undefined {
    return at >= this.start && at < this.end ? this.buf[at - this.start] : undefined;
  }

  /** Reads a tag; the caller has made HEADER_BYTES available. */
  tag(limit: number): Tag {
    const at = this.pos;
    const value = this.uvarint(limit, '', 'tag');
    const tag = decodeTag(value, this.pos - at, at);
    if (!('problem' in tag)) return tag;
    if (tag.problem === 'tooLarge') return this.fail({ messageId: 'protobufTagTooLarge', data: {} }, at);
    if (tag.problem === 'fieldZero') return this.fail({ messageId: 'protobufTagFieldZero', data: {} }, at);
    const data = { fieldNumber: tag.fieldNumber, wire: tag.wire };
    return this.fail(
      tag.problem === 'group' ? { messageId: 'protobufTagGroup', data: { ...data, format: this.format } } : { messageId: 'protobufTagWireType', data },
      at,
    );
  }

  /** Fails unless the tag has the wire type the schema gives the field. */
  expect(tag: Tag, wire: number, what: string): void {
    const mismatch = wireMismatch(tag, wire, what);
    if (mismatch) this.fail({ messageId: 'protobufWireMismatch', data: mismatch }, tag.at);
  }

  /**
   * Reads a varint as an unsigned Number. Values above 2^53 come back inexact but still above
   * Number.MAX_SAFE_INTEGER, which every caller treats as "too large".
   */
  uvarint(limit: number, what: string, part: VarintPart = 'value'): number {
    const at = this.pos;
    const avail = Math.min(this.end, limit) - at;
    const base = at - this.start;
    let value = 0;
    let scale = 1;
    for (let n = 0; ; n++) {
      if (n >= avail) {
        // A tag's messages take no field name (the id says it is the tag).
        const field = part === 'tag' ? {} : { field: what };
        const ids = VARINT_IDS[part];
        const problem =
          limit >= this.size
            ? { messageId: ids.cutOffFile, data: { ...field, fileSize: plural(this.size, 'byte') } }
            : { messageId: ids.cutOffMessage, data: { ...field, limit } };
        this.fail(problem as ReadMessage, at);
      }
      // The 10th byte ends the varint or fails here: no varint reaches an 11th byte.
      const b = this.buf[base + n]!;
      if (n === 9 && b > 1) this.fail({ messageId: VARINT_IDS[part].overflow, data: part === 'tag' ? {} : { field: what } } as ReadMessage, at);
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (b < 0x80) {
        this.pos = at + n + 1;
        return value;
      }
    }
  }

  /**
   * Reads a varint as a signed 64-bit integer (protobuf int64). Negative values take 10 bytes and are
   * rebuilt with BigInt, since Number arithmetic cannot represent their two's-complement form.
   */
  int64(limit: number, what: string): number {
    const at = this.pos;
    const approx = this.uvarint(limit, what);
    const len = this.pos - at;
    if (len <= 7) return approx; // up to 49 bits: exact, and always non-negative
    return Number(BigInt.asIntN(64, this.exactVarint(at, len)));
  }

  /** Reads a varint as protobuf int32: the low 32 bits, signed (negative values are sign-extended on the wire). */
  int32(limit: number, what: string): number {
    const at = this.pos;
    const approx = this.uvarint(limit, what);
    const len = this.pos - at;
    if (len <= 4) return approx; // up to 28 bits
    return Number(BigInt.asIntN(32, this.exactVarint(at, len)));
  }

  private exactVarint(at: number, len: number): bigint {
    const base = at - this.start;
    let v = 0n;
    for (let n = len - 1; n >= 0; n--) v = (v << 7n) | BigInt(this.buf[base + n]! & 0x7f);
    return v;
  }

  /** Reads a length prefix and returns the end offset of the bytes it announces, checked against `limit`. */
  lengthDelimited(limit: number, what: string): number {
    const at = this.pos;
    const len = this.uvarint(limit, what, 'length');
    if (len > limit - this.pos) {
      const data = { field: what, claimed: len, remaining: plural(limit - this.pos, 'byte') };
      const huge = len > Number.MAX_SAFE_INTEGER;
      if (limit >= this.size)
        this.fail({ messageId: huge ? 'protobufHugeLengthPastFile' : 'protobufLengthPastFile', data: { ...data, fileSize: plural(this.size, 'byte') } }, at);
      this.fail({ messageId: huge ? 'protobufHugeLengthPastMessage' : 'protobufLengthPastMessage', data: { ...data, limit } }, at);
    }
    return this.pos + len;
  }

  /** Skips one field's value by wire type, reading only its length prefix. */
  skip(tag: Tag, limit: number): void {
    const what = `field ${tag.field}`;
    switch (tag.wire) {
      case WIRE_VARINT:
        this.uvarint(limit, what);
        return;
      case WIRE_I64:
        this.skipFixed(8, limit, what);
        return;
      case WIRE_I32:
        this.skipFixed(4, limit, what);
        return;
      default:
        this.pos = this.lengthDelimited(limit, what);
    }
  }

  skipFixed(bytes: number, limit: number, what: string): void {
    if (limit - this.pos < bytes) {
      this.fail(
        limit >= this.size
          ? { messageId: 'protobufFixedCutOffFile', data: { field: what, bytes, fileSize: plural(this.size, 'byte') } }
          : { messageId: 'protobufFixedCutOffMessage', data: { field: what, bytes, limit } },
      );
    }
    this.pos += bytes;
  }

  /** Reads a length-delimited UTF-8 string field's value (bytes not UTF-8 each become U+FFFD). */
  *string(limit: number, what: string): Io<string> {
    return (yield* this.text(limit, what)).text;
  }

  /**
   * Reads a length-delimited string field's value, and where its bytes are not UTF-8 (which a proto3
   * string never is, and an ONNX file's may be), those bytes as bytesText shows them.
   */
  *text(limit: number, what: string): Io<{ text: string; notUtf8?: string }> {
    const at = this.pos;
    const end = this.lengthDelimited(limit, what);
    const len = end - this.pos;
    if (len > this.maxStringBytes) this.fail({ messageId: 'protobufStringTooLong', data: { field: what, length: len, max: this.maxStringBytes } }, at);
    let bytes: Buffer;
    if (len <= this.buf.length) {
      yield* this.fill(len, end);
      const from = this.pos - this.start;
      this.pos = end;
      bytes = this.buf.subarray(from, from + len);
    } else {
      // Longer than the window: read it into its own buffer, sized by a length already bounded by the file.
      bytes = Buffer.allocUnsafe(len);
      const got = yield { op: 'read', buffer: bytes, offset: 0, length: len, position: this.pos, need: len };
      if (got !== len) this.fail({ messageId: 'protobufStringCutOff', data: { field: what } });
      this.pos = end;
    }
    const text = bytes.toString('utf8');
    return isUtf8(bytes) ? { text } : { text, notUtf8: bytesText(bytes) };
  }
}

/** A count of bytes as a size ("1 byte", "12 bytes"): a value, as the messages quote sizes. */
function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * Runs `io` to its end with its reads answered synchronously by `read` (a file descriptor's positioned
 * reads, bytes in memory). A walk that asks for a file's size (ONNX external data) gets null.
 */
export function driveSync<T>(io: Io<T>, read: (buffer: Buffer, offset: number, length: number, position: number) => number): T {
  let answer: IoAnswer = null;
  for (;;) {
    const step = io.next(answer);
    if (step.done) return step.value;
    const req = step.value;
    answer = req.op === 'read' ? read(req.buffer, req.offset, req.length, req.position) : null;
  }
}

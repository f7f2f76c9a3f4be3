// The SavedModel walk's cursor over saved_model.pb: the protobuf window every reader shares
// (model-file/window.ts), driven synchronously. Each step first makes the bytes of a tag and its value
// (HEADER_BYTES, at most to the end of the enclosing message) available, then reads them with the
// window's checks; length-delimited fields the walk does not need (the GraphDef with its node bodies
// and constants) are skipped by moving the position past them, never read.
import type { ReadMessage } from '../model-file/messages.js';
import type { ModelFormat } from '../model-file/open.js';
import type { Tag } from '../model-file/protobuf.js';
import { ByteWindow, driveSync, HEADER_BYTES } from '../model-file/window.js';

/** Positioned reads of one file: answer how many bytes were read into buffer[offset..offset+length). */
export interface ByteSource {
  readonly size: number;
  read(buffer: Buffer, offset: number, length: number, position: number): number;
}

/** The format as the messages name it. */
export const SAVEDMODEL_FORMAT: ModelFormat = 'TensorFlow SavedModel';

/** Names, tags and signature keys are short; a string claiming more than this is refused. */
export const MAX_STRING_BYTES = 1024 * 1024;

export class Cursor {
  private readonly w: ByteWindow;
  private readonly read: ByteSource['read'];

  constructor(
    readonly file: string,
    private readonly source: ByteSource,
  ) {
    this.w = new ByteWindow(file, source.size, SAVEDMODEL_FORMAT, { maxStringBytes: MAX_STRING_BYTES });
    this.read = (b, o, l, p) => source.read(b, o, l, p);
  }

  get size(): number {
    return this.source.size;
  }

  get pos(): number {
    return this.w.pos;
  }

  set pos(at: number) {
    this.w.pos = at;
  }

  fail(problem: ReadMessage, at: number = this.w.pos): never {
    return this.w.fail(problem, at);
  }

  /** The tag and its value's first bytes in the window, never past `limit`. */
  private header(limit: number): ByteWindow {
    if (!this.w.ready(HEADER_BYTES, limit)) driveSync(this.w.fill(HEADER_BYTES, limit), this.read);
    return this.w;
  }

  tag(limit: number): Tag {
    return this.header(limit).tag(limit);
  }

  expect(tag: Tag, wire: number, what: string): void {
    this.w.expect(tag, wire, what);
  }

  /** An unsigned varint as a Number (above 2^53 inexact but still above MAX_SAFE_INTEGER: "too large" to every caller). */
  uvarint(limit: number, what: string): number {
    return this.header(limit).uvarint(limit, what);
  }

  /** A varint read as protobuf's int64 (two's complement: -1 is ten bytes). */
  int64(limit: number, what: string): number {
    return this.header(limit).int64(limit, what);
  }

  /** Reads a length prefix and answers the end offset of the field's bytes, checked against `limit`. */
  lengthEnd(limit: number, what: string): number {
    return this.header(limit).lengthDelimited(limit, what);
  }

  /** Moves past the value of a field the walk does not need, without reading a length-delimited one. */
  skip(tag: Tag, limit: number): void {
    this.header(limit).skip(tag, limit);
  }

  /** A length-delimited string (UTF-8), at most MAX_STRING_BYTES. */
  string(limit: number, what: string): string {
    return driveSync(this.header(limit).text(limit, what), this.read).text;
  }

  /** The first `n` bytes of the file (fewer when it is shorter; at most the window's size). */
  head(n: number): Buffer {
    const length = Math.min(n, this.size);
    const saved = this.w.pos;
    this.w.pos = 0;
    driveSync(this.w.fill(length, length), this.read);
    this.w.pos = saved;
    return Buffer.from(Array.from({ length }, (_, i) => this.w.byteAt(i) ?? 0));
  }
}

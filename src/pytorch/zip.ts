// A bounded ZIP reader (PKWARE APPNOTE.TXT 6.3.x): the central directory and the few small entries a
// PyTorch archive's signature needs, by positioned reads; never the weights. A TorchScript model.pt
// (torch.jit.save) and an AOTInductor model.pt2 are ZIP archives written by PyTorch's
// caffe2/serialize/inline_container.cc (PyTorchStreamWriter, over miniz): entries stored or deflated,
// zip64 records above 4 GiB, data aligned to 64 bytes with padding in the local header's extra field.
//
// Every size the file declares is checked against the file's own size and against fixed limits
// before anything is allocated, and an entry is inflated with node:zlib's output limit, so a
// truncated, corrupt or hostile archive (a zip bomb) is a ModelReadError at a byte offset, never a
// crash, an allocation the size of a lie, or a hang.
import { ModelReadError } from '../model-file/errors.js';
import { errorCode, type ReadMessage } from '../model-file/messages.js';

// node:zlib is loaded when an entry is inflated: loading it at every start cost every command (issue 47).
const zlib = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');

/** Reads `length` bytes at `position` (fewer only at the end of the file). */
export interface ZipSource {
  readonly file: string;
  readonly size: number;
  read(position: number, length: number): Buffer;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflate; anything else is refused when the entry is read. */
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the entry's local header. */
  localOffset: number;
  /** Offset of the entry's central directory record (where errors about it point). */
  recordOffset: number;
}

export const ZIP_LIMITS = {
  /** The central directory is read whole: larger is not a model archive (a million entries is ~60 MiB). */
  centralDirectoryBytes: 64 * 1024 * 1024,
  entries: 1_000_000,
  /** An entry read into memory (code, pickles, JSON): a signature record is never this large. */
  entryBytes: 16 * 1024 * 1024,
  /** A declared ratio above this is a bomb, not a text file (deflate's own maximum is ~1032:1). */
  maxRatio: 1100,
} as const;

const EOCD_SIG = 0x06054b50;
const EOCD_BYTES = 22;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_LOCATOR_BYTES = 20;
const ZIP64_EOCD_SIG = 0x06064b50;
const ZIP64_EOCD_BYTES = 56;
const CENTRAL_SIG = 0x02014b50;
const CENTRAL_BYTES = 46;
const LOCAL_SIG = 0x04034b50;
const LOCAL_BYTES = 30;
const U32_MAX = 0xffffffff;
const U16_MAX = 0xffff;

/** The first 4 bytes of a ZIP archive with a local header first (what torch writes). */
export const isZipStart = (head: Uint8Array): boolean => head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

function fail(src: ZipSource, offset: number, problem: ReadMessage): never {
  throw new ModelReadError('format', src.file, Math.max(0, Math.min(offset, src.size)), problem);
}

/** Exactly `length` bytes at `position`, or `truncated` (the file ends inside what is read) pointing there. */
function readExact(src: ZipSource, position: number, length: number, truncated: ReadMessage): Buffer {
  if (position < 0 || position + length > src.size) fail(src, Math.min(position, src.size), truncated);
  const b = src.read(position, length);
  if (b.length < length) fail(src, position + b.length, truncated);
  return b;
}

const u64 = (b: Buffer, at: number): number => {
  const v = b.readBigUInt64LE(at);
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
};

/** The end of central directory record: the last signature in the final 64 KiB + 22 bytes. */
function findEocd(src: ZipSource): { at: number; record: Buffer } {
  if (src.size < EOCD_BYTES) fail(src, src.size, { messageId: 'torchTooShort', data: {} });
  const tail = Math.min(src.size, EOCD_BYTES + U16_MAX);
  const start = src.size - tail;
  const buf = readExact(src, start, tail, { messageId: 'torchTruncatedEocd', data: {} });
  for (let i = tail - EOCD_BYTES; i >= 0; i--) {
    if (buf.readUInt32LE(i) !== EOCD_SIG) continue;
    // The comment must reach the end of the file exactly (a stray signature inside data does not).
    if (i + EOCD_BYTES + buf.readUInt16LE(i + 20) !== tail) continue;
    return { at: start + i, record: buf.subarray(i, i + EOCD_BYTES) };
  }
  return fail(src, src.size, { messageId: 'torchNoEocd', data: {} });
}

/** Every entry of the central directory, sizes checked against the file. */
export function readCentralDirectory(src: ZipSource): ZipEntry[] {
  const { at: eocdAt, record } = findEocd(src);
  if (record.readUInt16LE(4) !== 0 || record.readUInt16LE(6) !== 0) fail(src, eocdAt + 4, { messageId: 'torchMultiDisk', data: {} });
  let count = record.readUInt16LE(10);
  let cdSize = record.readUInt32LE(12);
  let cdOffset = record.readUInt32LE(16);
  if (count === U16_MAX || cdSize === U32_MAX || cdOffset === U32_MAX) {
    // zip64: the locator sits right before the end record and points at the zip64 end record.
    const locAt = eocdAt - ZIP64_LOCATOR_BYTES;
    const loc = readExact(src, locAt, ZIP64_LOCATOR_BYTES, { messageId: 'torchTruncatedZip64Locator', data: {} });
    if (loc.readUInt32LE(0) !== ZIP64_LOCATOR_SIG) fail(src, locAt, { messageId: 'torchNoZip64Locator', data: {} });
    const z64At = u64(loc, 8);
    if (z64At + ZIP64_EOCD_BYTES > locAt) fail(src, locAt + 8, { messageId: 'torchZip64PastLocator', data: { offset: z64At } });
    const z64 = readExact(src, z64At, ZIP64_EOCD_BYTES, { messageId: 'torchTruncatedZip64Eocd', data: {} });
    if (z64.readUInt32LE(0) !== ZIP64_EOCD_SIG) fail(src, z64At, { messageId: 'torchNoZip64Eocd', data: {} });
    if (count === U16_MAX) count = u64(z64, 32);
    if (cdSize === U32_MAX) cdSize = u64(z64, 40);
    if (cdOffset === U32_MAX) cdOffset = u64(z64, 48);
  }
  if (count > ZIP_LIMITS.entries) fail(src, eocdAt + 10, { messageId: 'torchTooManyEntries', data: { count, max: ZIP_LIMITS.entries } });
  if (cdSize > ZIP_LIMITS.centralDirectoryBytes)
    fail(src, eocdAt + 12, { messageId: 'torchDirectoryTooLarge', data: { size: cdSize, max: ZIP_LIMITS.centralDirectoryBytes } });
  if (cdOffset + cdSize > eocdAt) fail(src, eocdAt + 16, { messageId: 'torchDirectoryPastEnd', data: { size: cdSize, offset: cdOffset, eocd: eocdAt } });
  if (count * CENTRAL_BYTES > cdSize) fail(src, eocdAt + 10, { messageId: 'torchEntriesDoNotFit', data: { count, size: cdSize } });
  const cd = readExact(src, cdOffset, cdSize, { messageId: 'torchTruncatedDirectory', data: {} });
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    const here = cdOffset + p;
    if (p + CENTRAL_BYTES > cdSize) fail(src, here, { messageId: 'torchDirectoryEndsInEntry', data: { index: i } });
    if (cd.readUInt32LE(p) !== CENTRAL_SIG) fail(src, here, { messageId: 'torchNoCentralSignature', data: { index: i } });
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    let compressedSize = cd.readUInt32LE(p + 20);
    let uncompressedSize = cd.readUInt32LE(p + 24);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    let localOffset = cd.readUInt32LE(p + 42);
    const end = p + CENTRAL_BYTES + nameLen + extraLen + commentLen;
    if (end > cdSize) fail(src, here, { messageId: 'torchEntryPastDirectory', data: { index: i } });
    const name = cd.toString('utf8', p + CENTRAL_BYTES, p + CENTRAL_BYTES + nameLen);
    // The zip64 extended information extra field (0x0001) holds, in order, the sizes and offset that are 0xFFFFFFFF above.
    if (compressedSize === U32_MAX || uncompressedSize === U32_MAX || localOffset === U32_MAX) {
      const extra = cd.subarray(p + CENTRAL_BYTES + nameLen, p + CENTRAL_BYTES + nameLen + extraLen);
      const z = zip64Field(extra);
      if (!z) fail(src, here, { messageId: 'torchNoZip64Extra', data: { entry: name } });
      let q = 0;
      const next = (): number => {
        if (q + 8 > z.length) fail(src, here, { messageId: 'torchZip64ExtraShort', data: { entry: name } });
        const v = u64(z, q);
        q += 8;
        return v;
      };
      if (uncompressedSize === U32_MAX) uncompressedSize = next();
      if (compressedSize === U32_MAX) compressedSize = next();
      if (localOffset === U32_MAX) localOffset = next();
    }
    if (localOffset + LOCAL_BYTES + compressedSize > cdOffset) {
      fail(src, here, { messageId: 'torchEntryPastDirectoryStart', data: { entry: name, size: compressedSize, offset: localOffset, directory: cdOffset } });
    }
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localOffset, recordOffset: here });
    p = end;
  }
  return entries;
}

function zip64Field(extra: Buffer): Buffer | undefined {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (p + 4 + len > extra.length) return undefined;
    if (id === 0x0001) return extra.subarray(p + 4, p + 4 + len);
    p += 4 + len;
  }
  return undefined;
}

/** Where the entry's data starts: after its local header, whose name and extra lengths may differ from the central record's. */
function dataOffset(src: ZipSource, e: ZipEntry): number {
  const head = readExact(src, e.localOffset, LOCAL_BYTES, { messageId: 'torchTruncatedLocalHeader', data: { entry: e.name } });
  if (head.readUInt32LE(0) !== LOCAL_SIG) fail(src, e.localOffset, { messageId: 'torchNoLocalHeader', data: { entry: e.name } });
  const start = e.localOffset + LOCAL_BYTES + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (start + e.compressedSize > src.size)
    fail(src, e.localOffset, { messageId: 'torchEntryPastEnd', data: { entry: e.name, size: e.compressedSize, offset: start } });
  return start;
}

function checkReadable(src: ZipSource, e: ZipEntry, limit: number): void {
  if (e.flags & 0x1) fail(src, e.recordOffset, { messageId: 'torchEncrypted', data: { entry: e.name } });
  if (e.method !== 0 && e.method !== 8) fail(src, e.recordOffset, { messageId: 'torchMethod', data: { entry: e.name, method: e.method } });
  if (e.uncompressedSize > limit)
    fail(src, e.recordOffset, { messageId: 'torchRecordTooLarge', data: { entry: e.name, size: e.uncompressedSize, max: limit } });
  if (e.method === 0 && e.compressedSize !== e.uncompressedSize)
    fail(src, e.recordOffset, { messageId: 'torchStoredSizes', data: { entry: e.name, compressed: e.compressedSize, size: e.uncompressedSize } });
  if (e.method === 8 && e.uncompressedSize > Math.max(1024, e.compressedSize * ZIP_LIMITS.maxRatio)) {
    fail(src, e.recordOffset, { messageId: 'torchRatio', data: { entry: e.name, size: e.uncompressedSize, compressed: e.compressedSize } });
  }
}

/** The whole content of a small entry (stored or deflate), at most `limit` bytes. */
export function readEntry(src: ZipSource, e: ZipEntry, limit: number = ZIP_LIMITS.entryBytes): Buffer {
  checkReadable(src, e, limit);
  const start = dataOffset(src, e);
  const raw = readExact(src, start, e.compressedSize, { messageId: 'torchTruncatedEntry', data: { entry: e.name } });
  if (e.method === 0) return raw;
  let out: Buffer;
  try {
    // One byte over the declared size is enough to tell a lie: the stream must end at the declared size.
    out = zlib().inflateRawSync(raw, { maxOutputLength: Math.max(1, e.uncompressedSize + 1) });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') fail(src, start, { messageId: 'torchInflatesPast', data: { entry: e.name, size: e.uncompressedSize } });
    return fail(src, start, { messageId: 'torchBadDeflate', data: { entry: e.name, code: errorCode(err) } });
  }
  if (out.length !== e.uncompressedSize)
    fail(src, start, { messageId: 'torchInflatedSize', data: { entry: e.name, inflated: out.length, size: e.uncompressedSize } });
  return out;
}

/**
 * The first bytes of an entry (at most `bytes`), without reading the rest: for a pickle whose first
 * opcodes name the class (data.pkl can be large). A deflated entry is inflated from a prefix with a
 * sync flush, so a truncated stream is fine.
 */
export function readEntryPrefix(src: ZipSource, e: ZipEntry, bytes: number): Buffer {
  if (e.flags & 0x1) fail(src, e.recordOffset, { messageId: 'torchEncrypted', data: { entry: e.name } });
  if (e.method !== 0 && e.method !== 8) fail(src, e.recordOffset, { messageId: 'torchMethod', data: { entry: e.name, method: e.method } });
  const start = dataOffset(src, e);
  const want = Math.min(e.compressedSize, e.method === 0 ? bytes : Math.max(bytes, 4096));
  const raw = readExact(src, start, want, { messageId: 'torchTruncatedEntry', data: { entry: e.name } });
  if (e.method === 0) return raw;
  try {
    // A deflate stream cannot grow by more than ~1032:1, so this limit is never the one that stops it.
    const out = zlib().inflateRawSync(raw, { finishFlush: zlib().constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(bytes, want * 1100) });
    return out.subarray(0, bytes);
  } catch (err) {
    return fail(src, start, { messageId: 'torchBadDeflate', data: { entry: e.name, code: errorCode(err) } });
  }
}

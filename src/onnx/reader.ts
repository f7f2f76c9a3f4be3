// readSignature / readSignatureSync: open the file, drive the walk with positioned reads, close.
//
// Memory stays at one window buffer (64 KiB) plus the decoded signature whatever the model's size;
// the file is never read whole (fs.readFile also stops working above 2 GiB).

import fs from 'node:fs';
import path from 'node:path';
import { ModelReadError } from '../model-file/errors.js';
import { withModelFile, withModelFileSync, type ModelFormat } from '../model-file/open.js';
import { LFS_POINTER_MAX_BYTES, LFS_VERSION_PREFIX, lfsPointerError, lfsPointerOf } from '../model-file/lfs-pointer.js';
import { buildSignature } from './signature.js';
import type { ModelSignature } from '../model-file/signature.js';
import { walkModel } from './walk.js';
import {
  ByteWindow,
  DEFAULT_WINDOW_BYTES,
  HEADER_BYTES,
  OUTSIDE,
  readCount,
  windowSize,
  type Io,
  type IoAnswer,
  type IoRequest,
} from '../model-file/window.js';

export interface ReadOptions {
  /** Size of the read window in bytes (default 64 KiB, at least 64). Small values exercise refills in tests. */
  windowBytes?: number;
  /** When given, receives the read calls made and bytes read (for tests and the bench). */
  stats?: ReadStats;
}

export interface ReadStats {
  reads: number;
  bytesRead: number;
}

/** The format as the messages name it. */
export const ONNX_FORMAT: ModelFormat = 'ONNX';

/**
 * A file read by position: a local file handle, or an object in a store read with ranged GETs
 * (remote/). `read` answers the bytes at [position, position + length), fewer only at the end.
 */
export interface RandomAccess {
  readonly size: number;
  /** Of `length` bytes, the first `need` are needed; the rest is read-ahead (model-file/window.ts IoRequest). */
  read(buffer: Buffer, offset: number, length: number, position: number, need: number): Promise<number>;
  /**
   * The size of the regular file at `path` (external data), null when there is none, OUTSIDE when its
   * links lead out of `dir`, the model's directory (then it is not stat-ed).
   */
  sizeOf(path: string, dir: string): Promise<number | null | typeof OUTSIDE>;
}

/** Reads the signature of an ONNX model without loading its weights. Throws ModelReadError on bad input. */
export async function readSignature(file: string, options: ReadOptions = {}): Promise<ModelSignature> {
  return withModelFile(file, ONNX_FORMAT, (f) =>
    readSignatureFrom(file, { size: f.size, read: (b, o, l, p) => f.read(b, o, l, p), sizeOf: externalSize }, options),
  );
}

/** The same walk over any RandomAccess: its reads are the window's refills, one per jump past weights. */
export async function readSignatureFrom(file: string, source: RandomAccess, options: ReadOptions = {}): Promise<ModelSignature> {
  const walk = readModel(new ByteWindow(file, source.size, ONNX_FORMAT, { windowBytes: options.windowBytes }));
  let answer: IoAnswer = null;
  for (;;) {
    const step = walk.next(answer);
    if (step.done) return step.value;
    const req = step.value;
    answer = req.op === 'size' ? await source.sizeOf(req.path, req.dir) : await source.read(req.buffer, req.offset, req.length, req.position, req.need);
    count(options.stats, req, answer);
  }
}

/**
 * The signature of a model already in memory (a test's repository, an editor's buffer): the same
 * walk, its reads answered from `bytes`. External data files have no size here (null).
 */
export function readSignatureOfBytes(file: string, bytes: Uint8Array, options: ReadOptions = {}): ModelSignature {
  const walk = readModel(new ByteWindow(file, bytes.length, ONNX_FORMAT, { windowBytes: options.windowBytes }));
  let answer: IoAnswer = null;
  for (;;) {
    const step = walk.next(answer);
    if (step.done) return step.value;
    const req = step.value;
    if (req.op === 'size') answer = null;
    else {
      const part = bytes.subarray(req.position, req.position + req.length);
      req.buffer.set(part, req.offset);
      answer = part.length;
    }
    count(options.stats, req, answer);
  }
}

let syncScratch: Buffer | undefined;

/** Synchronous readSignature, for callers that cannot await (the same walk, driven by fs.readSync). */
export function readSignatureSync(file: string, options: ReadOptions = {}): ModelSignature {
  return withModelFileSync(file, ONNX_FORMAT, (f) => {
    // One window buffer for every synchronous read: a read never runs inside another.
    const bytes = windowSize(f.size, options.windowBytes);
    if (!syncScratch || syncScratch.length < bytes) syncScratch = Buffer.allocUnsafe(Math.max(bytes, DEFAULT_WINDOW_BYTES));
    const walk = readModel(new ByteWindow(file, f.size, ONNX_FORMAT, { windowBytes: options.windowBytes, scratch: syncScratch }));
    let answer: IoAnswer = null;
    for (;;) {
      const step = walk.next(answer);
      if (step.done) return step.value;
      const req = step.value;
      answer = req.op === 'size' ? externalSizeSync(req.path, req.dir) : f.read(req.buffer, req.offset, req.length, req.position);
      count(options.stats, req, answer);
    }
  });
}

function* readModel(w: ByteWindow): Io<ModelSignature> {
  if (w.size === 0) w.fail({ messageId: 'onnxEmpty', data: {} }, 0);
  yield* w.fill(HEADER_BYTES, w.size);
  if (w.lookingAt(LFS_PREFIX_BYTES)) yield* failAsLfsPointer(w);
  for (const f of FOREIGN_FORMATS) {
    if (w.lookingAt(f.magic)) w.fail({ messageId: f.messageId, data: {} }, 0);
  }
  const startsAsText = looksLikeText(w);
  try {
    const raw = yield* walkModel(w);
    if (!raw.hasGraph) w.fail({ messageId: 'onnxNoGraph', data: {} }, 0);
    if (raw.irVersion === null) w.fail({ messageId: 'onnxNoIrVersion', data: {} }, 0);
    return yield* buildSignature(w.file, raw);
  } catch (e) {
    // Say "text file" only once the bytes failed as protobuf: a tiny valid model may begin with printable bytes.
    if (startsAsText && e instanceof ModelReadError && e.kind === 'format') {
      w.fail({ messageId: 'onnxText', data: { failsAt: e.offset ?? 0 } }, 0);
    }
    throw e;
  }
}

const LFS_PREFIX_BYTES = [...Buffer.from(LFS_VERSION_PREFIX)];

function* failAsLfsPointer(w: ByteWindow): Io<void> {
  if (w.size > LFS_POINTER_MAX_BYTES) return;
  yield* w.fill(w.size, w.size);
  const pointer = lfsPointerOf(Buffer.from(Array.from({ length: w.size }, (_, i) => w.byteAt(i) ?? 0)).toString('utf8'));
  if (pointer) throw lfsPointerError(w.file, pointer, ONNX_FORMAT);
}

/** Files people mistake for model.onnx, recognised by first bytes no real ONNX file starts with (it starts with a ModelProto tag). */
const FOREIGN_FORMATS: { magic: number[]; messageId: 'onnxZip' | 'onnxHdf5' | 'onnxGguf' }[] = [
  { magic: [0x50, 0x4b, 0x03, 0x04], messageId: 'onnxZip' },
  { magic: [0x89, 0x48, 0x44, 0x46], messageId: 'onnxHdf5' },
  { magic: [0x47, 0x47, 0x55, 0x46], messageId: 'onnxGguf' },
];

/** The first (up to) 16 bytes are printable ASCII or whitespace. */
function looksLikeText(w: ByteWindow): boolean {
  const n = Math.min(16, w.size);
  for (let i = 0; i < n; i++) {
    const b = w.byteAt(i);
    if (b === undefined) return false;
    if (!((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d)) return false;
  }
  return true;
}

function count(stats: ReadStats | undefined, req: IoRequest, answer: IoAnswer): void {
  if (!stats || req.op !== 'read') return;
  stats.reads++;
  stats.bytesRead += readCount(answer);
}

/** externalSize, synchronously. */
function externalSizeSync(file: string, dir: string): number | null | typeof OUTSIDE {
  try {
    const real = fs.realpathSync(file);
    return inside(fs.realpathSync(dir), real) ? fileSize(fs.statSync(real)) : OUTSIDE;
  } catch {
    return null;
  }
}

/**
 * External data as ONNX Runtime opens it: its links followed (realpath), and refused when that leads
 * out of the model's directory (tensorprotoutils.cc compares the weakly canonical paths; onnx's
 * checker also refuses a link that stays inside, which ONNX Runtime loads). The file outside is
 * never stat-ed, so its size shows nowhere.
 */
async function externalSize(file: string, dir: string): Promise<number | null | typeof OUTSIDE> {
  try {
    const [real, realDir] = await Promise.all([fs.promises.realpath(file), fs.promises.realpath(dir)]);
    return inside(realDir, real) ? fileSize(await fs.promises.stat(real)) : OUTSIDE;
  } catch {
    return null;
  }
}

function inside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

function fileSize(stat: fs.Stats): number | null {
  return stat.isFile() ? stat.size : null;
}

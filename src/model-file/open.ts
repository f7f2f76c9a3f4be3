// The one way a reader opens its model file: read-only and without blocking (opening a FIFO for
// reading would wait for a writer forever), checked to be a regular file by the open descriptor (so
// what is checked is what is read), its size known before a byte is read, every failure a
// ModelReadError of one id whatever the format, the format its data. A link is followed, as Triton
// follows it when it loads the file.
import fs from 'node:fs';
import { ModelReadError, type ModelFormat } from './errors.js';
import { errorCode, type ReadMessage } from './messages.js';

export type { ModelFormat };

const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/** A model file open for positioned reads. */
export interface OpenModelFile {
  readonly file: string;
  /** Its size when opened: what a reader bounds its reads by before it parses anything. */
  readonly size: number;
  /** Reads [position, position + length) into `buffer` at `offset`; fewer bytes only at the end of the file. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number;
}

/** Why a read of `file` failed, by the error's code (ENOENT, EACCES, EISDIR, ...). */
export function ioProblem(e: unknown, format: ModelFormat): ReadMessage {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return { messageId: 'noSuchFile', data: {} };
  if (code === 'EACCES' || code === 'EPERM') return { messageId: 'permissionDenied', data: {} };
  if (code === 'EISDIR') return { messageId: 'isDirectory', data: { format } };
  return { messageId: 'cannotReadFile', data: { code: errorCode(e) } };
}

/** The error of a failed open, stat or read of `file` (at `offset` for a read). */
export function ioError(file: string, format: ModelFormat, e: unknown, offset: number | null = null): ModelReadError {
  return new ModelReadError('io', file, offset, ioProblem(e, format), undefined, { cause: e });
}

/** The size of `stat`'s file when it is a regular file; else the error that says what it is instead. */
export function regularSize(file: string, format: ModelFormat, stat: fs.Stats): number {
  if (stat.isDirectory()) throw new ModelReadError('io', file, null, { messageId: 'isDirectory', data: { format } });
  if (!stat.isFile()) throw new ModelReadError('io', file, null, { messageId: 'notRegularFile', data: { format, fileType: fileTypeOf(stat) } });
  return stat.size;
}

/** "FIFO" and the like: the kind of a path that is not a regular file, as the messages name it. */
function fileTypeOf(stat: { isFIFO(): boolean; isSocket(): boolean }): string {
  return stat.isFIFO() ? 'FIFO' : stat.isSocket() ? 'socket' : 'device';
}

/** Opens `file`, hands it to `use` and closes it whatever happens; throws ModelReadError. */
export function withModelFileSync<T>(file: string, format: ModelFormat, use: (f: OpenModelFile) => T): T {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (e) {
    throw ioError(file, format, e);
  }
  try {
    let stat: fs.Stats;
    try {
      stat = fs.fstatSync(fd);
    } catch (e) {
      throw ioError(file, format, e);
    }
    const size = regularSize(file, format, stat);
    return use({
      file,
      size,
      read(buffer, offset, length, position) {
        let done = 0;
        while (done < length) {
          let n: number;
          try {
            n = fs.readSync(fd, buffer, offset + done, length - done, position + done);
          } catch (e) {
            throw ioError(file, format, e, position + done);
          }
          if (n === 0) break;
          done += n;
        }
        return done;
      },
    });
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // closing a read-only descriptor cannot lose data
    }
  }
}

/** An open model file for async positioned reads (the same checks as withModelFileSync). */
export interface OpenModelFileAsync {
  readonly file: string;
  readonly size: number;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
}

/** withModelFileSync's async twin: reads by a file handle, so a slow disk blocks no other work. */
export async function withModelFile<T>(file: string, format: ModelFormat, use: (f: OpenModelFileAsync) => Promise<T>): Promise<T> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, OPEN_FLAGS);
  } catch (e) {
    throw ioError(file, format, e);
  }
  try {
    let stat: fs.Stats;
    try {
      stat = await handle.stat();
    } catch (e) {
      throw ioError(file, format, e);
    }
    const size = regularSize(file, format, stat);
    return await use({
      file,
      size,
      async read(buffer, offset, length, position) {
        let done = 0;
        while (done < length) {
          let bytesRead: number;
          try {
            ({ bytesRead } = await handle.read(buffer, offset + done, length - done, position + done));
          } catch (e) {
            throw ioError(file, format, e, position + done);
          }
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done;
      },
    });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The whole of a file already bounded by its reader (`size` checked against the format's limit before
 * this is called): one buffer of the size fstat gave, cut to what was read if the file shrank.
 */
export function readWhole(f: OpenModelFile): Buffer {
  const bytes = Buffer.allocUnsafe(f.size);
  return bytes.subarray(0, f.read(bytes, 0, bytes.length, 0));
}

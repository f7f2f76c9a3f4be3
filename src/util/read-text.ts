// Reads a text file the user pointed tritonc at, telling apart the three answers a caller needs:
// the text, "there is no such file" (the only case in which a config may be treated as absent and
// written anew), and "there is something here tritonc cannot read" (permissions, a directory, a
// FIFO or a device). Only regular files are read: the file is opened without blocking, so a FIFO
// cannot hang the read, and checked with fstat before a byte is read, so /dev/zero is not read
// forever.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

export type TextRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** `size` is set where the file is larger than `maxBytes` (and `reason` says so). */
  | { kind: 'unreadable'; reason: string; size?: number };

/**
 * The text of a regular file; with `maxBytes`, a larger one is unreadable, said from its size before
 * a byte is read (files tritonc reads for a command's own bookkeeping: a plan, a perf_analyzer CSV).
 */
export function readText(path: string, maxBytes?: number): TextRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: describeFsError(e) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'unreadable', reason: `not a regular file (${fileType(st)})` };
    if (maxBytes !== undefined && st.size > maxBytes)
      return { kind: 'unreadable', reason: `${st.size} bytes, more than the ${maxBytes} it may be`, size: st.size };
    return { kind: 'text', text: readFileSync(fd, 'utf8') };
  } catch (e) {
    return { kind: 'unreadable', reason: describeFsError(e) };
  } finally {
    closeSync(fd);
  }
}

/** The text, or an Error whose message says why it cannot be read ("no such file" included). */
export function readTextOrThrow(path: string): string {
  const r = readText(path);
  if (r.kind === 'text') return r.text;
  throw new Error(r.kind === 'missing' ? 'no such file' : r.reason);
}

export function fileType(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** A file-system error in words, with the code kept for searching: "permission denied (EACCES)". */
export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'it is a directory',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    ENOSPC: 'disk full',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    ELOOP: 'too many levels of symbolic links',
    EIO: 'input/output error',
    EMFILE: 'too many open files',
    ENAMETOOLONG: 'file name too long',
  };
  if (err?.code && words[err.code]) return `${words[err.code]} (${err.code})`;
  return err?.message ?? String(e);
}

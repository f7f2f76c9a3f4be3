// tritonc's own files (the lint cache, tritonc.lock.json) live inside checkouts that anyone may have
// written: a repository can commit `.tritonc-cache -> ~/.bashrc`. Such a file is read and written
// only as itself: never through a symbolic link (the read opens with O_NOFOLLOW, the write renames a
// new file over the path, never over where a link leads, as every write: util/atomic-write.ts),
// never when it is not a regular file (a FIFO would block the read), and never past a size bound.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { writeFileAtomic } from './atomic-write.js';
import { describeFsError } from './read-text.js';

/** Why `path` cannot be one of tritonc's own files, or undefined when it is one or is not there yet. */
export function ownFileProblem(path: string, what: string): string | undefined {
  let st;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return `cannot look at it: ${describeFsError(e)}`;
  }
  if (st === undefined || st.isFile()) return undefined;
  if (st.isSymbolicLink())
    return `is a symbolic link, and tritonc reads and writes its ${what} only as a file of its own (a link could lead it to overwrite or read any file): remove the link`;
  return `is not a regular file (${st.isDirectory() ? 'a directory' : 'a FIFO, socket or device'}); tritonc keeps its ${what} in a file of its own: remove it, or give another path`;
}

export class OwnFileError extends Error {
  override readonly name = 'OwnFileError';
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export type OwnRead = { kind: 'missing' } | { kind: 'bytes'; bytes: Buffer } | { kind: 'too-large'; size: number } | { kind: 'unreadable'; reason: string };

/** Reads one of tritonc's own files, refusing a link or a non-file (OwnFileError); a file over `maxBytes` is not read. */
export function readOwnFile(path: string, what: string, maxBytes: number): OwnRead {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the path must not block the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') throw new OwnFileError(path, ownFileProblem(path, what) ?? 'is a symbolic link');
    return { kind: 'unreadable', reason: describeFsError(e) };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new OwnFileError(path, ownFileProblem(path, what) ?? 'is not a regular file');
    if (st.size > maxBytes) return { kind: 'too-large', size: st.size };
    const bytes = Buffer.allocUnsafe(st.size);
    let done = 0;
    // Reads what the size said, and never more: a file that grows meanwhile is cut at its stat.
    while (done < bytes.length) {
      const n = readSync(fd, bytes, done, bytes.length - done, done);
      if (n <= 0) break;
      done += n;
    }
    return { kind: 'bytes', bytes: bytes.subarray(0, done) };
  } finally {
    closeSync(fd);
  }
}

/** Writes one of tritonc's own files atomically, at the path itself; refuses a link or a non-file there (OwnFileError). */
export function writeOwnFile(path: string, what: string, content: string): void {
  const problem = ownFileProblem(path, what);
  if (problem) throw new OwnFileError(path, problem);
  // A link planted after the check is refused, or replaced by the rename, its target untouched.
  writeFileAtomic(path, content);
}

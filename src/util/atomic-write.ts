// Writes a file so that readers see the old content or the new, never a half-written file, and a
// failure (a full disk, a kill, Ctrl-C) never loses the user's original: every byte is written to a
// temporary file beside it and flushed, the temporary file is renamed over the original, and the
// directory is flushed so the rename survives a crash. On any error the temporary file is removed,
// the original is left as it was, and the error is thrown with its code (ENOSPC, EACCES, ...).
//
// A symlink is written through (a user's config may be one): the file it points to is replaced and
// the link stays a link; tritonc's own files (own-file.ts) are written with followLinks false, at the
// path itself. The replacement keeps the original's mode, and its owner and group where the process
// may set them (as root). It is a new file: other hard links to the original keep the old content.
import * as fs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { randomHex } from './random-hex.js';

/** The file-system calls the write makes, replaceable in tests (a disk that fills up, short writes). */
export const atomicWriteFs = {
  openSync: fs.openSync,
  writeSync: fs.writeSync as (fd: number, buffer: Uint8Array, offset: number, length: number) => number,
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
};

/** The temporary files tritonc writes beside a file: `.<name>.tritonc-<pid>-<random>.tmp`. */
export const TEMP_FILE = /^\.(.+)\.tritonc-(\d+)-[0-9a-f]{8}\.tmp$/;

export function writeFileAtomic(path: string, content: string, options: { followLinks?: boolean } = {}): void {
  const target = options.followLinks === false ? path : writeTarget(path);
  removeStaleTempFiles(target);
  const tmp = join(dirname(target), `.${basename(target)}.tritonc-${process.pid}-${randomHex(8)}.tmp`);
  const original = options.followLinks === false ? lstatFileOrUndefined(target) : statOrUndefined(target);
  const io = atomicWriteFs;
  const data = Buffer.from(content, 'utf8');
  const fd = io.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, original ? original.mode & 0o7777 : 0o644);
  try {
    try {
      // writeSync may write fewer bytes than asked (a full disk writes what fits): write the rest.
      for (let done = 0; done < data.length; ) {
        const n = io.writeSync(fd, data, done, data.length - done);
        if (n <= 0) throw Object.assign(new Error(`no progress writing ${tmp}`), { code: 'EIO' });
        done += n;
      }
      if (original) keepOwnerAndMode(fd, original);
      io.fsyncSync(fd);
    } finally {
      io.closeSync(fd);
    }
    io.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
  syncDirectory(dirname(target));
}

/** The file a write to `path` replaces: the end of its symlink chain, else the path itself. */
function writeTarget(path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    // No file yet, or a dangling link: write where the link points.
    try {
      return resolve(dirname(path), fs.readlinkSync(path));
    } catch {
      return path;
    }
  }
}

function statOrUndefined(path: string): fs.Stats | undefined {
  try {
    return fs.statSync(path);
  } catch {
    return undefined;
  }
}

function lstatFileOrUndefined(path: string): fs.Stats | undefined {
  try {
    const st = fs.lstatSync(path);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

function keepOwnerAndMode(fd: number, original: fs.Stats): void {
  fs.fchmodSync(fd, original.mode & 0o7777);
  if (process.getuid?.() !== 0) return;
  try {
    fs.fchownSync(fd, original.uid, original.gid);
  } catch {
    // a file system without owners
  }
}

/** Flushes a directory's entries (the rename) to disk; some file systems cannot, which is no error. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // EINVAL or EISDIR on file systems that do not sync directories
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Removes the temporary files that a killed tritonc left beside `file` (those of processes that no
 * longer run), so a write interrupted by SIGKILL leaves nothing behind after the next one.
 */
export function removeStaleTempFiles(file: string): string[] {
  const dir = dirname(file);
  const name = basename(file);
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const m = TEMP_FILE.exec(entry);
    if (!m || m[1] !== name || processRuns(Number(m[2]))) continue;
    try {
      fs.unlinkSync(join(dir, entry));
      removed.push(entry);
    } catch {
      // removed by someone else, or not ours to remove
    }
  }
  return removed;
}

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

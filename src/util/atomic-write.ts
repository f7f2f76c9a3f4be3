// Writes a file so that readers see the old content or the new, never a half-written file, and a
// failure (a full disk, a kill, Ctrl-C) never loses the user's original: every byte is written to a
// temporary file beside it and flushed, the temporary file is renamed over the original, and the
// directory is flushed so the rename survives a crash. On any error the temporary file is removed,
// the original is left as it was, and the error is thrown with its code (ENOSPC, EACCES, ...).
//
// Every file tritonc writes goes through here (a file new in a directory tritonc made: writeNewFile,
// copyToNewFile), and nothing is written through a symbolic link:
// a repository can ship `m/config.pbtxt -> ~/.bash_profile`, dangling until something writes it.
// A link at the path (live or dangling) is refused (LinkedPathError), and so is a link among the
// directories between what the user named (`within`) and the file, such as a model directory that
// is a link out of the repository. The temporary file is made with O_EXCL (never through a link)
// and renamed onto the path itself, so a link planted after the check is replaced, its target
// untouched. The replacement keeps the original's mode, and its owner and group where the process
// may set them (as root). It is a new file: other hard links to the original keep the old content.
import * as fs from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { randomHex } from './random-hex.js';
import { escapeControl } from './terminal-text.js';

/** The file-system calls the write makes, replaceable in tests (a disk that fills up, short writes). */
export const atomicWriteFs = {
  openSync: fs.openSync,
  writeSync: fs.writeSync as (fd: number, buffer: Uint8Array, offset: number, length: number) => number,
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
};

/**
 * Writes a file that must be new, in a directory tritonc has just made (mkdtemp): O_CREAT|O_EXCL
 * refuses any entry already at the path, a link (live or dangling) included, so nothing is written
 * through one even there. The error is thrown as it comes (EEXIST, ENOSPC, ...).
 */
export function writeNewFile(path: string, content: string, mode = 0o644): void {
  fs.writeFileSync(path, content, { flag: 'wx', mode });
}

/** Copies `from` to `to`, a path that must be new, as writeNewFile (COPYFILE_EXCL: any entry at `to`, a link included, is refused). */
export function copyToNewFile(from: string, to: string): void {
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
}

/** The temporary files tritonc writes beside a file: `.<name>.tritonc-<pid>-<random>.tmp`. */
export const TEMP_FILE = /^\.(.+)\.tritonc-(\d+)-[0-9a-f]{8}\.tmp$/;

/** A write refused because the path, or a directory on the way to it, is a symbolic link. */
export class LinkedPathError extends Error {
  override readonly name = 'LinkedPathError';
  constructor(
    /** The link: the file itself, or a directory on its path. */
    readonly link: string,
    /** Where the link leads, as written in it. */
    readonly leadsTo: string,
    /** The file that was to be written. */
    readonly file: string,
  ) {
    const to = escapeControl(resolve(dirname(link), leadsTo));
    super(
      link === file
        ? `it is a symbolic link to ${to}, and tritonc writes nothing through a link (one in a repository can lead anywhere): edit ${to} itself, or give its real path`
        : `${escapeControl(link)}, a directory on its path, is a symbolic link to ${to}, and tritonc writes nothing through a link (one in a repository can lead anywhere): give the real path (under ${to}) instead`,
    );
  }
}

export type WriteOptions = {
  /**
   * The directories the user named (a repository, a model directory, an output directory): between
   * the nearest that holds the file and the file, no directory may be a link. Without it, or when
   * none holds it, the file's own directory is taken as named.
   */
  within?: readonly string[];
};

export function writeFileAtomic(path: string, content: string, options: WriteOptions = {}): void {
  const target = resolve(path);
  const original = checkWritablePath(target, options.within ?? []);
  removeStaleTempFiles(target);
  const tmp = join(dirname(target), `.${basename(target)}.tritonc-${process.pid}-${randomHex(8)}.tmp`);
  const io = atomicWriteFs;
  const data = Buffer.from(content, 'utf8');
  const fd = io.openSync(
    tmp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    original ? original.mode & 0o7777 : 0o644,
  );
  try {
    try {
      // writeSync may write fewer bytes than asked (a full disk writes what fits): write the rest.
      for (let done = 0; done < data.length;) {
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

/**
 * Refuses (LinkedPathError) a link at `file` or at a directory between the nearest of `within` that
 * holds it and the file; returns the regular file there now, if any (its mode is kept).
 */
function checkWritablePath(file: string, within: readonly string[]): fs.Stats | undefined {
  const target = resolve(file);
  const root = namedRoot(target, within);
  // Each directory below the named one, from the top: a link among them leads out of what was named.
  const dirs: string[] = [];
  for (let d = dirname(target); d !== root && d !== dirname(d); d = dirname(d)) dirs.unshift(d);
  for (const d of dirs) refuseLink(d, target);
  return refuseLink(target, target);
}

/** The nearest directory of `within` that holds `file` (the file itself counts: it was named), else the file's directory. */
function namedRoot(file: string, within: readonly string[]): string {
  let best: string | undefined;
  for (const w of within) {
    const dir = resolve(w);
    const rel = relative(dir, file);
    if (rel === '') return dirname(file);
    if (rel.split(sep)[0] === '..' || isAbsolute(rel)) continue;
    if (best === undefined || dir.length > best.length) best = dir;
  }
  return best ?? dirname(file);
}

/** The entry at `path` when it is no link (undefined when there is none, or it is not a regular file); a link throws. */
function refuseLink(path: string, file: string): fs.Stats | undefined {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable: the write itself says why
  }
  if (st?.isSymbolicLink()) {
    let to = '?';
    try {
      to = fs.readlinkSync(path);
    } catch {
      // gone meanwhile: still refused
    }
    throw new LinkedPathError(path, to, file);
  }
  return st?.isFile() ? st : undefined;
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

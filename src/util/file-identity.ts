// A file's identity for caching: the same path, inode, size, modification time and change time mean
// the same content for our purposes (the editor or exporter wrote nothing since). As git's index does,
// the change time is in it too: `touch -d` can put a modification time back, never a change time.
import { statSync } from 'node:fs';
import type { PathKind } from './path-kind.js';

/**
 * Device, inode, size, modification and change times in nanoseconds, as one string: the same
 * string, the same content for our purposes. Whole nanoseconds (a bigint stat), as the file system
 * keeps them: a double's milliseconds lose the last digits, so two writes a few hundred nanoseconds
 * apart could look the same. Strings compare and store as they are.
 */
export type FileIdentity = string;

export function identityOf(path: string): FileIdentity | undefined {
  return statPath(path)?.id;
}

/** What one stat of a path tells: its kind, its size (a regular file's), its identity. */
export interface PathStat {
  kind: PathKind;
  /** The size of a regular file; undefined for anything else. */
  size: number | undefined;
  /** Where the source can tell (the disk can; an object store cannot). */
  id?: FileIdentity;
}

/** One stat of a path on disk, links followed; undefined when there is nothing (or nothing readable) there. */
export function statPath(path: string): PathStat | undefined {
  try {
    // No exception made for a path that is not there: asking is the common case.
    const s = statSync(path, { throwIfNoEntry: false, bigint: true });
    if (!s) return undefined;
    const kind: PathKind = s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    return { kind, size: kind === 'file' ? Number(s.size) : undefined, id: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` };
  } catch {
    return undefined;
  }
}

export function sameIdentity(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && a === b;
}

/** When the file last changed, as its identity records (the later of its modification and change times), in milliseconds. */
export function changedMs(id: FileIdentity): number {
  const parts = id.split(':');
  return Math.max(Number(parts[parts.length - 2]), Number(parts[parts.length - 1])) / 1e6;
}

/** A cache of values computed from files, kept while the file's identity does not change. */
export class IdentityCache<V> {
  private readonly entries = new Map<string, { id: FileIdentity; value: V }>();

  /** The value kept for `path` while its identity is still `id` (the file as it is now), else computed anew. */
  get(path: string, id: FileIdentity | undefined, compute: () => V): V {
    const hit = this.entries.get(path);
    if (hit && sameIdentity(hit.id, id)) return hit.value;
    const value = compute();
    if (id) this.entries.set(path, { id, value });
    else this.entries.delete(path);
    return value;
  }

  delete(path: string): void {
    this.entries.delete(path);
  }

  /** Drops entries whose files are gone, so a long session does not grow without bound. */
  prune(keep: (path: string) => boolean): void {
    for (const path of [...this.entries.keys()]) if (!keep(path)) this.entries.delete(path);
  }

  get size(): number {
    return this.entries.size;
  }
}

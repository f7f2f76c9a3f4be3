// The one way repo/ and triton/ see a directory tree: the entries of a directory with their kinds
// (symlinks followed, as Triton follows them), what is at a path, and a directory's real path for
// walks that must not loop. `diskTree` reads the disk; the workspace lays unsaved text over it and
// reads each directory once per run.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { describeFsError } from '../util/read-text.js';
import { UnreadablePathError } from '../util/unreadable-path.js';
import { pathKind, type PathKind } from '../util/path-kind.js';

/**
 * 'dir' for a directory or a link to one; 'file' for everything else, a dangling link included
 * (core's IsDirectory is false for it, so Triton takes it as a file; reading it says why it fails).
 */
export type EntryKind = 'file' | 'dir';

export interface TreeEntry {
  readonly name: string;
  readonly kind: EntryKind;
  /** The entry is a symbolic link (its kind is its target's); set by listers that can tell. */
  readonly link?: true;
  /**
   * What `Tree.kind` would say of the entry's path, where the listing already tells (the disk's
   * listing does for every entry that is not a link): no stat is then needed to ask.
   */
  readonly pathKind?: PathKind;
}

export interface Tree {
  /** The entries of a directory, in no particular order; [] when it is not there. Throws UnreadablePathError. */
  entries(dir: string): readonly TreeEntry[];
  /** What is at a path, symlinks followed; undefined for nothing. */
  kind(path: string): PathKind | undefined;
  /** The directory's path with links resolved (the path itself when that fails). */
  realpath(dir: string): string;
}

/** What a link in a listing leads to: 'dir' for a directory, else 'file' (a dangling link included). */
function linkKind(path: string): EntryKind {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'file';
  }
}

function diskEntry(dir: string, e: Dirent): TreeEntry {
  if (e.isSymbolicLink()) return { name: e.name, kind: linkKind(join(dir, e.name)), link: true };
  const kind: PathKind = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other';
  return { name: e.name, kind: kind === 'dir' ? 'dir' : 'file', pathKind: kind };
}

/** Lists a directory on disk: absent is empty; present but unreadable is an error naming it. */
export function diskEntries(dir: string): TreeEntry[] {
  let found: Dirent[];
  try {
    found = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new UnreadablePathError(dir, describeFsError(e));
  }
  return found.map((e) => diskEntry(dir, e));
}

export const diskTree: Tree = {
  entries: diskEntries,
  kind: pathKind,
  realpath(dir) {
    try {
      // The system's realpath(3): one call, where the JavaScript one lstats every component of the path.
      return realpathSync.native(dir);
    } catch {
      return dir;
    }
  },
};

/** The entry names of a directory. */
export const entryNames = (tree: Tree, dir: string): string[] => tree.entries(dir).map((e) => e.name);

/** How far `directoryFiles` goes: a model file that is a directory is a few levels and files deep. */
export const MODEL_DIR_LIMITS = { depth: 8, entries: 10_000 } as const;

/**
 * The files under a model file that is a directory (model.savedmodel/, a TensorRT-LLM engine
 * directory), as the backend reads it: links followed, each directory once, and no deeper than
 * MODEL_DIR_LIMITS (`complete` false where the walk stopped), so a link to / inside it costs at most
 * that many entries.
 */
export function directoryFiles(tree: Tree, dir: string): { files: string[]; complete: boolean } {
  const files: string[] = [];
  const seen = new Set<string>();
  let entries = 0;
  let complete = true;
  const walk = (d: string, depth: number): void => {
    const real = tree.realpath(d);
    if (seen.has(real)) return;
    seen.add(real);
    for (const e of tree.entries(d)) {
      if (++entries > MODEL_DIR_LIMITS.entries) {
        complete = false;
        return;
      }
      const p = join(d, e.name);
      if (e.kind !== 'dir') files.push(p);
      else if (depth >= MODEL_DIR_LIMITS.depth) complete = false;
      else walk(p, depth + 1);
    }
  };
  walk(dir, 1);
  return { files, complete };
}

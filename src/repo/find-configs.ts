// Finds the config files under the paths a user gives: a file is taken as it is; a directory is searched
// for Triton's config files (`<model>/config.pbtxt` and custom configs `<model>/configs/*.pbtxt`).
// Symlinks are followed, as Triton follows them (a config linked from a shared directory is a
// config), each directory once, so a link back up the tree cannot loop. A directory that cannot be
// read is reported, never skipped.
import { basename, resolve, sep } from 'node:path';
import { UnreadablePathError } from '../util/unreadable-path.js';
import type { Tree } from './tree.js';

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

export interface FoundConfigs {
  files: string[];
  /** Directories without config.pbtxt that `isModelDir` takes as models (none inside another model). */
  modelDirs: string[];
  /** Paths given that do not exist. */
  missing: string[];
  /** Directories (given or found) that exist but cannot be read. */
  unreadable: UnreadablePathError[];
}

export interface FindOptions {
  /** Whether a directory without config.pbtxt is a model all the same (Triton can load it without one). */
  isModelDir?: (dir: string) => boolean;
}

export function findConfigFiles(paths: readonly string[], tree: Tree, options: FindOptions = {}): FoundConfigs {
  const found: FoundConfigs = { files: [], modelDirs: [], missing: [], unreadable: [] };
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  const add = (f: string): void => {
    if (!seenFiles.has(f)) {
      seenFiles.add(f);
      found.files.push(f);
    }
  };
  // `real`: the directory's path with links resolved. Only a link can lead back to a directory
  // already walked, so only a link's target is asked for; below it, a directory's real path is its
  // parent's joined with its name.
  const walk = (dir: string, real: string, inModel: boolean): void => {
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    let entries;
    try {
      entries = tree.entries(dir);
    } catch (e) {
      if (e instanceof UnreadablePathError) return void found.unreadable.push(e);
      throw e;
    }
    entries = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // The version directories of a model are not models themselves (m/1/model.onnx/ looks like one).
    let model = inModel || entries.some((e) => e.name === 'config.pbtxt');
    if (!model && options.isModelDir?.(dir)) {
      found.modelDirs.push(dir);
      model = true;
    }
    for (const e of entries) {
      if (e.kind === 'dir') {
        if (SKIP_DIRS.has(e.name)) continue;
        const full = childPath(dir, e.name);
        walk(full, e.link ? tree.realpath(full) : childPath(real, e.name), model);
      } else if (e.name === 'config.pbtxt' || (e.name.endsWith('.pbtxt') && basename(dir) === 'configs')) {
        // Also a FIFO or a dangling link of that name: reading it says why it cannot be read.
        add(childPath(dir, e.name));
      }
    }
  };
  for (const given of paths) {
    const p = resolve(given);
    const kind = tree.kind(p);
    if (kind === undefined) found.missing.push(p);
    else if (kind === 'dir') walk(p, tree.realpath(p), false);
    else add(p);
  }
  return found;
}

/**
 * A directory entry's path. The walk starts from resolved paths and adds names that hold no
 * separator, so every directory it reaches is written normally already: path.join would normalize
 * the whole string again for each entry of each directory (at 1,000 models, a tenth of what a lint
 * allocates was joined paths).
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

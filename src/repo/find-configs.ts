// Finds the config files under the paths a user gives: a file is taken as it is; a directory is searched
// for Triton's config files (`<model>/config.pbtxt` and custom configs `<model>/configs/*.pbtxt`).
// Symlinks are followed, as Triton follows them (a config linked from a shared directory is a
// config), each directory once, so a link back up the tree cannot loop. A directory that cannot be
// read is reported, never skipped.
//
// Inside a model the walk goes only where Triton reads (core model_config_utils.cc
// GetModelVersionsFromPath lists the model directory and takes its sub-directories as versions; a
// backend opens its model file in the version directory): a model directory's sub-directories are
// listed (configs/, the versions, a config.pbtxt misplaced in one) and nothing below them is, so a
// link to / in a version directory costs one listing. Above the models, the search for them does not
// go through a link that leaves the directory given unless it leads to a model: such a link is
// reported (`linksOut`), since Triton, given that directory as a repository, would follow it.
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
  /** Links to a directory outside the one given that is not a model: not searched (said, never silently skipped). */
  linksOut: { path: string; target: string }[];
}

export interface FindOptions {
  /** Whether a directory without config.pbtxt is a model all the same (Triton can load it without one). */
  isModelDir?: (dir: string) => boolean;
}

export function findConfigFiles(paths: readonly string[], tree: Tree, options: FindOptions = {}): FoundConfigs {
  const found: FoundConfigs = { files: [], modelDirs: [], missing: [], unreadable: [], linksOut: [] };
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  const add = (f: string): void => {
    if (!seenFiles.has(f)) {
      seenFiles.add(f);
      found.files.push(f);
    }
  };
  /** The real path of the directory being searched now (a link out of it is not searched). */
  let root = '';
  const inside = (real: string): boolean => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  // `real`: the directory's path with links resolved. Only a link can lead back to a directory
  // already walked, so only a link's target is asked for; below it, a directory's real path is its
  // parent's joined with its name. `where`: 'search' above the models, 'out' a directory a link
  // outside the given one leads to, 'model' a model directory, 'below' a directory in a model
  // (listed, never descended: Triton reads no deeper than a version directory's entries).
  const walk = (dir: string, real: string, where: 'search' | 'out' | 'model' | 'below'): void => {
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
    if (where === 'search' || where === 'out') {
      if (entries.some((e) => e.name === 'config.pbtxt')) where = 'model';
      else if (options.isModelDir?.(dir)) {
        found.modelDirs.push(dir);
        where = 'model';
      } else if (where === 'out') {
        found.linksOut.push({ path: dir, target: real });
        return;
      }
    }
    for (const e of entries) {
      if (e.kind === 'dir') {
        if (where === 'below' || SKIP_DIRS.has(e.name)) continue;
        const full = childPath(dir, e.name);
        const target = e.link ? tree.realpath(full) : childPath(real, e.name);
        walk(full, target, where === 'model' ? 'below' : inside(target) ? 'search' : 'out');
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
    else if (kind === 'dir') {
      root = tree.realpath(p);
      walk(p, root, 'search');
    } else add(p);
  }
  return found;
}

/** What is said of a link in `linksOut`. */
export const linkOutNote = (target: string): string =>
  `a link to ${target}, outside the directory given and no model directory: not searched for models (Triton follows it where it is a model directory of the repository it serves)`;

/**
 * A directory entry's path. The walk starts from resolved paths and adds names that hold no
 * separator, so every directory it reaches is written normally already: path.join would normalize
 * the whole string again for each entry of each directory (at 1,000 models, a tenth of what a lint
 * allocates was joined paths).
 */
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

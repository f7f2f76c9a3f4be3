// A model directory as Triton reads it (core GetModelConfigFullPath, VersionsToLoad): its config files, its version
// directories (with Triton's own rules for which names count), and where a version's model file is.
import { basename, join } from 'node:path';
import { entryNames, type Tree } from './tree.js';

/** Sub-directories of a model directory that are never versions (core constants). */
export const NON_VERSION_DIRS = new Set(['warmup', 'initial_state', 'configs']);

export interface VersionDir {
  /** The directory name as written, e.g. `1`, `007`, `1_old`. */
  dirName: string;
  path: string;
  /** The version Triton takes from the name, or undefined when Triton ignores the directory. */
  version: number | undefined;
  /** Why Triton ignores it, in Triton's words where it logs them. */
  ignored?: string;
}

export interface ModelDir {
  /** The directory name, which is the model's name. */
  name: string;
  path: string;
  /** `<dir>/config.pbtxt` if it exists. */
  configPath: string | undefined;
  /** `<dir>/configs/<name>.pbtxt` custom configs (selected with --model-config-name). */
  customConfigs: string[];
  /** Every sub-directory that could be a version, with how Triton reads its name. */
  versionDirs: VersionDir[];
  /** All sub-directory names sorted as strings: Triton's auto-fill looks in the first (AutoCompleteBackendFields). */
  sortedSubdirs: string[];
}

/**
 * Triton parses a version directory name with std::stoll: a numeric prefix counts (`1_old` is
 * version 1), a name of more than one character starting with `0` is ignored, and a name with no
 * leading integer is ignored.
 */
export function versionOfDirName(name: string): { version?: number; ignored?: string } {
  if (name.length > 1 && name.startsWith('0')) return { ignored: `ignore version directory '${name}' which contains leading zeros in its directory name` };
  const m = /^\s*([+-]?\d+)/.exec(name);
  if (!m) return { ignored: `ignore version directory '${name}' which fails to convert to integral number` };
  const v = Number(m[1]);
  if (!Number.isSafeInteger(v)) return { ignored: `ignore version directory '${name}' which fails to convert to integral number` };
  return { version: v };
}

export function scanModelDir(path: string, tree: Tree): ModelDir {
  const found = tree.entries(path);
  const subdirs = found.filter((e) => e.kind === 'dir').map((e) => e.name);
  const files = new Set(found.filter((e) => e.kind !== 'dir').map((e) => e.name));
  const versionDirs: VersionDir[] = subdirs
    .filter((d) => !NON_VERSION_DIRS.has(d))
    .map((d) => ({ dirName: d, path: join(path, d), ...versionOfDirName(d) }))
    .map((v) => ({ dirName: v.dirName, path: v.path, version: v.version, ...(v.ignored ? { ignored: v.ignored } : {}) }));
  const customConfigs = subdirs.includes('configs')
    ? tree
        .entries(join(path, 'configs'))
        .filter((e) => e.name.endsWith('.pbtxt') && e.kind !== 'dir')
        .map((e) => join(path, 'configs', e.name))
        .sort()
    : [];
  return {
    name: basename(path),
    path,
    configPath: files.has('config.pbtxt') ? join(path, 'config.pbtxt') : undefined,
    customConfigs,
    versionDirs: versionDirs.sort((a, b) => (a.version ?? Infinity) - (b.version ?? Infinity) || (a.dirName < b.dirName ? -1 : 1)),
    sortedSubdirs: [...subdirs].sort(),
  };
}

/** A repository's model directories: every immediate sub-directory (Triton skips none by name). */
export function listModelDirs(repo: string, tree: Tree): string[] {
  return tree
    .entries(repo)
    .filter((e) => e.kind === 'dir')
    .map((e) => join(repo, e.name))
    .sort();
}

/** A directory Triton would take as a model: it has a config or a version directory with files in it. */
export function looksLikeModelDir(dir: string, tree: Tree): boolean {
  // Listed first (every model directory is listed anyway): the workspace's tree then answers what
  // config.pbtxt is from the listing, without a look of its own.
  let names: string[] | undefined;
  try {
    names = entryNames(tree, dir);
  } catch {
    // Not readable: the walk that follows reports it.
    names = undefined;
  }
  if (tree.kind(join(dir, 'config.pbtxt')) === 'file') return true;
  if (!names) return false;
  return names.some((n) => {
    if (versionOfDirName(n).version === undefined) return false;
    try {
      return tree.kind(join(dir, n)) === 'dir' && entryNames(tree, join(dir, n)).length > 0;
    } catch {
      return false;
    }
  });
}

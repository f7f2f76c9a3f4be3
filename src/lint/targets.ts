// What the user asked to lint, as model directories and config files. PATH may be a repository, a
// model directory, any directory above them, or files: pre-commit passes config.pbtxt,
// configs/<name>.pbtxt and model files (m/1/model.onnx); each maps to its model directory once.
import { basename, dirname, resolve } from 'node:path';
import { findConfigFiles } from '../repo/find-configs.js';
import { looksLikeModelDir, versionOfDirName } from '../repo/model-dir.js';
import { readAutofillListing } from '../repo/autofill-listing.js';
import { autofillBackendFields } from '../triton/autofill.js';

export { looksLikeModelDir };
import type { Tree } from '../repo/tree.js';
import type { UnreadablePathError } from '../util/unreadable-path.js';
import { append } from '../util/arrays.js';

export interface LintTarget {
  /** Absolute model directory. */
  modelDir: string;
  /** The config files to lint; 'all' = config.pbtxt and every configs/*.pbtxt. */
  configs: Set<string> | 'all';
  /** Model files named on the command line (checked even when the model has no config). */
  modelFiles: Set<string>;
}

export interface TargetResolution {
  targets: LintTarget[];
  /** Paths that do not exist. */
  missing: string[];
  /** Files that are neither configs nor inside a version directory. */
  unrecognized: string[];
  /** Directories that exist but cannot be read. */
  unreadable: UnreadablePathError[];
  /** Links out of a directory given that lead to no model: not searched (findConfigFiles). */
  linksOut: { path: string; target: string }[];
}

/** The model directory of a file inside a version directory (m/1/model.onnx, m/1/model.onnx/model.onnx). */
function modelDirOfModelFile(file: string, tree: Tree): string | undefined {
  let dir = dirname(file);
  for (let depth = 0; depth < 3; depth++) {
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    if (versionOfDirName(basename(dir)).version !== undefined && looksLikeModelDir(parent, tree)) return parent;
    dir = parent;
  }
  return undefined;
}

/**
 * A directory without config.pbtxt that Triton would load all the same: core's backend autofill on
 * the empty config it starts from finds a backend in its first sub-directory (model.onnx, model.plan,
 * model.py, ...), so the directory is a model, not an arbitrary folder of files.
 */
function loadableWithoutConfig(dir: string, tree: Tree): boolean {
  try {
    if (!looksLikeModelDir(dir, tree)) return false;
    return Boolean(autofillBackendFields({}, readAutofillListing(dir, basename(dir), tree)).config.backend);
  } catch {
    return false;
  }
}

/** The model directory of a config file: m/config.pbtxt, m/configs/gpu.pbtxt. */
export function modelDirOfConfig(file: string): string {
  const dir = dirname(file);
  return basename(file) !== 'config.pbtxt' && basename(dir) === 'configs' ? dirname(dir) : dir;
}

/**
 * The model directory whose version directory holds `file`, when `file` is a config.pbtxt placed
 * there (ens/1/config.pbtxt, as the tutorials' Data_Pipelines lay it out): the directory is named as
 * a version and holds no version directories itself (a model named `1` has its own: 1/1/), and the
 * directory above looks like a model.
 */
export function modelAboveVersionConfig(file: string, tree: Tree): string | undefined {
  if (basename(file) !== 'config.pbtxt') return undefined;
  const dir = dirname(file);
  if (versionOfDirName(basename(dir)).version === undefined) return undefined;
  try {
    if (tree.entries(dir).some((e) => e.kind === 'dir' && versionOfDirName(e.name).version !== undefined)) return undefined;
  } catch {
    return undefined;
  }
  const parent = dirname(dir);
  return parent !== dir && looksLikeModelDir(parent, tree) ? parent : undefined;
}

export function resolveTargets(paths: readonly string[], cwd: string, tree: Tree): TargetResolution {
  const byDir = new Map<string, LintTarget>();
  const missing: string[] = [];
  const unrecognized: string[] = [];
  const unreadable: UnreadablePathError[] = [];
  const linksOut: { path: string; target: string }[] = [];
  const target = (modelDir: string): LintTarget => {
    let t = byDir.get(modelDir);
    if (!t) byDir.set(modelDir, (t = { modelDir, configs: new Set(), modelFiles: new Set() }));
    return t;
  };
  const addConfig = (file: string): void => {
    // A config.pbtxt inside a version directory is no model's config: its model is the one above,
    // which version-dirs tells where the file belongs.
    const model = modelAboveVersionConfig(file, tree);
    if (model) {
      target(model).configs = 'all';
      return;
    }
    const t = target(modelDirOfConfig(file));
    if (t.configs !== 'all') t.configs.add(file);
  };

  for (const p of paths) {
    const abs = resolve(cwd, p);
    const kind = tree.kind(abs);
    if (!kind) {
      missing.push(p);
      continue;
    }
    if (kind === 'dir') {
      if (looksLikeModelDir(abs, tree)) {
        target(abs).configs = 'all';
        continue;
      }
      const found = findConfigFiles([abs], tree, { isModelDir: (dir) => loadableWithoutConfig(dir, tree) });
      for (const f of found.files) addConfig(f);
      for (const d of found.modelDirs) target(d).configs = 'all';
      append(unreadable, found.unreadable);
      append(linksOut, found.linksOut);
      continue;
    }
    if (abs.endsWith('.pbtxt')) {
      addConfig(abs);
      continue;
    }
    const modelDir = modelDirOfModelFile(abs, tree);
    if (modelDir === undefined) {
      unrecognized.push(p);
      continue;
    }
    const t = target(modelDir);
    t.configs = 'all';
    t.modelFiles.add(abs);
  }
  const targets = [...byDir.values()].sort((a, b) => (a.modelDir < b.modelDir ? -1 : a.modelDir > b.modelDir ? 1 : 0));
  return { targets, missing, unrecognized, unreadable, linksOut };
}

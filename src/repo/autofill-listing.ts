// What core's AutoCompleteBackendFields sees of a model directory (core src/model_config_utils.cc): the first
// sub-directory in byte order, whatever its name, and the names in it with file/directory kinds.
import { join } from 'node:path';
import type { EntryKind, Tree } from './tree.js';

/** What core's AutoCompleteBackendFields sees of a model directory (triton/autofill.ts reads it). */
export interface AutofillListing {
  /** The model's name as Triton knows it: the model directory's name. */
  modelName: string;
  /**
   * The sub-directory core inspects: the first of ALL sub-directories in byte order (a std::set of
   * names), so `1` before `10` before `2`, and `configs` or `warmup` count too. Undefined when the
   * model directory has no sub-directory; then no file-based guess is made.
   */
  firstSubdir?: { name: string; entries: ReadonlyMap<string, EntryKind> };
}

/** std::set<std::string> order: bytes, not locale (so `.ipynb_checkpoints` < `1` < `10` < `2`). */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function readAutofillListing(modelDir: string, modelName: string, tree: Tree): AutofillListing {
  const subdirs = tree
    .entries(modelDir)
    .filter((e) => e.kind === 'dir')
    .map((e) => e.name)
    .sort(byteOrder);
  const first = subdirs[0];
  if (first === undefined) return { modelName };
  const path = join(modelDir, first);
  return { modelName, firstSubdir: { name: first, entries: new Map(tree.entries(path).map((e) => [e.name, e.kind])) } };
}

// What core's AutoCompleteBackendFields sees of a model directory (core src/model_config_utils.cc): the first
// sub-directory in byte order, whatever its name, and the names in it with file/directory kinds.
import { statSync, type Dirent } from 'node:fs';
import { basename, join } from 'node:path';
import type { AutofillListing, EntryKind } from '../config/autofill.js';
import { listDir } from '../util/list-dir.js';

/** std::set<std::string> order: bytes, not locale (so `.ipynb_checkpoints` < `1` < `10` < `2`). */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}


/** A directory entry's kind the way core's IsDirectory sees it: symlinks followed; a dangling one is a file. */
function kindOf(dir: string, e: Dirent): EntryKind {
  if (e.isDirectory()) return 'dir';
  if (!e.isSymbolicLink()) return 'file';
  try {
    return statSync(join(dir, e.name)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'file';
  }
}

export function readAutofillListing(modelDir: string, modelName = basename(modelDir)): AutofillListing {
  const subdirs = listDir(modelDir).filter((e) => kindOf(modelDir, e) === 'dir').map((e) => e.name).sort(byteOrder);
  const first = subdirs[0];
  if (first === undefined) return { modelName };
  const path = join(modelDir, first);
  const entries = new Map<string, EntryKind>(listDir(path).map((e) => [e.name, kindOf(path, e)]));
  return { modelName, firstSubdir: { name: first, entries } };
}

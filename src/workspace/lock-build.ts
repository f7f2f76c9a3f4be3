// Builds a repository's tritonc.lock.json from the model files of this checkout: every model and
// every numbered version directory, the file the backend opens there (core's backend autofill, then
// <version>/<default_model_filename>, as triton/model-file-location.ts decides it), its size, weight bytes and
// ONNX signature. Models without a model file (ensembles, Python) are not locked. A version whose file
// is absent here, or is a Git LFS pointer, keeps what the existing lock says of it: a partial checkout
// never loses another checkout's record.
import { basename, relative } from 'node:path';
import { hasErrors } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { locateModelFile } from '../triton/model-file-location.js';
import { LOCK_VERSION, lockedSignature, type Lock, type LockedVersion } from './lock.js';
import type { Workspace } from './workspace.js';
import { isEnsemble } from '../triton/backend-records.js';
import { readerOf } from '../model-readers/readers.js';
import { nameRecord, ownValue } from '../util/name-record.js';
import { directoryFiles } from '../repo/tree.js';

export interface LockBuild {
  lock: Lock;
  /** Versions kept from the existing lock because this checkout lacks their file: `model/version: why`. */
  kept: string[];
  /** What stops the lock from being written (an unreadable model, a config that does not parse). */
  problems: string[];
}

export function buildLock(ws: Workspace, repo: string): LockBuild {
  const previous = ws.lock(repo).lock;
  const out: LockBuild = { lock: { lockfileVersion: LOCK_VERSION, models: nameRecord() }, kept: [], problems: [] };
  for (const dir of ws.repository(repo).modelDirs()) {
    const name = basename(dir);
    const model = ws.model(dir, name);
    const layout = model.layout();
    let config: ModelConfig = {};
    if (layout.configPath) {
      const doc = ws.config(layout.configPath);
      if (!('value' in doc) || hasErrors(doc.diagnostics)) {
        out.problems.push(
          `${relative(repo, layout.configPath)}: ${'value' in doc ? 'does not parse' : doc.message}; fix it first (tritonc lint shows where), as it says which file the model loads`,
        );
        continue;
      }
      config = doc.value;
    }
    const filled = model.autofill(config);
    if (filled.problem || isEnsemble(filled.config)) continue;
    const versions = nameRecord<LockedVersion>();
    const before = ownValue(previous?.models, name)?.versions;
    // The versions here, and those the lock has whose directory this checkout lacks.
    const lockedBefore = Object.keys(before ?? {}).map(Number);
    const numbers = [...new Set([...layout.versionDirs.flatMap((v) => (v.version === undefined ? [] : [v.version])), ...lockedBefore])].sort((a, b) => a - b);
    for (const v of numbers) {
      const one = layout.versionDirs.filter((d) => d.version === v);
      const file = locateModelFile({ ...layout, versionDirs: one }, { ...filled.config, version_policy: { all: {} } }, (p) => ws.tree.kind(p));
      if (file.format === 'none') break;
      const key = String(v);
      const keep = (why: (file: string) => string): void => {
        const old = ownValue(before, key);
        if (!old) return;
        versions[key] = old;
        out.kept.push(`${name}/${key}: ${why(old.file)}; kept what the lock says`);
      };
      if (!file.path) {
        keep((locked) => `no ${locked} in this checkout`);
        continue;
      }
      const size = sizeOf(ws, file.path);
      if (!readerOf(file.format)) {
        versions[key] = { file: relative(dir, file.path), size, weightBytes: size };
        continue;
      }
      const read = ws.signature(file.path, file.format);
      if (read.error?.lfsPointer) {
        keep(() => `${relative(dir, file.path!)} is a Git LFS pointer`);
        continue;
      }
      if (read.error || !read.signature) {
        out.problems.push(`${relative(repo, file.path)}: ${read.error?.message ?? 'cannot read the model'}`);
        continue;
      }
      const sig = read.signature;
      versions[key] = { file: relative(dir, file.path), size, weightBytes: sig.initializers.bytes, signature: lockedSignature(sig) };
    }
    if (Object.keys(versions).length) out.lock.models[name] = { versions };
  }
  return out;
}

/** A file's size, or a directory's total (model.savedmodel/, an OpenVINO or DALI directory), as far as repo/tree's bounded walk goes. */
function sizeOf(ws: Workspace, path: string): number {
  if (ws.tree.kind(path) !== 'dir') return ws.sources.size(path) ?? 0;
  return directoryFiles(ws.tree, path).files.reduce((n, f) => n + (ws.sources.size(f) ?? 0), 0);
}

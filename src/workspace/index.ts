// The workspace API (re-exported by src/index.ts).
import { basename, dirname, resolve } from 'node:path';
import type { ResolveOptions, ResolveResult } from '../triton/effective-config.js';
import { Workspace } from './workspace.js';
import type { FileSource } from './sources.js';

export type { FileSource } from './sources.js';

/** The effective config Triton would load for one model directory, read from disk (or `files`). */
export function resolveModelDir(modelDir: string, options: ResolveOptions = {}, files?: FileSource, where: { configsOnly?: boolean } = {}): ResolveResult {
  const ws = new Workspace(files ? { files } : {});
  const repo = dirname(modelDir);
  // The model files provisioned elsewhere: the lock stands in for what it records, the rest is unknown.
  if (where.configsOnly) {
    ws.provisionElsewhere(repo);
    if (ws.lock(repo).lock) ws.standInLockedModels(repo);
  }
  // The directory as given, so that messages show the user's own path.
  return ws.model(modelDir, basename(resolve(modelDir))).effective(options);
}

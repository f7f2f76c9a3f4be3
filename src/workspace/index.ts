// The workspace API (re-exported by src/index.ts).
import { basename, resolve } from 'node:path';
import type { ResolveOptions, ResolveResult } from '../triton/effective-config.js';
import { Workspace } from './workspace.js';
import type { FileSource } from './sources.js';

export { Workspace, type ConfigRead, type ReadConfigOptions, type WorkspaceModel } from './workspace.js';
export type { FileSource, SignatureResult } from './sources.js';

/** The effective config Triton would load for one model directory, read from disk (or `files`). */
export function resolveModelDir(modelDir: string, options: ResolveOptions = {}, files?: FileSource): ResolveResult {
  // The directory as given, so that messages show the user's own path.
  return new Workspace(files ? { files } : {}).model(modelDir, basename(resolve(modelDir))).effective(options);
}

// The workspace API (re-exported by src/index.ts).
import { basename, resolve } from 'node:path';
import type { ResolveOptions, ResolveResult } from '../triton/effective-config.js';
import { Workspace } from './workspace.js';

export { Workspace, type ConfigRead, type ReadConfigOptions, type WorkspaceModel } from './workspace.js';
export type { SignatureResult } from './sources.js';

/** The effective config Triton would load for one model directory, read from disk. */
export function resolveModelDir(modelDir: string, options: ResolveOptions = {}): ResolveResult {
  // The directory as given, so that messages show the user's own path.
  return new Workspace().model(modelDir, basename(resolve(modelDir))).effective(options);
}

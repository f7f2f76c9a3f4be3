// Which model a changed path belongs to, and what kind of file it is, in a repository laid out as
// <repo>/<model>/{config.pbtxt, configs/*.pbtxt, <version>/<model files>}.
import { relative, sep } from 'node:path';

export type ChangeKind = 'config' | 'custom-config' | 'model-file' | 'version-dir' | 'model-dir' | 'other';

export interface ClassifiedChange {
  /** The model directory's name, or undefined for files at the repository's top level. */
  model: string | undefined;
  kind: ChangeKind;
  path: string;
}

export function classifyChange(repo: string, path: string, isDirectory: boolean): ClassifiedChange {
  const rel = relative(repo, path);
  if (!rel || rel.startsWith('..')) return { model: undefined, kind: 'other', path };
  const parts = rel.split(sep);
  const model = parts[0]!;
  if (parts.length === 1) return { model, kind: 'model-dir', path };
  if (parts.length === 2 && parts[1] === 'config.pbtxt') return { model, kind: 'config', path };
  if (parts.length === 3 && parts[1] === 'configs' && parts[2]!.endsWith('.pbtxt')) return { model, kind: 'custom-config', path };
  if (parts.length === 2) return { model, kind: isDirectory ? 'version-dir' : 'other', path };
  if (parts.length >= 3 && parts[1] !== 'configs') return { model, kind: 'model-file', path };
  return { model, kind: 'other', path };
}

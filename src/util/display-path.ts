// How tritonc shows a path: relative to the working directory (with `/`), or absolute when it lies
// outside it, so /nonexistent is shown as the user typed it, never as ../../nonexistent.
import { isAbsolute, relative, sep } from 'node:path';

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return file.split(sep).join('/');
  return rel.split(sep).join('/');
}

// What is at a path, following symlinks as Triton does: a file, a directory, or nothing usable.
import { statSync } from 'node:fs';

export type PathKind = 'file' | 'dir';

export function pathKind(path: string): PathKind | undefined {
  try {
    const st = statSync(path);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

export const isDirectory = (path: string): boolean => pathKind(path) === 'dir';

/** The size of a regular file, or undefined when there is none. */
export function fileSize(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

// What is at a path, following symlinks as Triton does: a file, a directory, something else, or nothing.
import { statSync } from 'node:fs';

/** 'other': something that exists but is neither (a FIFO, a device): reading it says why it cannot be read. */
export type PathKind = 'file' | 'dir' | 'other';

export function pathKind(path: string): PathKind | undefined {
  try {
    // throwIfNoEntry: a path that is not there is a common answer, not worth an exception.
    const st = statSync(path, { throwIfNoEntry: false });
    return st === undefined ? undefined : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

export const isDirectory = (path: string): boolean => pathKind(path) === 'dir';

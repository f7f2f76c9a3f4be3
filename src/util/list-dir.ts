// Lists a directory for a walk over a repository. A directory that is not there lists as empty (the
// caller asked about a path that may not exist); one that exists but cannot be read is an error
// naming it, never silently skipped: a model Triton can read but tritonc cannot would otherwise go
// unchecked, and a lint that checked nothing would pass.
import { readdirSync, type Dirent } from 'node:fs';
import { describeFsError } from './read-text.js';

export class UnreadablePathError extends Error {
  override readonly name = 'UnreadablePathError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: cannot read: ${reason}`);
  }
}

export function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new UnreadablePathError(dir, describeFsError(e));
  }
}

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

/** The listings of the current run (see listingsOnce); none outside a run. */
let listed: Map<string, Dirent[] | UnreadablePathError> | undefined;

/**
 * Runs `fn` with every directory listed at most once: the target scan, the model scans, Triton's
 * autofill listing and the rules all ask for the same few directories. Only for a run that does
 * not change the tree it reads (a lint); a watch starts a new run for each change.
 */
export function listingsOnce<T>(fn: () => T): T {
  if (listed) return fn();
  listed = new Map();
  try {
    return fn();
  } finally {
    listed = undefined;
  }
}

export function listDir(dir: string): Dirent[] {
  const known = listed?.get(dir);
  if (known instanceof UnreadablePathError) throw known;
  if (known) return known;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') entries = [];
    else {
      const error = new UnreadablePathError(dir, describeFsError(e));
      listed?.set(dir, error);
      throw error;
    }
  }
  listed?.set(dir, entries);
  return entries;
}

/** The entry names of a directory ([] when it is not there), listed once per run like listDir. */
export const listNames = (dir: string): string[] => listDir(dir).map((e) => e.name);

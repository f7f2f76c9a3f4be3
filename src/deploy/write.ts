// deploy --out DIR: the target's file written into DIR, never through a link and never over a file
// that is there. A directory that is missing or empty is made whole beside it (mkdtemp) and renamed
// into place, as tune plan's is; into one that holds other files, each file is written new (O_EXCL:
// writeNewFile), and a name already taken is refused before anything is written.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeNewFile } from '../util/atomic-write.js';
import { describeFsError } from '../util/read-text.js';
import { DeployError } from './plan.js';

export interface DeployFile {
  /** The name in the output directory, fixed by tritonc. */
  name: string;
  text: string;
}

/** Writes `files` into `out`; returns their paths. DeployError says why nothing was written. */
export function writeDeployFiles(out: string, files: readonly DeployFile[], shown: (path: string) => string): string[] {
  let st;
  try {
    st = lstatSync(out, { throwIfNoEntry: false });
  } catch (e) {
    throw new DeployError(`--out ${shown(out)}: cannot be looked at: ${describeFsError(e)}`);
  }
  if (st?.isSymbolicLink())
    throw new DeployError(`--out ${shown(out)} is a symbolic link, and tritonc writes through no link it did not make: give the real directory`);
  if (st && !st.isDirectory()) throw new DeployError(`--out ${shown(out)} exists and is not a directory: give a directory`);
  const entries = st ? readdirSync(out) : [];
  if (entries.length) return writeInto(out, files, entries, shown);

  let tmp: string;
  try {
    mkdirSync(dirname(out), { recursive: true });
    // A name no one can have planted: mkdtemp makes it, private, one rename away from the destination.
    tmp = mkdtempSync(join(dirname(out), `.${basename(out)}.tritonc-`));
  } catch (e) {
    throw new DeployError(`--out ${shown(out)}: cannot write beside it: ${describeFsError(e)}`);
  }
  try {
    for (const f of files) writeNewFile(join(tmp, f.name), f.text);
    if (st) rmdirSync(out); // empty, as read above; rmdir refuses anything else
    renameSync(tmp, out);
  } catch (e) {
    throw new DeployError(`--out ${shown(out)}: cannot write it: ${describeFsError(e)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return files.map((f) => join(out, f.name));
}

function writeInto(out: string, files: readonly DeployFile[], entries: readonly string[], shown: (path: string) => string): string[] {
  const taken = files.filter((f) => entries.includes(f.name));
  if (taken.length)
    throw new DeployError(
      `--out ${shown(out)} already holds ${taken.map((f) => f.name).join(', ')}: tritonc deploy replaces no file; remove ${taken.length === 1 ? 'it' : 'them'}, or give another directory`,
    );
  const written: string[] = [];
  try {
    for (const f of files) {
      const path = join(out, f.name);
      writeNewFile(path, f.text);
      written.push(path);
    }
  } catch (e) {
    for (const path of written) {
      try {
        unlinkSync(path);
      } catch {
        // already gone: nothing of ours is left there
      }
    }
    throw new DeployError(`--out ${shown(out)}: cannot write ${shown(join(out, files[written.length]!.name))}: ${describeFsError(e)}`);
  }
  return written;
}

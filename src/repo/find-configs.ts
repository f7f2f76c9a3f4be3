// Finds the config files under the paths a user gives: a file is taken as it is; a directory is searched
// for Triton's config files (`<model>/config.pbtxt` and custom configs `<model>/configs/*.pbtxt`).
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);

export function findConfigFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const add = (f: string): void => {
    if (!seen.has(f)) {
      seen.add(f);
      files.push(f);
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      missing.push(p);
      continue;
    }
    if (st.isDirectory()) walk(p, add);
    else add(p);
  }
  return { files, missing };
}

function walk(dir: string, add: (f: string) => void): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(full, add);
    } else if (e.isFile() && (e.name === 'config.pbtxt' || (e.name.endsWith('.pbtxt') && basename(dir) === 'configs'))) {
      add(full);
    }
  }
}

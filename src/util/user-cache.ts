// Where tritonc keeps a cache that no checkout can plant or overwrite: the user's cache directory
// ($XDG_CACHE_HOME/tritonc, else ~/.cache/tritonc, made private), one file per working directory,
// named by a hash of its real path.
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** cyrb53: a fast 53-bit string hash (no node:crypto to load on the hook's fast path). */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** The cache file for `cwd` in the user's cache directory, the directory made (mode 0700) when missing. */
export function userCacheFile(name: string, cwd: string, env: Readonly<Record<string, string | undefined>>): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  const dir = join(base, 'tritonc');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // a directory that went away: its path as given
  }
  return join(dir, `${name}-${hash53(real)}`);
}

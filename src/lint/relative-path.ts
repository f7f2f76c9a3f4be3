// Lexical checks on relative paths a config names (a backend runtime, a model file name).

/** Whether a relative path, resolved lexically, climbs above its starting directory. */
export function escapes(path: string): boolean {
  let depth = 0;
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      depth--;
      if (depth < 0) return true;
    } else depth++;
  }
  return false;
}

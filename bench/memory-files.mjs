// A repository read once into memory, as a FileSource (src/workspace/sources.ts): lint with the
// directory in memory (scale.mjs), and both builds of compare.mjs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A repository held in memory, answering as the disk does (the `files` of LintOptions): a lint over
 * it is the parse and the rules alone, where lintText also lists the model's directories, looks for
 * the settings file up to / and opens the lock file, on every call.
 */
export function memoryFiles(root) {
  const nodes = new Map();
  const walk = (p) => {
    if (statSync(p).isDirectory()) {
      const names = readdirSync(p);
      nodes.set(p, { dir: names.map((name) => ({ name, kind: statSync(join(p, name)).isDirectory() ? 'dir' : 'file' })) });
      for (const n of names) walk(join(p, n));
    } else nodes.set(p, { text: readFileSync(p, 'utf8') });
  };
  walk(root);
  const kind = (p) => (!nodes.has(p) ? undefined : nodes.get(p).dir ? 'dir' : 'file');
  const size = (p) => (nodes.get(p)?.text === undefined ? undefined : Buffer.byteLength(nodes.get(p).text));
  return {
    entries: (d) => nodes.get(d)?.dir ?? [],
    kind,
    realpath: (d) => d,
    text: (p) => (nodes.get(p)?.text !== undefined ? { kind: 'text', text: nodes.get(p).text } : { kind: 'missing' }),
    size,
    stat: (p) => (kind(p) ? { kind: kind(p), size: size(p) } : undefined),
    signature: (p) => ({ error: Object.assign(new Error(`${p}: not an ONNX model`), { kind: 'io', file: p, offset: null, reason: 'no such file' }) }),
  };
}

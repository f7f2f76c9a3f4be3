// What the bench's scripts share (scale.mjs, and both builds of compare.mjs): a repository read once
// into memory, as a FileSource (src/workspace/sources.ts), and the config of a given size.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ModelReadError } from '../dist/index.js';

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
    // No model file is held: every one is missing, as the readers say it (ModelReadError's io noSuchFile).
    signature: (p) => ({ error: new ModelReadError('io', p, null, { messageId: 'noSuchFile', data: {} }) }),
  };
}

/** A valid config of about `size` bytes: a Python model's, grown with parameters entries. */
export function configText(size) {
  const parts = [
    'backend: "python"',
    'max_batch_size: 8',
    'input [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]',
    'output [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]',
  ];
  const chunks = [`${parts.join('\n')}\n`];
  let n = chunks[0].length;
  for (let i = 0; n < size; i++) {
    const l = `parameters { key: "setting_${i}" value: { string_value: "value number ${i} of the bench" } }\n`;
    chunks.push(l);
    n += l.length;
  }
  return chunks.join('');
}

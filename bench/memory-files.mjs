// What the bench's scripts share (scale.mjs, pbtxt.mjs, goals.mjs, and both builds of compare.mjs): a repository
// read once into memory, as a FileSource (src/workspace/sources.ts), and the configs of a given size.
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

/**
 * A large config: many inputs, outputs and parameters. 500 of each make ~130 KB, ten times the largest
 * real config in the corpus; 2,000 make ~540 KB, where the whole syntax tree no longer fits V8's young
 * generation and throughput halves (the tree is kept for ranges and comments; Python builds only the
 * message).
 */
export function largeConfig(n) {
  const parts = ['name: "large"', 'backend: "onnxruntime"', 'max_batch_size: 64'];
  for (let i = 0; i < n; i++) {
    parts.push(`input { name: "input_${i}" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] }`);
    parts.push(`output { name: "output_${i}" data_type: TYPE_FP16 dims: [ 1000 ] label_filename: "labels_${i}.txt" }`);
    parts.push(`parameters { key: "param_${i}" value { string_value: "value ${i} \\"quoted\\"" } }  # comment ${i}`);
  }
  parts.push('dynamic_batching { preferred_batch_size: [ 8, 16, 32 ] max_queue_delay_microseconds: 5000 }');
  return `${parts.join('\n')}\n`;
}

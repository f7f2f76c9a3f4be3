// A repository held in memory, as the workspace reads one (src/workspace/sources.ts FileSource): the
// tree of the paths given, their texts, their sizes and the signatures of the models among them
// (read by the real readers from their bytes: ONNX files, SavedModel directories). Rule tests lint it without touching the disk.
import { dirname, join } from 'node:path';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readerOf } from '../../src/model-readers/readers.js';
import { readSavedModelOfBytes } from '../../src/savedmodel/index.js';
import type { FileSource, SignatureResult } from '../../src/workspace/sources.js';
import type { TreeEntry } from '../../src/repo/tree.js';
import type { PathKind } from '../../src/util/path-kind.js';
import type { PathStat } from '../../src/util/file-identity.js';
import type { TextRead } from '../../src/util/read-text.js';

/** Files by path relative to the root: text or bytes; a path ending in '/' is an empty directory. */
export type MemoryTree = Readonly<Record<string, string | Uint8Array>>;

export function memoryFiles(root: string, tree: MemoryTree): FileSource {
  const files = new Map<string, string | Uint8Array>();
  const dirs = new Map<string, Map<string, TreeEntry>>([[root, new Map()]]);
  const addDir = (dir: string): void => {
    if (dirs.has(dir)) return;
    dirs.set(dir, new Map());
    const parent = dirname(dir);
    addDir(parent);
    dirs.get(parent)!.set(dir.slice(parent.length + 1), { name: dir.slice(parent.length + 1), kind: 'dir', pathKind: 'dir' });
  };
  for (const [rel, content] of Object.entries(tree)) {
    if (rel.endsWith('/')) {
      addDir(join(root, rel.slice(0, -1)));
      continue;
    }
    const path = join(root, rel);
    addDir(dirname(path));
    files.set(path, content);
    dirs.get(dirname(path))!.set(rel.split('/').pop()!, { name: rel.split('/').pop()!, kind: 'file', pathKind: 'file' });
  }
  const kind = (path: string): PathKind | undefined => (dirs.has(path) ? 'dir' : files.has(path) ? 'file' : undefined);
  const signatures = new Map<string, SignatureResult>();
  return {
    entries: (dir) => [...(dirs.get(dir)?.values() ?? [])],
    kind,
    realpath: (dir) => dir,
    text(path): TextRead {
      const content = files.get(path);
      if (content === undefined) return dirs.has(path) ? { kind: 'unreadable', reason: 'is a directory' } : { kind: 'missing' };
      return { kind: 'text', text: typeof content === 'string' ? content : Buffer.from(content).toString('utf8') };
    },
    stat(path): PathStat | undefined {
      const k = kind(path);
      if (!k) return undefined;
      const content = files.get(path);
      return { kind: k, size: content === undefined ? undefined : typeof content === 'string' ? Buffer.byteLength(content) : content.length };
    },
    signature(path, format): SignatureResult {
      const reader = readerOf(format);
      if (!reader) return {};
      const key = `${format}\0${path}`;
      let read = signatures.get(key);
      if (read) return read;
      const content = files.get(path);
      if (reader.directory) read = savedModel(path);
      else if (content === undefined)
        read = {
          error: new ModelReadError(
            'io',
            path,
            null,
            dirs.has(path) ? { messageId: 'isDirectory', data: { format: reader.title } } : { messageId: 'noSuchFile', data: {} },
          ),
        };
      else {
        const sizeOf = (p: string): number | null => {
          const c = files.get(p);
          return c === undefined ? null : typeof c === 'string' ? Buffer.byteLength(c) : c.length;
        };
        try {
          read = { signature: reader.readBytes!(path, typeof content === 'string' ? Buffer.from(content) : content, sizeOf) };
        } catch (e) {
          read = { error: e instanceof ModelReadError ? e : readerFailed(path, e) };
        }
      }
      signatures.set(key, read);
      return read;
    },
  };

  /** A SavedModel directory: its saved_model.pb read from bytes, its variables/ sized. */
  function savedModel(dir: string): SignatureResult {
    const pb = files.get(join(dir, 'saved_model.pb'));
    if (pb === undefined)
      return {
        error: new ModelReadError(
          'io',
          dir,
          null,
          dirs.has(dir) ? { messageId: 'savedModelNoPb', data: { pb: 'saved_model.pb' } } : { messageId: 'noSuchFile', data: {} },
        ),
      };
    const variables: Record<string, number> = {};
    for (const [name, entry] of dirs.get(join(dir, 'variables')) ?? []) {
      const f = files.get(join(dir, 'variables', name));
      if (entry.kind === 'file' && f !== undefined) variables[name] = typeof f === 'string' ? Buffer.byteLength(f) : f.length;
    }
    try {
      return { signature: readSavedModelOfBytes(dir, typeof pb === 'string' ? Buffer.from(pb) : pb, variables) };
    } catch (e) {
      return { error: e instanceof ModelReadError ? e : readerFailed(dir, e) };
    }
  }
}

/** A reader's own failure, as model-readers/readers.ts loadSignature makes it. */
const readerFailed = (path: string, e: unknown): ModelReadError =>
  new ModelReadError('format', path, null, { messageId: 'readerFailed', data: { error: e instanceof Error ? e.name : typeof e } }, undefined, { cause: e });

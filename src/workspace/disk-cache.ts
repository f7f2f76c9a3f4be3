// What one lint run read about the other models of a repository, kept on disk for the next
// (`tritonc lint --cache`, as ESLint's --cache keeps its results): each ONNX file's signature, and the
// value of each config.pbtxt that parses, with the identity (device, inode, size, mtime) of the file,
// and of a model's external data files, when it was read. An entry is used only while every one of
// those identities is unchanged, so an edited config or a re-exported model is read again. Errors are
// not kept: a bad file is read again next time, and says so again. A cache file tritonc cannot read,
// or one another version wrote, is ignored and rewritten.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import type { ModelSignature } from '../onnx/types.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { FileIdentity } from '../util/file-identity.js';

/** The identity of the file at a path now (the workspace's look at it this run). */
export type IdentityOf = (path: string) => FileIdentity | undefined;

const FORMAT = 2;

interface StoredIdentity {
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
}

interface Entry {
  id: StoredIdentity;
  /** The external data files (absolute) and their identities when the signature was read. */
  external: [string, StoredIdentity][];
  signature: ModelSignature;
}

interface ConfigEntry {
  id: StoredIdentity;
  /** The value as JSON text, parsed only when asked for: most runs use a few of many. */
  json: string;
  /** The text holds encoded bigints or non-finite numbers, and needs the reviver. */
  special?: true;
}

// Config values hold 64-bit integers as bigints beyond 2^53, and floats may be inf or nan: JSON has neither.
/** JSON text of a config value, and whether it encoded a bigint or a non-finite number (and needs the reviver). */
function encodeConfig(value: ModelConfig): { json: string; special: boolean } {
  let special = false;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return (special = true), { $bigint: String(v) };
    if (typeof v === 'number' && !Number.isFinite(v)) return (special = true), { $number: String(v) };
    return v;
  });
  return { json, special };
}
const reviver = (_key: string, v: unknown): unknown => {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$bigint') return BigInt((v as { $bigint: string }).$bigint);
    if (keys.length === 1 && keys[0] === '$number') return Number((v as { $number: string }).$number);
  }
  return v;
};

const store = (id: FileIdentity): StoredIdentity => ({ dev: String(id.dev), ino: String(id.ino), size: String(id.size), mtimeNs: String(id.mtimeNs) });
const same = (stored: StoredIdentity, id: FileIdentity | undefined): boolean =>
  id !== undefined && stored.dev === String(id.dev) && stored.ino === String(id.ino) && stored.size === String(id.size) && stored.mtimeNs === String(id.mtimeNs);

export class DiskCache {
  private entries = new Map<string, Entry>();
  private configs = new Map<string, ConfigEntry>();
  private dirty = false;

  constructor(readonly file: string, private readonly version: string) {
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { format?: number; tritonc?: string; entries?: Record<string, Entry>; configs?: Record<string, ConfigEntry> };
      // Another tritonc may read models differently: its cache is not ours.
      if (json.format === FORMAT && json.tritonc === version && json.entries && json.configs) {
        this.entries = new Map(Object.entries(json.entries));
        this.configs = new Map(Object.entries(json.configs));
      }
    } catch {
      // No cache yet, or one that cannot be read: start empty, write it anew.
    }
  }

  /** The kept signature of `path`, when the file and its external data are as they were. */
  signature(path: string, identityOf: IdentityOf): ModelSignature | undefined {
    const e = this.entries.get(path);
    if (!e) return undefined;
    if (!same(e.id, identityOf(path)) || !e.external.every(([p, id]) => same(id, identityOf(p)))) {
      this.entries.delete(path);
      this.dirty = true;
      return undefined;
    }
    return e.signature;
  }

  setSignature(path: string, signature: ModelSignature, identityOf: IdentityOf): void {
    const id = identityOf(path);
    if (!id) return;
    const external: [string, StoredIdentity][] = [];
    for (const f of signature.externalDataFiles) {
      const p = resolve(dirname(path), f);
      const fid = identityOf(p);
      // External data that is not there: not kept, so the finding about it comes back.
      if (!fid) return;
      external.push([p, store(fid)]);
    }
    this.entries.set(path, { id: store(id), external, signature });
    this.dirty = true;
  }

  /** The kept value of a config file, when the file is as it was. */
  config(path: string, identityOf: IdentityOf): ModelConfig | undefined {
    const e = this.configs.get(path);
    if (!e) return undefined;
    if (!same(e.id, identityOf(path))) {
      this.configs.delete(path);
      this.dirty = true;
      return undefined;
    }
    return JSON.parse(e.json, e.special ? reviver : undefined) as ModelConfig;
  }

  setConfig(path: string, value: ModelConfig, identityOf: IdentityOf): void {
    const id = identityOf(path);
    if (!id) return;
    const { json, special } = encodeConfig(value);
    this.configs.set(path, { id: store(id), json, ...(special ? { special: true as const } : {}) });
    this.dirty = true;
  }

  get size(): number {
    return this.entries.size + this.configs.size;
  }

  /** Writes the cache (atomically) when something changed; a failure to write is returned, not thrown. */
  save(): string | undefined {
    if (!this.dirty) return undefined;
    try {
      const json = { format: FORMAT, tritonc: this.version, entries: Object.fromEntries(this.entries), configs: Object.fromEntries(this.configs) };
      writeFileAtomic(this.file, `${JSON.stringify(json)}\n`);
      this.dirty = false;
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }
}

// What one lint run read about the other models of a repository, kept on disk for the next
// (`tritonc lint --cache`, as ESLint's --cache keeps its results):
// - each ONNX file's signature, and the value of each config.pbtxt that parses, with the identity
//   (device, inode, size, modification and change times in nanoseconds) of the file, and of a model's external data files, when it was read;
// - each model directory's summary (model-summary.ts), with the identity of every path it was made
//   from: the directories listed (a directory's identity changes when an entry is added, removed or
//   renamed), the files looked at or read, and the paths found empty.
// An entry is used only while every one of those identities is unchanged, so an edited config, a
// re-exported model or a new version directory is read again. Errors are not kept: a bad file is
// read again next time, and says so again. Nothing read from a path changed within the last two
// seconds is kept (a file system that keeps whole seconds could change it again unseen, as git
// treats "racily clean" entries), nor one made from what a run cannot identify (unsaved text, the
// lock's stand-ins, an object store). A cache file tritonc cannot read, or one another version wrote,
// is ignored and rewritten, and so is an entry of the wrong shape (each value read back is checked
// against its type before use). The file is tritonc's own (util/own-file.ts): a symbolic link or a
// non-file at its path is refused (OwnFileError), never read through or written over.
//
// The file is four lines: a header, then the summaries, signatures and configs, each a JSON object
// parsed only when a run first asks for it (a run that finds every summary current reads no other).
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import type { ModelConfig } from '../config/model-config.js';
import { asConfigValue } from '../config/value-shape.js';
import { asSignature } from './signature-schema.js';
import type { ModelSignature } from '../model-file/signature.js';
import { readOwnFile, writeOwnFile } from '../util/own-file.js';
import { changedMs, type FileIdentity } from '../util/file-identity.js';
import type { ModelSummary } from './model-summary.js';

/**
 * The identity of what is at a path now (the workspace's look at it this run): null for nothing
 * there, undefined where it cannot be told (an overlay, an object store), which matches nothing.
 */
export type IdentityOf = (path: string) => FileIdentity | null | undefined;

const FORMAT = 5;
/** Nothing read from a path changed more recently than this is kept (git's "racily clean"). */
const RACY_MS = 2000;

interface Entry {
  id: FileIdentity;
  /** The external data files (absolute) and their identities when the signature was read. */
  external: [string, FileIdentity][];
  /** The signature as JSON text, parsed only when asked for (a staged lint asks for one of many). */
  json: string;
}

/** A value kept as JSON text, parsed only when asked for: most runs use a few of many. */
interface Encoded {
  json: string;
  /** The text holds encoded bigints or non-finite numbers, and needs the reviver. */
  special?: true;
}

interface ConfigEntry extends Encoded {
  id: FileIdentity;
}

interface SummaryEntry {
  /**
   * Every path the summary was made from and its identity then (null: nothing was there), in turn:
   * a path inside the model directory relative to it ('' for the directory), others absolute.
   */
  deps: (string | null)[];
  /** The summary, or (`json`) its text where it holds a bigint or a non-finite number. */
  value?: ModelSummary;
  json?: string;
}

// Config values hold 64-bit integers as bigints beyond 2^53, and floats may be inf or nan: JSON has neither.
/** The one-key objects that stand for a bigint, a non-finite number, or an object of the user's spelled like one. */
const MARKERS = new Set(['$bigint', '$number', '$entries']);
const isMarkerLike = (v: object): boolean => {
  const keys = Object.keys(v);
  return keys.length === 1 && MARKERS.has(keys[0]!);
};

/**
 * JSON text of a value, marked when it encoded a bigint or a non-finite number (and needs the reviver).
 * An object of the value's own that looks like a marker (a map whose one key is "$bigint") is written as
 * its entries, so the reviver never takes user data for a marker.
 */
function encode(value: unknown): Encoded {
  let special = false;
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return ((special = true), { $bigint: String(v) });
    if (typeof v === 'number' && !Number.isFinite(v)) return ((special = true), { $number: String(v) });
    if (v && typeof v === 'object' && !Array.isArray(v) && isMarkerLike(v)) return ((special = true), { $entries: Object.entries(v) });
    return v;
  });
  return special ? { json, special: true } : { json };
}
const reviver = (_key: string, v: unknown): unknown => {
  if (v && typeof v === 'object' && !Array.isArray(v) && isMarkerLike(v)) {
    const m = v as { $bigint?: string; $number?: string; $entries?: [string, unknown][] };
    // A planted or damaged file may hold anything: what is not a marker tritonc writes stays as it is (and fails the shape checks).
    if (typeof m.$bigint === 'string' && /^-?\d+$/.test(m.$bigint)) return BigInt(m.$bigint);
    if (typeof m.$number === 'string') return Number(m.$number);
    if (Array.isArray(m.$entries) && m.$entries.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string'))
      return Object.fromEntries(m.$entries);
  }
  return v;
};
const decode = <T>(e: Encoded): T => JSON.parse(e.json, e.special ? reviver : undefined) as T;

/**
 * Whether what was read from a file may be kept: the file is identified, and did not change within
 * the last RACY_MS (it could change again within the file system's time granularity, unseen).
 */
const trusted = (id: FileIdentity | null | undefined, nowMs: number): id is FileIdentity => !!id && changedMs(id) <= nowMs - RACY_MS;

/** Identities are strings: the same string, the same file (null: still nothing there; undefined, "cannot tell", matches nothing). */
const same = (stored: FileIdentity | null, id: FileIdentity | null | undefined): boolean => stored === id;

/** `v` when it has a summary's shape (a damaged or hand-edited file may hold anything), else undefined. */
function asSummary(v: unknown): ModelSummary | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const s = v as Record<string, unknown>;
  if (Object.keys(s).some((k) => !['model', 'placement', 'weightBytes', 'steps'].includes(k))) return undefined;
  if (typeof s.model !== 'boolean') return undefined;
  if (s.placement !== undefined && !asConfigValue(s.placement)) return undefined;
  if (s.weightBytes !== undefined && !(typeof s.weightBytes === 'number' && Number.isFinite(s.weightBytes) && s.weightBytes >= 0)) return undefined;
  if (s.steps !== undefined && !(Array.isArray(s.steps) && s.steps.every((x) => typeof x === 'string'))) return undefined;
  return v as ModelSummary;
}

/** One of the file's objects: its bytes as read, parsed into a map on first use. */
class Section<V> {
  private map: Map<string, V> | undefined;
  constructor(
    private bytes: Buffer | undefined,
    /** Called when the text is not a JSON object: the section is then empty, and rewritten. */
    private readonly onDamaged: () => void,
  ) {}

  get entries(): Map<string, V> {
    if (!this.map) {
      this.map = new Map();
      try {
        const parsed: unknown = this.bytes?.length ? JSON.parse(this.bytes.toString('utf8')) : {};
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) this.map = new Map(Object.entries(parsed as Record<string, V>));
        else this.onDamaged();
      } catch {
        this.onDamaged();
      }
      this.bytes = undefined;
    }
    return this.map;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Its JSON text: as read when it was never parsed. */
  toJSON(): string {
    return this.map ? JSON.stringify(Object.fromEntries(this.map)) : this.bytes?.length ? this.bytes.toString('utf8') : '{}';
  }
}

/** A cache larger than this is not read (and is rewritten): no repository's facts come near it. */
const MAX_CACHE_BYTES = 512 * 1024 * 1024;
const WHAT = 'lint cache';

/** The file's lines, as bytes: a section is decoded only when it is asked for. Throws OwnFileError for a link or a non-file. */
function lines(file: string): Buffer[] {
  const read = readOwnFile(file, WHAT, MAX_CACHE_BYTES);
  if (read.kind !== 'bytes') return [];
  const bytes = read.bytes;
  const out: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(0x0a, start);
    out.push(bytes.subarray(start, end < 0 ? bytes.length : end));
    start = end < 0 ? bytes.length : end + 1;
  }
  return out;
}

/** A dependency's path as kept: relative to the model directory inside it. */
function keptPath(dir: string, path: string): string {
  if (path === dir) return '';
  return path.startsWith(dir) && path[dir.length] === sep ? path.slice(dir.length + 1) : path;
}
const fullPath = (dir: string, kept: string): string => (kept === '' ? dir : isAbsolute(kept) ? kept : `${dir}${sep}${kept}`);

export class DiskCache {
  private readonly summaries: Section<SummaryEntry>;
  private readonly entries: Section<Entry>;
  private readonly configs: Section<ConfigEntry>;
  private dirty = false;

  constructor(
    readonly file: string,
    private readonly version: string,
    /** The clock (ms) the racy window is measured against. */
    private readonly now: () => number = Date.now,
  ) {
    // A link or a non-file at the path is refused here (OwnFileError), before anything is read.
    let read = lines(file);
    try {
      const header = JSON.parse(read[0]?.toString('utf8') ?? '') as { format?: number; tritonc?: string };
      // Another tritonc may read models differently: its cache is not ours.
      if (header.format !== FORMAT || header.tritonc !== version || read.length < 4) read = [];
    } catch {
      // No cache yet, or one that cannot be read: start empty, write it anew.
      read = [];
    }
    // A new cache file is written even when nothing could be kept yet, so the user sees where it is.
    this.dirty = read.length === 0;
    const damaged = (): void => {
      this.dirty = true;
    };
    this.summaries = new Section(read[1], damaged);
    this.entries = new Section(read[2], damaged);
    this.configs = new Section(read[3], damaged);
  }

  /**
   * The entry kept for `key`, when `current` finds it still true (and returns what it holds); else
   * none, and the entry is dropped. An entry of the wrong shape (a damaged or hand-edited file) is
   * dropped too, never an error.
   */
  private kept<E, T>(section: Section<E>, key: string, current: (e: E) => T | undefined): T | undefined {
    const e = section.entries.get(key);
    if (e === undefined) return undefined;
    let value: T | undefined;
    try {
      value = current(e);
    } catch {
      value = undefined;
    }
    if (value === undefined) {
      section.entries.delete(key);
      this.dirty = true;
    }
    return value;
  }

  private drop(section: Section<unknown>, key: string): void {
    if (section.entries.delete(key)) this.dirty = true;
  }

  /** The kept signature of `path`, when the file and its external data are as they were. */
  signature(path: string, identityOf: IdentityOf): ModelSignature | undefined {
    return this.kept(this.entries, path, (e) =>
      same(e.id, identityOf(path)) && e.external.every(([p, id]) => typeof p === 'string' && same(id, identityOf(p)))
        ? asSignature(JSON.parse(e.json))
        : undefined,
    );
  }

  setSignature(path: string, signature: ModelSignature, identityOf: IdentityOf, nowMs = this.now()): void {
    const id = identityOf(path);
    if (!trusted(id, nowMs)) return this.drop(this.entries, path);
    const external: [string, FileIdentity][] = [];
    for (const f of signature.externalDataFiles) {
      const p = resolve(dirname(path), f);
      const fid = identityOf(p);
      // External data that is not there: not kept, so the finding about it comes back.
      if (!trusted(fid, nowMs)) return this.drop(this.entries, path);
      external.push([p, fid]);
    }
    this.entries.entries.set(path, { id, external, json: JSON.stringify(signature) });
    this.dirty = true;
  }

  /** The kept value of a config file, when the file is as it was. */
  config(path: string, identityOf: IdentityOf): ModelConfig | undefined {
    return this.kept(this.configs, path, (e) => (same(e.id, identityOf(path)) ? asConfigValue(decode<unknown>(e)) : undefined));
  }

  setConfig(path: string, value: ModelConfig, identityOf: IdentityOf, nowMs = this.now()): void {
    const id = identityOf(path);
    if (!trusted(id, nowMs)) return this.drop(this.configs, path);
    this.configs.entries.set(path, { id, ...encode(value) });
    this.dirty = true;
  }

  /** The kept summary of a model directory, when every path it was made from is as it was. */
  summary(dir: string, identityOf: IdentityOf): ModelSummary | undefined {
    return this.kept(this.summaries, dir, (e) => {
      if (e.deps.length % 2) return undefined;
      for (let i = 0; i < e.deps.length; i += 2) {
        if (typeof e.deps[i] !== 'string' || !same(e.deps[i + 1]!, identityOf(fullPath(dir, e.deps[i]!)))) return undefined;
      }
      const value = e.value ?? (typeof e.json === 'string' ? decode<unknown>({ json: e.json, special: true }) : undefined);
      return asSummary(value);
    });
  }

  /** Keeps a summary made from `paths`, unless one of them cannot be identified or changed too recently to trust. */
  setSummary(dir: string, value: ModelSummary, paths: readonly string[], identityOf: IdentityOf, nowMs = this.now()): void {
    const deps: (string | null)[] = [];
    for (const p of paths) {
      const id = identityOf(p);
      if (id === undefined || (id !== null && !trusted(id, nowMs))) return this.drop(this.summaries, dir);
      deps.push(keptPath(dir, p), id);
    }
    const encoded = encode(value);
    this.summaries.entries.set(dir, encoded.special ? { deps, json: encoded.json } : { deps, value });
    this.dirty = true;
  }

  get size(): number {
    return this.summaries.size + this.entries.size + this.configs.size;
  }

  /** Writes the cache (atomically) when something changed; a failure to write is returned, not thrown. */
  save(): string | undefined {
    if (!this.dirty) return undefined;
    try {
      const header = JSON.stringify({ format: FORMAT, tritonc: this.version });
      writeOwnFile(this.file, WHAT, `${[header, this.summaries.toJSON(), this.entries.toJSON(), this.configs.toJSON()].join('\n')}\n`);
      this.dirty = false;
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }
}

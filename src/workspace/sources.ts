// The workspace's one door to the disk: directory entries, path kinds, file texts and sizes, model
// signatures. Within a run each is read at most once (a run sees the tree as it was when it asked);
// across runs, signatures are kept while their file's identity (device, inode, size, mtime) is
// unchanged. Unsaved text (an editor's buffer) and stand-in signatures (a lock file for absent
// weights) are laid over the disk: an overlay file exists, with its directories, whatever the disk
// holds.
import { dirname, resolve, sep } from 'node:path';
import type { ModelReadError } from '../model-file/errors.js';
import { loadSignature, readBy } from '../model-readers/readers.js';
import type { ModelSignature } from '../model-file/signature.js';
import { diskTree, type Tree, type TreeEntry } from '../repo/tree.js';
import { type FileIdentity, type PathStat, statPath } from '../util/file-identity.js';
import { Memos } from '../util/memo.js';
import type { DiskCache } from './disk-cache.js';
import type { PathKind } from '../util/path-kind.js';
import { readText, type TextRead } from '../util/read-text.js';
import { UnreadablePathError } from '../util/unreadable-path.js';

export interface SignatureResult {
  signature?: ModelSignature;
  error?: ModelReadError;
}

/**
 * Where the workspace reads: the tree, file texts, sizes and model signatures. The disk by default;
 * a repository in object storage (remote/mounted.ts) answers the same questions from what it fetched.
 */
export interface FileSource extends Tree {
  text(path: string): TextRead;
  /** Kind, size (a regular file's) and identity of what is at a path, from one look; undefined for nothing. */
  stat(path: string): PathStat | undefined;
  /** The signature of the model file at `path`, read by the reader of `format` (a backend record's). */
  signature(path: string, format: string): SignatureResult;
}

export const diskFiles: FileSource = { ...diskTree, text: readText, stat: statPath, signature: loadSignature };

const NOT_LISTED = Symbol('not listed');

/** A stood-in model is a directory where its format's model is one (a SavedModel). */
type Overlay = { kind: 'text'; text: string } | { kind: 'model'; signature?: ModelSignature; size?: number; dir?: boolean };

export class Sources implements Tree {
  private readonly overlays = new Map<string, Overlay>();
  /** Directories that hold an overlay (every ancestor of one), with the overlay names directly in them. */
  private readonly overlayDirs = new Map<string, Map<string, TreeEntry>>();
  private readonly memos = new Memos();
  private readonly listed = this.memos.run<string, readonly TreeEntry[] | UnreadablePathError>();
  /** A listing's entries by name, for as long as the listing is kept. */
  private readonly listedNames = new WeakMap<readonly TreeEntry[], Map<string, TreeEntry>>();
  private readonly kinds = this.memos.run<string, PathKind | undefined>();
  private readonly stats = this.memos.run<string, PathStat | undefined>();
  private readonly texts = this.memos.run<string, TextRead>();
  private readonly reals = this.memos.run<string, string>();
  private readonly signaturesThisRun = this.memos.run<string, SignatureResult>();
  private readonly signatures = this.memos.process<SignatureResult>();
  /** The paths asked about while recording (recorded()), innermost last. */
  private readonly recordings: Set<string>[] = [];
  /**
   * What a fact kept across processes records of a path it was made from: its identity (a
   * directory's changes when an entry is added, removed or renamed), null when nothing is there, and
   * undefined when that cannot be told (an overlay, an object store): nothing made from it may be
   * kept. A function property, handed as it is to the disk cache.
   */
  readonly identityOf = (path: string): FileIdentity | null | undefined => {
    if (this.overlays.has(path) || this.overlayDirs.has(path)) return undefined;
    const st = this.stat(path);
    return st === undefined ? null : st.id;
  };

  constructor(
    private readonly disk: FileSource = diskFiles,
    /** Keep signatures across runs, checked by file identity. */
    private readonly acrossRuns = false,
    /** Signatures kept on disk between processes (lint --cache). */
    private readonly persistent?: DiskCache,
  ) {}

  /** Starts a new run: what the disk holds is asked again (cached file contents stay while unchanged). */
  newRun(): void {
    this.memos.newRun();
  }

  // ---- overlays ----

  /** Lays `text` over the file at `path` (absolute), until cleared. */
  setText(path: string, text: string): void {
    this.setOverlay(path, { kind: 'text', text });
  }

  /** Stands `signature` in for the model file at `path`, which need not exist. */
  setSignature(path: string, signature: ModelSignature): void {
    this.setOverlay(path, { kind: 'model', signature });
  }

  /**
   * Stands a model file in at `path` (the lock's record of absent weights): it exists, with this
   * size and, for ONNX, this signature. Many at once, with the directories rebuilt once.
   */
  setModelStandIns(standIns: ReadonlyMap<string, { signature?: ModelSignature; size: number; dir?: boolean }>): void {
    for (const [path, s] of standIns)
      this.overlays.set(path, { kind: 'model', ...(s.signature ? { signature: s.signature } : {}), size: s.size, ...(s.dir ? { dir: true } : {}) });
    this.rebuildOverlayDirs();
    this.newRun();
  }

  /** Removes the stand-ins laid by setModelStandIns (unsaved texts stay). */
  clearModelStandIns(paths: Iterable<string>): void {
    let changed = false;
    for (const p of paths) if (this.overlays.get(p)?.kind === 'model') changed = this.overlays.delete(p) || changed;
    if (!changed) return;
    this.rebuildOverlayDirs();
    this.newRun();
  }

  clearOverlay(path: string): void {
    if (!this.overlays.delete(path)) return;
    this.rebuildOverlayDirs();
    this.newRun();
  }

  hasOverlay(path: string): boolean {
    return this.overlays.has(path);
  }

  private setOverlay(path: string, overlay: Overlay): void {
    this.overlays.set(path, overlay);
    this.rebuildOverlayDirs();
    this.newRun();
  }

  private rebuildOverlayDirs(): void {
    this.overlayDirs.clear();
    for (const [path, overlay] of this.overlays) {
      let child = path;
      let kind: TreeEntry['kind'] = overlay.kind === 'model' && overlay.dir ? 'dir' : 'file';
      for (let dir = dirname(child); dir !== child; child = dir, dir = dirname(dir), kind = 'dir') {
        let names = this.overlayDirs.get(dir);
        if (!names) this.overlayDirs.set(dir, (names = new Map<string, TreeEntry>()));
        const name = child.slice(dir.length).replace(/^[/\\]/, '');
        if (!names.has(name) || kind === 'dir') names.set(name, { name, kind });
      }
    }
  }

  // ---- what a computation read ----

  /**
   * Runs `compute`, and returns with its value every path it asked this source about (listed, looked
   * at, read): a fact made from them stays true while each is as it was (identityOf).
   */
  recorded<T>(compute: () => T): { value: T; paths: string[] } {
    const paths = new Set<string>();
    this.recordings.push(paths);
    try {
      return { value: compute(), paths: [...paths] };
    } finally {
      this.recordings.pop();
    }
  }

  /** Notes a path asked about (by a layer above that answered from what it kept). */
  note(path: string): void {
    if (!this.recordings.length) return;
    for (const r of this.recordings) r.add(path);
  }

  // ---- the tree ----

  entries(dir: string): readonly TreeEntry[] {
    this.note(dir);
    const known = this.listed.get(dir, (d) => this.list(d));
    if (known instanceof UnreadablePathError) throw known;
    return known;
  }

  private list(dir: string): readonly TreeEntry[] | UnreadablePathError {
    let onDisk: readonly TreeEntry[];
    try {
      onDisk = this.disk.entries(dir);
    } catch (e) {
      if (!(e instanceof UnreadablePathError)) throw e;
      // A directory that holds overlays lists them even where the disk cannot be read.
      if (!this.overlayDirs.has(dir)) return e;
      onDisk = [];
    }
    return this.merged(dir, onDisk);
  }

  private merged(dir: string, onDisk: readonly TreeEntry[]): readonly TreeEntry[] {
    const over = this.overlayDirs.get(dir);
    if (!over) return onDisk;
    const byName = new Map(onDisk.map((e) => [e.name, e]));
    for (const [name, e] of over) byName.set(name, e);
    return [...byName.values()];
  }

  kind(path: string): PathKind | undefined {
    this.note(path);
    if (this.overlays.size) {
      const over = this.overlays.get(path);
      if (over) return over.kind === 'model' && over.dir ? 'dir' : 'file';
      if (this.overlayDirs.has(path)) return 'dir';
    }
    return this.kinds.get(path, (p) => {
      const listed = this.listedKind(p);
      return listed === NOT_LISTED ? this.stat(p)?.kind : listed;
    });
  }

  /**
   * What the listing of the path's directory, when this run made one, says is there: nothing when the
   * name is not in it, else the entry's kind where the lister could tell it (not a link's).
   */
  private listedKind(path: string): PathKind | undefined | typeof NOT_LISTED {
    const dir = dirname(path);
    const listing = this.listed.peek(dir);
    if (listing === undefined || listing instanceof UnreadablePathError || dir === path) return NOT_LISTED;
    let byName = this.listedNames.get(listing);
    if (!byName) this.listedNames.set(listing, (byName = new Map(listing.map((e) => [e.name, e]))));
    const entry = byName.get(path.slice(dir.length + (dir.endsWith(sep) ? 0 : 1)));
    if (!entry) return undefined;
    return entry.pathKind ?? NOT_LISTED;
  }

  realpath(dir: string): string {
    if (this.overlayDirs.has(dir)) return dir;
    return this.reals.get(dir, (d) => this.disk.realpath(d));
  }

  // ---- files ----

  /** The text of a file: the overlay's, else the disk's (read once per run). */
  text(path: string): TextRead {
    this.note(path);
    const over = this.overlays.get(path);
    if (over?.kind === 'text') return { kind: 'text', text: over.text };
    if (over) return { kind: 'unreadable', reason: 'a model file stood in by its signature has no text' };
    return this.texts.get(path, (p) => this.disk.text(p));
  }

  /** The size of a regular file; undefined when there is none. */
  size(path: string): number | undefined {
    this.note(path);
    const over = this.overlays.get(path);
    if (over?.kind === 'text') return Buffer.byteLength(over.text);
    if (over) return over.size;
    return this.stat(path)?.size;
  }

  /**
   * The identity of the file at `path` as this run found it (for caches kept across runs and on
   * disk); undefined for an overlay, for nothing, and where the source cannot tell.
   */
  identity(path: string): FileIdentity | undefined {
    return this.identityOf(path) ?? undefined;
  }

  /** One look per run at a path: its kind, size and identity all come from it. */
  private stat(path: string): PathStat | undefined {
    return this.stats.get(path, (p) => this.disk.stat(p));
  }

  /**
   * A model file's signature as the reader of `format` reads it; a bad file is a result with the
   * error, never an exception.
   */
  signature(path: string, format: string): SignatureResult {
    this.note(path);
    const over = this.overlays.get(path);
    // A stand-in of another format is not this file's signature (a config may have changed backend).
    if (over?.kind === 'model') return over.signature && readBy(format, over.signature) ? { signature: over.signature } : {};
    const key = `${format}\0${path}`;
    // A model that is a directory (a SavedModel) keeps its identity while a file in it is rewritten in
    // place: it is read again each run (lint --cache still keeps it, checked by each file it read).
    const acrossRuns = this.acrossRuns && this.kind(path) !== 'dir';
    const s = this.signaturesThisRun.get(key, () =>
      acrossRuns ? this.signatures.get(key, this.identity(path), () => this.readSignature(path, format)) : this.readSignature(path, format),
    );
    if (this.recordings.length) {
      // A read depends on the model file and its external data; one that failed, on its directory
      // too (the external data it missed may appear there).
      if (s.signature) for (const f of s.signature.externalDataFiles) this.note(resolve(dirname(path), f));
      else this.note(dirname(path));
    }
    return s;
  }

  private readSignature(path: string, format: string): SignatureResult {
    // A kept signature is used only if this format's reader could have made it.
    const kept = this.persistent?.signature(path, this.identityOf);
    if (kept && readBy(format, kept)) return { signature: kept };
    const read = this.disk.signature(path, format);
    if (read.signature) this.persistent?.setSignature(path, read.signature, this.identityOf);
    return read;
  }

  /** Keeps, of what earlier runs read, only the paths `keep` accepts. */
  forget(keep: (path: string) => boolean): void {
    // Kept signatures are keyed by format and path.
    this.signatures.prune((key) => keep(key.slice(key.indexOf('\0') + 1)));
  }

  get cachedSignatures(): number {
    return this.signatures.size;
  }
}

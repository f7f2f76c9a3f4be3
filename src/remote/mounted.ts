// A repository in object storage, seen by the workspace as a directory tree at a stand-in path
// (`root`): one listing gives every directory and every size; texts and model signatures are what
// was fetched. The workspace is synchronous, so what a run asks for and this does not hold yet is
// noted (`pending`), the caller fetches it (`fetchPending`, concurrent, ranged reads for models) and
// runs again (RemoteRepositories.complete). Configs and the lock are fetched with the listing, so most
// repositories take two passes: configs, then the models they name.
import { ModelReadError } from '../model-file/errors.js';
import { readerOf } from '../model-readers/readers.js';
import { readSignatureFrom } from '../onnx/reader.js';
import { readTorchSignatureFrom } from '../pytorch/reader.js';
import type { TreeEntry } from '../repo/tree.js';
import type { PathStat } from '../util/file-identity.js';
import type { PathKind } from '../util/path-kind.js';
import type { TextRead } from '../util/read-text.js';
import type { FileSource, SignatureResult } from '../workspace/sources.js';
import { credentialFor, type Credential, type CredentialEnv } from './credentials.js';
import { Requests, type RequestOptions } from './requests.js';
import { StoreError, type ObjectStore } from './store.js';
import { objectUrl, type RemoteLocation } from './url.js';

/** Texts above this are not fetched: configs, locks and Python models are far smaller. */
export const MAX_REMOTE_TEXT_BYTES = 16 * 1024 * 1024;
/** The window of the ONNX walk, which is its read-ahead: one ranged GET per refill. */
export const REMOTE_WINDOW_BYTES = 64 * 1024;
/** What a read after a jump asks for: a tensor's header with room to spare. */
export const JUMP_READ_BYTES = 8 * 1024;

/** Fetched with the listing: each model's configs and the repository's lock (also for a model directory given alone). */
const FETCH_WITH_LISTING = /^(?:[^/]+\/)?(?:config\.pbtxt|configs\/[^/]+\.pbtxt|tritonc\.lock\.json)$/;

/** Where Triton (and so tritonc) takes a credential from, by scheme (docs/remote.md). */
const CREDENTIAL_HINT: Record<RemoteLocation['scheme'], string> = {
  s3: 'Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or TRITON_CLOUD_CREDENTIAL_PATH',
  gs: 'Set GOOGLE_APPLICATION_CREDENTIALS to a credential file, or TRITON_CLOUD_CREDENTIAL_PATH',
  as: 'Set AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY, or TRITON_CLOUD_CREDENTIAL_PATH',
};

/** A failure of the store that stops the run: exit 2, with the URL and the reason. */
export class RemoteAccessError extends Error {}

export interface MountOptions extends CredentialEnv {
  requests?: RequestOptions;
  /** The store to read (tests); default: the scheme's client, built from the credential. */
  store?: (loc: RemoteLocation, credential: Credential) => Promise<ObjectStore>;
  /** Objects fetched so far, of those asked for (a progress line). */
  onProgress?: (done: number, total: number) => void;
}

export class MountedRepository implements FileSource {
  private readonly requests: Requests;
  /** Sizes of the objects, by path relative to the root. */
  private readonly sizes = new Map<string, number>();
  /** Entries of each directory (relative path, '' for the root). */
  private readonly dirs = new Map<string, Map<string, TreeEntry>>();
  private readonly texts = new Map<string, TextRead>();
  private readonly signatures = new Map<string, SignatureResult>();
  private readonly wantedTexts = new Set<string>();
  private readonly wantedSignatures = new Set<string>();
  /** The format each wanted signature is read as (ONNX unless said). */
  private readonly formats = new Map<string, string>();
  private readonly onProgress: MountOptions['onProgress'];

  private constructor(
    readonly loc: RemoteLocation,
    /** The stand-in path the workspace reads it at. */
    readonly root: string,
    readonly credential: Credential,
    private readonly store: ObjectStore,
    options: MountOptions,
  ) {
    this.requests = new Requests(options.requests);
    this.onProgress = options.onProgress;
  }

  /** Lists the repository and fetches its configs. Throws RemoteAccessError. */
  static async open(loc: RemoteLocation, given: string, root: string, options: MountOptions): Promise<MountedRepository> {
    const credential = credentialFor(loc, given, options);
    const store = await (options.store ?? defaultStore)(loc, credential, options.env);
    const m = new MountedRepository(loc, root, credential, store, options);
    await m.list();
    for (const rel of m.sizes.keys()) if (FETCH_WITH_LISTING.test(rel)) m.wantedTexts.add(rel);
    await m.fetchPending();
    return m;
  }

  private keyOf(rel: string): string {
    return this.loc.prefix ? (rel ? `${this.loc.prefix}/${rel}` : this.loc.prefix) : rel;
  }

  /** The path relative to the root, or undefined outside it. */
  private relOf(path: string): string | undefined {
    if (path === this.root) return '';
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : undefined;
  }

  /** The object URL of a path under the root (what findings name). */
  urlOf(path: string): string {
    return objectUrl(this.loc, this.relOf(path) ?? '');
  }

  owns(path: string): boolean {
    return this.relOf(path) !== undefined;
  }

  private async list(): Promise<void> {
    const prefix = this.loc.prefix ? `${this.loc.prefix}/` : '';
    const objects = await this.call('list the repository', this.loc.url, (signal) => this.store.list(prefix, signal));
    this.dirs.set('', new Map());
    for (const o of objects) {
      const rel = o.key.slice(prefix.length);
      // A key ending in '/' marks a directory (consoles make them); empty segments name nothing.
      const parts = rel.split('/');
      const isMarker = parts[parts.length - 1] === '';
      if (isMarker) parts.pop();
      if (!parts.length || parts.some((p) => p === '')) continue;
      if (!isMarker) this.sizes.set(parts.join('/'), o.size);
      for (let i = 0; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        let entries = this.dirs.get(dir);
        if (!entries) this.dirs.set(dir, (entries = new Map<string, TreeEntry>()));
        const kind = i < parts.length - 1 || isMarker ? 'dir' : 'file';
        // A name that is both a file and a prefix of other keys is a directory to Triton (IsDirectory lists first).
        if (entries.get(parts[i]!)?.kind !== 'dir') entries.set(parts[i]!, { name: parts[i]!, kind });
      }
    }
    if (!objects.length) {
      throw new RemoteAccessError(`${this.loc.url}: no objects under it, so no repository; ${this.loc.reading}`);
    }
  }

  // ---- FileSource ----

  entries(dir: string): readonly TreeEntry[] {
    const rel = this.relOf(dir);
    return rel === undefined ? [] : [...(this.dirs.get(rel)?.values() ?? [])];
  }

  kind(path: string): PathKind | undefined {
    const rel = this.relOf(path);
    if (rel === undefined) return undefined;
    if (this.dirs.has(rel)) return 'dir';
    return this.sizes.has(rel) ? 'file' : undefined;
  }

  realpath(dir: string): string {
    return dir;
  }

  /** From the listing: a store tells no identity (objects here are not cached across runs). */
  stat(path: string): PathStat | undefined {
    const kind = this.kind(path);
    return kind === undefined ? undefined : { kind, size: this.size(path) };
  }

  size(path: string): number | undefined {
    const rel = this.relOf(path);
    return rel === undefined || this.dirs.has(rel) ? undefined : this.sizes.get(rel);
  }

  text(path: string): TextRead {
    const rel = this.relOf(path);
    if (rel === undefined || !this.sizes.has(rel) || this.dirs.has(rel))
      return this.kind(path) === 'dir' ? { kind: 'unreadable', reason: 'is a directory' } : { kind: 'missing' };
    const t = this.texts.get(rel);
    if (t) return t;
    this.wantedTexts.add(rel);
    return { kind: 'unreadable', reason: 'not fetched yet' };
  }

  signature(path: string, format: string): SignatureResult {
    // The models whose reader reads by ranges of the object (ONNX, PyTorch); others go unread here.
    const reader = readerOf(format);
    if (!reader?.ranges) return {};
    const rel = this.relOf(path);
    if (rel === undefined || this.kind(path) !== 'file')
      return {
        error: new ModelReadError(
          'io',
          path,
          null,
          this.kind(path) === 'dir' ? { messageId: 'isDirectory', data: { format: reader.title } } : { messageId: 'noSuchFile', data: {} },
        ),
      };
    const s = this.signatures.get(rel);
    if (s) return s;
    this.wantedSignatures.add(rel);
    this.formats.set(rel, format);
    return { error: new ModelReadError('io', path, null, { messageId: 'remoteNotFetched', data: {} }) };
  }

  // ---- fetching ----

  /** How many texts and signatures the last run asked for that are not here yet. */
  get pending(): number {
    return this.wantedTexts.size + this.wantedSignatures.size;
  }

  /** Fetches what runs asked for: whole texts, model headers by ranged reads. Throws RemoteAccessError. */
  async fetchPending(): Promise<void> {
    const texts = [...this.wantedTexts];
    const models = [...this.wantedSignatures];
    this.wantedTexts.clear();
    this.wantedSignatures.clear();
    const total = texts.length + models.length;
    let done = 0;
    const step = (): void => this.onProgress?.(++done, total);
    await Promise.all([
      ...texts.map(async (rel) => {
        this.texts.set(rel, await this.fetchText(rel));
        step();
      }),
      ...models.map(async (rel) => {
        this.signatures.set(rel, await this.fetchSignature(rel));
        step();
      }),
    ]);
  }

  private async fetchText(rel: string): Promise<TextRead> {
    const size = this.sizes.get(rel) ?? 0;
    if (size > MAX_REMOTE_TEXT_BYTES)
      return { kind: 'unreadable', reason: `${size} bytes: tritonc reads text objects of up to ${MAX_REMOTE_TEXT_BYTES / 1024 / 1024} MiB` };
    const url = objectUrl(this.loc, rel);
    // Never more than the listing said: a store that sends more is stopped there (exit 2, naming the URL).
    const bytes = await this.callOrMissing(
      'read',
      url,
      (signal) => this.store.get(this.keyOf(rel), size, signal),
      (b) => b.byteLength,
    );
    if (bytes === undefined) return { kind: 'missing' };
    return { kind: 'text', text: new TextDecoder().decode(bytes) };
  }

  private async fetchSignature(rel: string): Promise<SignatureResult> {
    const path = `${this.root}/${rel}`;
    const url = objectUrl(this.loc, rel);
    const key = this.keyOf(rel);
    if (readerOf(this.formats.get(rel) ?? '')?.ranges === 'records') {
      // The archive's end record, central directory and signature records, each by a ranged read.
      try {
        const signature = await readTorchSignatureFrom(path, this.sizes.get(rel) ?? 0, async (position, length) => {
          const got = await this.callOrMissing(
            'read',
            url,
            (signal) => this.store.read(key, position, length, signal),
            (b) => b.byteLength,
          );
          if (got === undefined) throw new ModelReadError('io', path, position, { messageId: 'remoteObjectGone', data: {} });
          return got.subarray(0, length);
        });
        return { signature };
      } catch (e) {
        if (e instanceof ModelReadError) return { error: e };
        throw e;
      }
    }
    // Reading on from where the last read ended fills the window; after a jump past weights only a
    // tensor's header is likely needed before the next jump, so a shorter range is asked for.
    let lastEnd = 0;
    try {
      const signature = await readSignatureFrom(
        path,
        {
          size: this.sizes.get(rel) ?? 0,
          read: async (buffer, offset, length, position, need) => {
            const ask = position === lastEnd ? length : Math.min(length, Math.max(need, JUMP_READ_BYTES));
            lastEnd = position + ask;
            const got = await this.callOrMissing(
              'read',
              url,
              (signal) => this.store.read(key, position, ask, signal),
              (b) => b.byteLength,
            );
            if (got === undefined) throw new ModelReadError('io', path, position, { messageId: 'remoteObjectGone', data: {} });
            buffer.set(got.subarray(0, ask), offset);
            return Math.min(got.byteLength, ask);
          },
          // External data beside the model: its size is in the listing (no request). Outside the
          // listed directory there is none, as for Triton, which copies only the model's directory.
          sizeOf: async (p) => {
            const r = this.relOf(p);
            return r === undefined || this.dirs.has(r) ? null : (this.sizes.get(r) ?? null);
          },
        },
        { windowBytes: REMOTE_WINDOW_BYTES },
      );
      return { signature };
    } catch (e) {
      if (e instanceof ModelReadError) return { error: e };
      throw e;
    }
  }

  /** One request through the limiter; a store failure becomes a RemoteAccessError naming `url`, the reason and, for a refusal, the credential used. */
  private async call<T>(what: string, url: string, request: (signal: AbortSignal) => Promise<T>, bytes?: (t: T) => number): Promise<T> {
    const got = await this.callOrMissing(what, url, request, bytes, false);
    return got as T;
  }

  /** call, with "no such key" as undefined. */
  private async callOrMissing<T>(
    what: string,
    url: string,
    request: (signal: AbortSignal) => Promise<T>,
    bytes?: (t: T) => number,
    missingIsUndefined = true,
  ): Promise<T | undefined> {
    try {
      return await this.requests.run(request, bytes);
    } catch (e) {
      if (!(e instanceof StoreError)) throw e;
      if (e.kind === 'no-key' && missingIsUndefined) return undefined;
      throw new RemoteAccessError(`${url}: cannot ${what}: ${this.explain(e)}`);
    }
  }

  private explain(e: StoreError): string {
    const where =
      this.loc.endpoint ?? (this.loc.scheme === 's3' ? 'AWS S3' : this.loc.scheme === 'gs' ? 'Google Cloud Storage' : `the account ${this.loc.account ?? ''}`);
    switch (e.kind) {
      case 'no-bucket':
        return `there is no ${this.loc.scheme === 'as' ? 'container' : 'bucket'} "${this.loc.bucket}" (${e.detail}); ${this.loc.reading}`;
      case 'no-key':
        return `no such object (${e.detail})`;
      case 'denied':
        return `access denied (${e.detail}), with the credential from ${this.credential.source}`;
      case 'no-credentials':
        return `no credential found (${e.detail}); looked at ${this.credential.source}. ${CREDENTIAL_HINT[this.loc.scheme]}`;
      case 'unreachable':
        return `cannot reach ${where} (${e.detail})`;
      case 'throttled':
      case 'server':
      case 'timeout':
        return `${e.kind === 'timeout' ? 'no answer in time' : 'the store kept failing'} after ${this.requests.stats.retries} retries (${e.detail})`;
      default:
        return e.detail;
    }
  }
}

async function defaultStore(loc: RemoteLocation, credential: Credential, env: CredentialEnv['env']): Promise<ObjectStore> {
  switch (credential.scheme) {
    case 's3':
      return (await import('./s3.js')).s3Store(loc, credential.s3, env);
    case 'gs':
      return (await import('./gcs.js')).gcsStore(loc, credential.gs, env);
    case 'as':
      return (await import('./azure.js')).azureStore(loc, credential.as, env);
  }
}

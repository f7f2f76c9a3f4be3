// The repositories of one command, local or in object storage: URLs among the paths are mounted
// (listed, configs fetched) at stand-in paths under `<cwd>/.tritonc-remote/`, so the project's
// tritonc.config.json still applies; everything else reads the disk. A command runs its synchronous
// work through `complete`, which fetches what the run asked for and runs it again until nothing is
// missing, and shows its output through `rename`, which puts the object URLs back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TreeEntry } from '../repo/tree.js';
import type { PathStat } from '../util/file-identity.js';
import { displayPath } from '../util/display-path.js';
import type { PathKind } from '../util/path-kind.js';
import type { TextRead } from '../util/read-text.js';
import { diskFiles, type FileSource, type SignatureResult } from '../workspace/sources.js';
import { MountedRepository, type MountOptions } from './mounted.js';
import { isRemoteUrl, parseRemoteUrl } from './url.js';

/** The directory the stand-in paths live under (never created: nothing reads or writes it on disk). */
export const STAND_IN_DIR = '.tritonc-remote';

/** A config named inside a repository URL: the repository, and the config's path in it. */
const CONFIG_IN_URL = /^(.*)\/([^/]+\/(?:config\.pbtxt|configs\/[^/]+\.pbtxt))$/;

export class RemoteRepositories implements FileSource {
  private readonly mounts: MountedRepository[] = [];
  private readonly byUrl = new Map<string, MountedRepository>();

  constructor(
    private readonly cwd: string,
    private readonly options: Omit<MountOptions, 'readFile'> & Partial<Pick<MountOptions, 'readFile'>>,
    private readonly disk: FileSource = diskFiles,
  ) {}

  /** True when some path given was a URL. */
  get remote(): boolean {
    return this.mounts.length > 0;
  }

  /** The paths with each URL mounted and replaced by its stand-in path; local paths as they are. Throws RemoteUrlError, CredentialError, RemoteAccessError. */
  async paths(given: readonly string[], options: { files?: boolean } = {}): Promise<string[]> {
    const out: string[] = [];
    for (const p of given) {
      if (!isRemoteUrl(p)) {
        out.push(p);
        continue;
      }
      // A file (inspect's model): its directory is listed, for the file and the external data beside it.
      const inRepo = options.files ? /^(.*)\/([^/]+)$/.exec(p) : CONFIG_IN_URL.exec(p.replace(/\/+$/, ''));
      const repoUrl = inRepo ? inRepo[1]! : p;
      const mount = await this.mount(repoUrl);
      out.push(inRepo ? `${mount.root}/${inRepo[2]}` : mount.root);
    }
    return out;
  }

  private async mount(given: string): Promise<MountedRepository> {
    const loc = parseRemoteUrl(given);
    const known = this.byUrl.get(loc.url);
    if (known) return known;
    // Ends with the URL's last segment: a model directory keeps its name, which is the model's.
    const root = join(this.cwd, STAND_IN_DIR, String(this.mounts.length + 1), loc.prefix.split('/').pop() || loc.bucket);
    const m = await MountedRepository.open(loc, given, root, { readFile: (f) => readFileSync(f, 'utf8'), ...this.options });
    this.mounts.push(m);
    this.byUrl.set(loc.url, m);
    return m;
  }

  /**
   * Runs `run` until it has asked for nothing that is not fetched: the last pass's result, which
   * read everything it needed. Local repositories need one pass; each further pass fetches at least
   * one object never fetched before, so the passes end. `run` may run several times, so it must only
   * compute: whatever it writes or prints belongs after.
   */
  async complete<T>(run: (files: FileSource) => T): Promise<T> {
    for (;;) {
      let result: { value: T } | { error: unknown };
      try {
        // With nothing mounted, the disk itself: no routing on every call.
        result = { value: run(this.mounts.length ? this : this.disk) };
      } catch (error) {
        // A pass that failed on what it had not fetched yet is run again once it has it.
        result = { error };
      }
      const pending = this.mounts.filter((m) => m.pending > 0);
      if (!pending.length) {
        if ('error' in result) throw result.error;
        return result.value;
      }
      await Promise.all(pending.map((m) => m.fetchPending()));
    }
  }

  /** `text` with each stand-in path (absolute, or as shown relative to cwd) replaced by its URL. */
  rename(text: string): string {
    let out = text;
    for (const m of this.mounts) {
      // The root as an absolute path first (it holds the relative form), each followed by a path
      // or by a character no path here ends with.
      for (const form of [m.root, displayPath(m.root, this.cwd)]) {
        out = out.replace(new RegExp(`${escape(form)}((?:/${PATH_CHAR}*)?)(?!${PATH_CHAR})`, 'g'), (_, rest: string) => m.urlOf(m.root + rest));
      }
    }
    return out;
  }

  /** A JSON-like value with every string renamed (findings: files, messages, related locations). */
  renameDeep<T>(value: T): T {
    if (!this.remote) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.rename(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
  }

  // ---- FileSource: each path to its repository, else the disk ----

  private of(path: string): FileSource {
    return this.mounts.find((m) => m.owns(path)) ?? this.disk;
  }

  entries(dir: string): readonly TreeEntry[] {
    return this.of(dir).entries(dir);
  }

  kind(path: string): PathKind | undefined {
    return this.of(path).kind(path);
  }

  realpath(dir: string): string {
    return this.of(dir).realpath(dir);
  }

  text(path: string): TextRead {
    return this.of(path).text(path);
  }

  stat(path: string): PathStat | undefined {
    return this.of(path).stat(path);
  }

  signature(path: string, format: string): SignatureResult {
    return this.of(path).signature(path, format);
  }
}

/** A character of a path as messages show it: they end at whitespace, quotes, brackets, ':' (line:column) and ','. */
const PATH_CHAR = `[^\\s"'\`()\\[\\],:;]`;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

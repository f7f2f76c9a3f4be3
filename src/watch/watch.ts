// Watches a repository with chokidar and drives a WatchSession: events are debounced into batches,
// each batch re-lints what it affects and hands a report to `onReport`. A model file that is still
// being written is looked at again shortly, until it reads or stops changing.
import { watch, type FSWatcher } from 'chokidar';
import { fstatSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { identityOf, sameIdentity } from '../util/file-identity.js';
import { Debouncer } from './debounce.js';
import { WatchSession, type RunReport, type WatchEvent, type WatchSessionOptions } from './session.js';

export interface WatchOptions extends WatchSessionOptions {
  onReport: (report: RunReport) => void;
  onError?: (error: Error) => void;
  /** Quiet time before a batch of events is handled (default 40 ms). */
  debounceMs?: number;
  /** How soon to look again at a model file that is still being written (default 250 ms). */
  recheckMs?: number;
}

export interface WatchHandle {
  /** Resolves once the watcher is ready and the first report was made. */
  ready: Promise<void>;
  close(): Promise<void>;
  readonly session: WatchSession;
  /** The directories whose entries are watched (absolute paths): where the watch looks, for a check that it looks only where Triton reads. */
  watchedDirectories(): string[];
}

/** Longer than chokidar's 50 ms throttle of repeated 'change' events on one path. */
const TRAILING_CHECK_MS = 80;

/**
 * Editors' and tools' files that are no change to the repository: vim's swap files (.x.swp, .swo, ...,
 * .swx) and its write test (4913), backups (x~), emacs' locks and autosaves (.#x, #x#), and temp
 * files (*.tmp, tritonc's own .tritonc-*.tmp among them).
 */
const EDITOR_NOISE = /(^\.#|^#.*#$|~$|\.sw[a-px]$|\.swpx$|\.tmp$|^4913$)/;

/**
 * How deep the watch goes below the repository: <model>/<version>/<model file>/<its entries>. Triton
 * reads a model directory, its version directories and the model file in one (a directory for a
 * SavedModel or a TensorRT-LLM engine, read by its backend); a link in a version directory, to / or
 * anywhere, is watched no deeper than that (chokidar follows links, as Triton does).
 */
export const WATCH_DEPTH = 3;

/** The files this process's stdout and stderr are, when they are files: a report written into the repository is no change to it. */
function ownOutput(): Identity[] {
  const out: Identity[] = [];
  for (const fd of [1, 2]) {
    try {
      const st = fstatSync(fd);
      if (st.isFile()) out.push(`${st.dev}:${st.ino}`);
    } catch {
      // a closed descriptor writes nowhere
    }
  }
  return out;
}
type Identity = string;

export function startWatch(options: WatchOptions): WatchHandle {
  const session = new WatchSession(options);
  let recheck: NodeJS.Timeout | undefined;
  // Every path still being written waits for the next look, however many reports named one.
  const waiting = new Set<string>();
  let closed = false;
  const handle = (batch: WatchEvent[]): void => {
    if (closed) return;
    try {
      const seen = new Map(batch.map((e) => [e.path, identityOf(e.path)]));
      const report = session.change(batch);
      options.onReport(report);
      // chokidar drops a second 'change' of a path within 50 ms of the first (a quick second save):
      // look at the files once more after that window and catch up if they changed again.
      setTimeout(() => {
        const again = [...seen].filter(([p, id]) => !sameIdentity(id, identityOf(p)) && (id !== undefined || identityOf(p) !== undefined));
        if (again.length && !closed) debouncer.push(again.map(([path]) => ({ event: 'change' as const, path })));
      }, TRAILING_CHECK_MS).unref();
      if (report.waiting.length) {
        for (const p of report.waiting) waiting.add(resolve(options.cwd, p));
        if (recheck) clearTimeout(recheck);
        recheck = setTimeout(() => {
          const again = [...waiting].map((path) => ({ event: 'change' as const, path }));
          waiting.clear();
          debouncer.push(again);
        }, options.recheckMs ?? 250);
      }
    } catch (e) {
      options.onError?.(e as Error);
    }
  };
  const debouncer = new Debouncer<WatchEvent>(options.debounceMs ?? 40, handle);
  const own = ownOutput();
  const isOwnOutput = (path: string): boolean => {
    if (!own.length) return false;
    try {
      const st = statSync(path);
      return own.includes(`${st.dev}:${st.ino}`);
    } catch {
      return false;
    }
  };
  const watcher: FSWatcher = watch(options.repo, {
    ignoreInitial: true,
    // Editors' swap and backup files, and tritonc's own temp files, are not changes to the repository.
    ignored: (path: string) => /(^|\/)(node_modules|\.git)(\/|$)/.test(path) || EDITOR_NOISE.test(basename(path)),
    atomic: true,
    depth: WATCH_DEPTH,
  });
  for (const event of ['add', 'change'] as const) {
    // What this process writes (`tritonc watch > repo/log`) is not reported as a change (it would report itself forever).
    watcher.on(event, (path: string) => {
      if (!isOwnOutput(path)) debouncer.push([{ event, path }]);
    });
  }
  for (const event of ['unlink', 'addDir', 'unlinkDir'] as const) {
    watcher.on(event, (path: string) => debouncer.push([{ event, path }]));
  }
  watcher.on('error', (e) => options.onError?.(e as Error));
  const ready = new Promise<void>((resolve) => {
    watcher.on('ready', () => {
      try {
        options.onReport(session.initial());
      } catch (e) {
        options.onError?.(e as Error);
      }
      resolve();
    });
  });
  return {
    ready,
    session,
    // chokidar keeps an empty list for a directory it saw but does not look into (past `depth`).
    watchedDirectories: () =>
      Object.entries(watcher.getWatched())
        .filter(([, names]) => names.length > 0)
        .map(([d]) => resolve(options.repo, d))
        .sort(),
    close: async () => {
      closed = true;
      debouncer.cancel();
      if (recheck) clearTimeout(recheck);
      await watcher.close();
    },
  };
}

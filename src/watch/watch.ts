// Watches a repository with chokidar and drives a WatchSession: events are debounced into batches,
// each batch re-lints what it affects and hands a report to `onReport`. A model file that is still
// being written is looked at again shortly, until it reads or stops changing.
import { watch, type FSWatcher } from 'chokidar';
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
}

/** Longer than chokidar's 50 ms throttle of repeated 'change' events on one path. */
const TRAILING_CHECK_MS = 80;

const EDITOR_NOISE = /(^\.#|~$|\.sw[a-p]$|^\..*\.tmp$|^4913$)/;

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
  const watcher: FSWatcher = watch(options.repo, {
    ignoreInitial: true,
    // Editors' swap and backup files, and tritonc's own temp files, are not changes to the repository.
    ignored: (path: string) => /(^|\/)(node_modules|\.git)(\/|$)/.test(path) || EDITOR_NOISE.test(basename(path)),
    atomic: true,
  });
  for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
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
    close: async () => {
      closed = true;
      debouncer.cancel();
      if (recheck) clearTimeout(recheck);
      await watcher.close();
    },
  };
}

// Progress of a long run on a terminal: one line on stderr, rewritten in place at most every 100 ms,
// and erased when the run ends. Nothing when stderr is not a terminal (CI logs, pipes) or with --quiet.
import type { CliIO } from './io.js';

/** Runs shorter than this many items finish before a line would help. */
const MIN_ITEMS = 50;
const EVERY_MS = 100;

export interface Progress {
  update(done: number, total: number): void;
  /** Erases the line (call before printing the report). */
  end(): void;
}

export function terminalProgress(io: CliIO, what: string, options: { quiet?: boolean; now?: () => number; minItems?: number } = {}): Progress | undefined {
  if (!io.stderrIsTTY || options.quiet) return undefined;
  const now = options.now ?? (() => performance.now());
  let shownAt = -Infinity;
  let shown = false;
  return {
    update(done, total) {
      if (total < (options.minItems ?? MIN_ITEMS)) return;
      const t = now();
      if (done < total && t - shownAt < EVERY_MS) return;
      shownAt = t;
      shown = true;
      io.stderr(`\r\x1b[K${what} ${done}/${total}`);
    },
    end() {
      if (shown) io.stderr('\r\x1b[K');
    },
  };
}

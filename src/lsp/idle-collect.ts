// A minor collection when the server goes idle after a lint. A lint of a 200 KB config leaves about
// 1.4 MB of garbage in the young generation; every tenth keystroke or so the generation fills in the
// middle of a lint, and that lint pays a scavenge of everything then alive (2.5-6.5 ms measured, on
// a lint of 3-5 ms): the slow tail of keystroke-to-diagnostics. Collected while the server waits for
// the next edit (1-3 ms: what the last lint left alive), the next lint starts with the generation
// empty and rarely meets a scavenge. Node 20 gives a program no call to ask for a collection: V8's `gc` is exposed by its flag
// and taken from a new context, as jest's leak detector does; the program's own globals are unchanged.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' }) => void;

/** V8's collector once asked for; null where it could not be had (asked once, not at every lint). */
let collect: Collect | null | undefined;
let scheduled = false;

function collector(): Collect | null {
  if (collect !== undefined) return collect;
  collect = null;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    if (typeof gc === 'function') collect = gc as Collect;
  } catch {
    // No collector to ask: V8 collects when it decides, as before.
  }
  return collect;
}

/**
 * Asks for a minor collection once the event loop has read what came meanwhile, unless `busy()` says
 * work is waiting then (an edit storm's next lint goes first; the collection comes after the last).
 */
export function collectWhenIdle(busy: () => boolean): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    if (!busy()) collector()?.({ type: 'minor' });
  });
}

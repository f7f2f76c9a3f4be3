// The language server's collection between lints (src/lsp/idle-collect.ts): one minor collection
// when idle, none while work waits, and the program's globals left as they were.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectWhenIdle } from '../../src/lsp/idle-collect.js';

/** The kinds of the collections V8 reports while `run` runs (perf_hooks' gc entries). */
async function collectionsDuring(run: () => Promise<void>): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) kinds.push((e as unknown as { detail: { kind: number } }).detail.kind);
  });
  observer.observe({ entryTypes: ['gc'] });
  await run();
  // The observer's entries are delivered on a later turn.
  await new Promise((done) => setTimeout(done, 50));
  observer.disconnect();
  return kinds;
}

describe('collectWhenIdle', () => {
  it('makes one minor collection once the event loop turns, and leaves globalThis.gc as it was', async () => {
    const before = typeof (globalThis as { gc?: unknown }).gc;
    const kinds = await collectionsDuring(async () => {
      collectWhenIdle(() => false);
      // A second ask before the first ran is the same collection.
      collectWhenIdle(() => false);
      await turn();
      await turn();
    });
    expect(kinds.filter((k) => k === constants.NODE_PERFORMANCE_GC_MINOR)).toHaveLength(1);
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
  });

  it('collects nothing when work is waiting', async () => {
    let asked = 0;
    const kinds = await collectionsDuring(async () => {
      collectWhenIdle(() => (asked++, true));
      await turn();
      await turn();
    });
    expect(asked).toBe(1);
    expect(kinds.filter((k) => k === constants.NODE_PERFORMANCE_GC_MINOR)).toHaveLength(0);
  });
});

// Remembered values, each with its lifetime said where it is made:
// - per run: until the owner starts a run (the disk is asked again then); `Memos.run()`;
// - per keystroke: while the text it was made from is the same (an editor's unsaved buffer); `Memos.keystroke()`;
// - per process: across runs while the file it was made from keeps its identity; `Memos.process()`
//   (file-identity.ts IdentityCache).
// The owner's newRun() ends every per-run memo at once, so none can be forgotten.
import { IdentityCache } from './file-identity.js';

/** A value per key, computed on first use. */
export class Memo<K, V> {
  private entries = new Map<K, V>();

  get(key: K, compute: (key: K) => V): V {
    if (this.entries.has(key)) return this.entries.get(key) as V;
    const value = compute(key);
    this.entries.set(key, value);
    return value;
  }

  /** The value remembered for `key`, without computing one. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries = new Map();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A value per path, kept while the text it was made from is unchanged. */
export class TextMemo<V> {
  private readonly entries = new Map<string, { text: string; value: V }>();

  get(path: string, text: string, compute: () => V): V {
    const hit = this.entries.get(path);
    if (hit && hit.text === text) return hit.value;
    const value = compute();
    this.entries.set(path, { text, value });
    return value;
  }

  delete(path: string): void {
    this.entries.delete(path);
  }
}

/** The memos of one owner (a workspace, its sources), by lifetime. */
export class Memos {
  private readonly perRun: Memo<unknown, unknown>[] = [];

  /** Remembered until newRun(). */
  run<K, V>(): Memo<K, V> {
    const m = new Memo<K, V>();
    this.perRun.push(m);
    return m;
  }

  /** Remembered while the text is the same. */
  keystroke<V>(): TextMemo<V> {
    return new TextMemo<V>();
  }

  /** Remembered across runs while the file's identity is unchanged. */
  process<V>(): IdentityCache<V> {
    return new IdentityCache<V>();
  }

  /** Ends every per-run memo. */
  newRun(): void {
    for (const m of this.perRun) m.clear();
  }
}

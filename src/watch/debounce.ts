// Collects events that arrive close together into one batch: an editor's save is often several
// events (write a temp file, rename it over, touch), and they should cause one re-lint.
import { append } from '../util/arrays.js';
export class Debouncer<T> {
  private pending: T[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly flush: (batch: T[]) => void,
  ) {}

  push(items: readonly T[]): void {
    append(this.pending, items);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const batch = this.pending;
      this.pending = [];
      this.flush(batch);
    }, this.delayMs);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
  }
}

// Every request to a store goes through here: at most `concurrency` at once, each with a timeout,
// retried with exponential backoff (and jitter) when the store is throttling, failing with a 5xx or
// too slow; counted, so the bench and the progress line can say how many requests and bytes a
// repository cost. The SDKs' own retries are off (their clients are built with one attempt), so this
// is the one place that decides.
import { StoreError, kindOf, networkCode } from './store.js';

export interface RequestOptions {
  concurrency?: number;
  /** Attempts after the first, for retryable failures. */
  retries?: number;
  timeoutMs?: number;
  /** The first backoff; doubled each retry. */
  backoffMs?: number;
  /** Replaceable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestStats {
  requests: number;
  bytes: number;
  retries: number;
}

// Not unref'd: the wait is all the run has to do while it lasts.
const sleepFor = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class Requests {
  readonly stats: RequestStats = { requests: 0, bytes: 0, retries: 0 };
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: RequestOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.retries = options.retries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.backoffMs = options.backoffMs ?? 250;
    this.sleep = options.sleep ?? sleepFor;
  }

  /** Runs `request` with a signal that aborts at the timeout; `bytes` counts what it read. */
  async run<T>(request: (signal: AbortSignal) => Promise<T>, bytes: (t: T) => number = () => 0): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.slot();
      let result: T;
      try {
        this.stats.requests++;
        result = await this.once(request);
      } catch (e) {
        const err = asStoreError(e);
        if (!err.retryable || attempt >= this.retries) throw err;
        this.stats.retries++;
        // Full jitter: a random wait up to the doubled backoff, so throttled clients do not retry in step.
        await this.sleep(Math.random() * this.backoffMs * 2 ** attempt);
        continue;
      } finally {
        this.release();
      }
      this.stats.bytes += bytes(result);
      return result;
    }
  }

  private async once<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Settled first, so the race ends as a timeout, not as the aborted request's own error.
        reject(new StoreError('timeout', `no answer within ${this.timeoutMs / 1000} s`));
        controller.abort();
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([request(controller.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async slot(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function asStoreError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const code = networkCode(e);
  return new StoreError(kindOf(undefined, code), e instanceof Error ? e.message : String(e));
}

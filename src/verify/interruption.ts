// Ctrl-C and SIGTERM during a verify run that has something to clean up (a container, a model loaded
// on a server): the first signal is remembered and aborts the requests in flight, and the runner,
// after its clean-up, reports the run as interrupted (exit 130 / 143).
import { Interrupted } from './errors.js';

/** Where SIGINT/SIGTERM come from; tests pass an EventEmitter. */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export class Interruption {
  private readonly controller = new AbortController();
  /** The first signal that came, if one did. */
  caught: 'SIGINT' | 'SIGTERM' | undefined;
  private readonly onSigint = (): void => this.take('SIGINT');
  private readonly onSigterm = (): void => this.take('SIGTERM');

  constructor(private readonly signals: SignalSource) {
    signals.on('SIGINT', this.onSigint);
    signals.on('SIGTERM', this.onSigterm);
  }

  /** Aborted when a signal comes: give it to every request and wait that the clean-up must not follow. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Throws Interrupted once a signal came. */
  check(): void {
    if (this.caught) throw new Interrupted(this.caught);
  }

  /** Stops listening (the clean-up runs after this, whatever comes). */
  dispose(): void {
    this.signals.off('SIGINT', this.onSigint);
    this.signals.off('SIGTERM', this.onSigterm);
  }

  private take(signal: 'SIGINT' | 'SIGTERM'): void {
    this.caught ??= signal;
    this.controller.abort();
  }
}

// Ctrl-C and SIGTERM during a verify run that has something to clean up (a container, a model loaded
// on a server, a tritonserver it started): the first signal is remembered and aborts the requests in
// flight, and the runner, after its clean-up, reports the run as interrupted (exit 130 / 143). While
// the clean-up runs, a signal (Ctrl-C pressed again, a scheduler's second SIGTERM) is held, not
// obeyed: ending the process then would leave the server, the container or the model as the run
// made them. The clean-up is bounded by its own timeouts; SIGKILL still ends tritonc at once.
import { Interrupted } from './errors.js';

/** Where SIGINT/SIGTERM come from; tests pass an EventEmitter. */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown;
}

export class Interruption {
  private readonly controller = new AbortController();
  /** The first signal that came before the clean-up, if one did. */
  caught: 'SIGINT' | 'SIGTERM' | undefined;
  /** Set once the clean-up has begun: told of the first signal that comes during it. */
  private held: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  private cleaning = false;
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

  /**
   * The clean-up begins: from here a signal is held (the process keeps running until dispose), and
   * `onHeld` hears of the first one, to say why tritonc has not stopped yet.
   */
  cleaningUp(onHeld: (signal: 'SIGINT' | 'SIGTERM') => void = () => {}): void {
    this.cleaning = true;
    this.held = onHeld;
  }

  /** Stops listening: call it when the clean-up is done (a signal after this has its default effect). */
  dispose(): void {
    this.signals.off('SIGINT', this.onSigint);
    this.signals.off('SIGTERM', this.onSigterm);
  }

  private take(signal: 'SIGINT' | 'SIGTERM'): void {
    if (this.cleaning) {
      this.held?.(signal);
      this.held = undefined;
      return;
    }
    this.caught ??= signal;
    this.controller.abort();
  }
}

/** The line a runner shows (as progress) when a signal comes during its clean-up. */
export const heldSignalLine = (signal: 'SIGINT' | 'SIGTERM', cleanUp: string): string =>
  `${signal} during the clean-up: tritonc first finishes ${cleanUp}, so that nothing is left behind`;

// verify's two kinds of failure that are not findings about the config: the check could not run
// (exit 2: no docker, no daemon, no GPU, no server, no onnxruntime-node, an unreadable config), or the
// user stopped it (Ctrl-C). Findings about the config are data in the report, never exceptions.

/** The check could not run; the message says why and what to do. Never blamed on the config. */
export class CannotRun extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRun';
  }
}

/**
 * SIGINT / SIGTERM arrived while a check ran; the container (if any) is removed before this surfaces.
 * `after` says what the runner's clean-up did, where it can say more than the runtime's
 * afterInterrupt (the server runtime: how the model was put back, or that it could not be).
 */
export class Interrupted extends Error {
  constructor(
    readonly signal: 'SIGINT' | 'SIGTERM',
    readonly after?: string,
  ) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

/** Shell convention: 128 + the signal number. */
export const signalExitCode = (signal: 'SIGINT' | 'SIGTERM'): number => (signal === 'SIGINT' ? 130 : 143);

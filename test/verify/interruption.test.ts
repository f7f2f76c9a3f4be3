// The signal handling every verify runner shares (src/verify/interruption.ts): the first signal
// aborts the run; during the clean-up a signal is held, not obeyed, and said once; afterwards the
// handlers are gone. The real processes are in test/server/local-runtime.test.ts and
// verify-restore-real-triton.test.ts (a signal sent twice to tritonc).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Interrupted } from '../../src/verify/errors.js';
import { heldSignalLine, Interruption } from '../../src/verify/interruption.js';

describe('Interruption', () => {
  it('the first signal aborts and is what check() throws; one during the clean-up is held and said once; dispose removes the handlers', () => {
    const signals = new EventEmitter();
    const interruption = new Interruption(signals);
    expect(() => interruption.check()).not.toThrow();
    signals.emit('SIGTERM');
    signals.emit('SIGINT');
    expect(interruption.signal.aborted).toBe(true);
    expect(() => interruption.check()).toThrow(Interrupted);
    expect(interruption.caught).toBe('SIGTERM');
    const held: string[] = [];
    interruption.cleaningUp((signal) => held.push(heldSignalLine(signal, 'stopping tritonserver')));
    signals.emit('SIGINT');
    signals.emit('SIGTERM');
    expect(held).toEqual(['SIGINT during the clean-up: tritonc first finishes stopping tritonserver, so that nothing is left behind']);
    // Still listening while the clean-up runs: a process's default action (exit) does not happen.
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(2);
    expect(interruption.caught).toBe('SIGTERM');
    interruption.dispose();
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
  });

  it('a signal that first comes during the clean-up does not turn a finished run into an interrupted one', () => {
    const signals = new EventEmitter();
    const interruption = new Interruption(signals);
    let said = 0;
    interruption.cleaningUp(() => said++);
    signals.emit('SIGINT');
    expect([said, interruption.caught, interruption.signal.aborted]).toEqual([1, undefined, false]);
    interruption.dispose();
  });
});

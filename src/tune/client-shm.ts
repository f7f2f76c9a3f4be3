// perf_analyzer --shared-memory against the Triton the user runs: from 26.04 on tritonserver refuses
// every client shared-memory registration unless started with --allow-client-shm=true
// (triton/releases/server-flag-defaults.ts), and perf_analyzer then fails on the first request.
import { CLIENT_SHM_DISABLED, clientShmNeedsOptIn } from '../triton/releases/server-flag-defaults.js';
import type { TritonTarget } from '../triton/releases/target.js';

/** perf_analyzer's --shared-memory: none (tensors in the request), system or cuda. */
export type SharedMemory = 'none' | 'system' | 'cuda';

/**
 * Why measuring with `sharedMemory` would fail on a server of `target` that tritonc does not start,
 * unless the user says it was started with --allow-client-shm=true; undefined when it would not.
 */
export function sharedMemoryRefusal(target: TritonTarget, sharedMemory: SharedMemory, serverAllows: boolean): string | undefined {
  if (sharedMemory === 'none' || serverAllows || !clientShmNeedsOptIn(target.release)) return undefined;
  return `--shared-memory ${sharedMemory}: Triton ${target.release.container} (from 26.04 on) refuses client shared memory unless tritonserver was started with --allow-client-shm=true, and perf_analyzer would fail ("${CLIENT_SHM_DISABLED}"); start the server so and add --allow-client-shm, or measure without --shared-memory`;
}

/** The flag tritonc adds when it starts a tritonserver of `target` itself for a measurement with `sharedMemory`. */
export function serverArgsFor(target: TritonTarget, sharedMemory: SharedMemory): string[] {
  return sharedMemory !== 'none' && clientShmNeedsOptIn(target.release) ? ['--allow-client-shm=true'] : [];
}

// A disk that misbehaves, for the write paths: writeFileAtomic's file-system calls replaced.
import { atomicWriteFs } from '../../src/util/atomic-write.js';

const real = { ...atomicWriteFs };
type Write = typeof atomicWriteFs.writeSync;

export function restoreDisk(): void {
  Object.assign(atomicWriteFs, real);
}

/** Wraps the real write call. */
export function realWrites(wrap: (write: Write) => Write): void {
  atomicWriteFs.writeSync = wrap(real.writeSync);
}

/** A disk with `free` bytes left: writes stop there with what fits, then fail with ENOSPC, as write(2) does. */
export function fillDiskAfter(free: number): void {
  let left = free;
  realWrites((write) => (fd, buffer, offset, length) => {
    if (left === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    const n = Math.min(length, left);
    left -= n;
    return write(fd, buffer, offset, n);
  });
}

// Reads an input file whole, bounded: only a regular file (opened without blocking, so a FIFO cannot
// hang the open, and checked with fstat before a byte is read, so /dev/zero is not read forever), at
// most `limit` bytes, and no more than fstat said (a file that grows while read is cut there).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { describeFsError, fileType } from '../../util/read-text.js';
import { fileError } from './user-arrays.js';

export function readInputFile(path: string, source: string, limit: number, what: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw fileError(source, `cannot open it: ${describeFsError(e)}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw fileError(source, `not a regular file (${fileType(st)}); give ${what}`);
    if (st.size > limit) throw fileError(source, `${st.size} bytes, more than verify reads as one inference's input (limit ${limit}); send a smaller batch`);
    const buf = Buffer.allocUnsafe(st.size);
    let done = 0;
    while (done < st.size) {
      const n = readSync(fd, buf, done, st.size - done, done);
      if (n === 0) break;
      done += n;
    }
    return buf.subarray(0, done);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code) throw fileError(source, `cannot read it: ${describeFsError(e)}`);
    throw e;
  } finally {
    closeSync(fd);
  }
}

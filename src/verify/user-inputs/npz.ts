// The .npz format (numpy.savez / savez_compressed): a ZIP archive of one .npy file per array, named
// `<key>.npy`, stored or deflated, with zip64 records (numpy writes them with force_zip64). The ZIP
// structure is read by tritonc's bounded ZIP reader (src/pytorch/zip.ts: every size checked against
// the file, the central directory and entry count bounded, deflate inflated with an output limit);
// here every entry is also checked before it is read: its name (UTF-8, `<input>.npy`), its method,
// its declared size against what is left of the input budget, and its compression ratio, so a zip
// bomb is refused from its central directory record without inflating it.
import { ModelReadError } from '../../model-file/errors.js';
import { readCentralDirectory, readEntry, ZIP_LIMITS, type ZipSource } from '../../pytorch/zip.js';
import { escapeControl } from '../../util/terminal-text.js';
import { fileError, INPUT_LIMITS, type UserArray } from './user-arrays.js';
import { parseNpy } from './npy.js';

/** Every array of an .npz file's bytes (the whole file, bounded by the caller), named by its key. */
export function parseNpz(bytes: Buffer, source: string): UserArray[] {
  const src: ZipSource = { file: source, size: bytes.length, read: (p, l) => bytes.subarray(p, p + l) };
  const zipError = (e: unknown): never => {
    if (e instanceof ModelReadError) throw fileError(source, `not an .npz numpy can write: ${e.offset === null ? '' : `byte ${e.offset}: `}${e.reason}`);
    throw e;
  };
  let entries;
  try {
    entries = readCentralDirectory(src);
  } catch (e) {
    return zipError(e);
  }
  if (entries.length > INPUT_LIMITS.npzEntries)
    throw fileError(source, `${entries.length} arrays, more than a model has inputs (limit ${INPUT_LIMITS.npzEntries})`);
  if (!entries.length) throw fileError(source, 'an .npz without arrays; write one array per input: np.savez(path, input=a)');
  let budget = INPUT_LIMITS.tensorBytes + entries.length * INPUT_LIMITS.npyHeaderBytes;
  const seen = new Set<string>();
  const out: UserArray[] = [];
  for (const e of entries) {
    // The reader decodes names as UTF-8, an invalid sequence as U+FFFD: numpy writes its keys in UTF-8.
    if (e.name.includes('\uFFFD'))
      throw fileError(
        source,
        `an entry whose name is not UTF-8 (${JSON.stringify(escapeControl(e.name))}); name each array by the model's input: np.savez(path, input=a)`,
      );
    const shown = escapeControl(e.name);
    if (!e.name.endsWith('.npy')) throw fileError(source, `entry '${shown}' is not an .npy array (numpy.savez writes '<key>.npy')`);
    const name = e.name.slice(0, -'.npy'.length);
    if (seen.has(name)) throw fileError(source, `two arrays named '${escapeControl(name)}'`);
    seen.add(name);
    const entry = `${source}[${escapeControl(name)}]`;
    if (e.flags & 0x1) throw fileError(entry, 'encrypted; numpy never encrypts an .npz');
    if (e.method !== 0 && e.method !== 8)
      throw fileError(entry, `compressed with ZIP method ${e.method}; numpy writes stored (np.savez) or deflate (np.savez_compressed) entries`);
    if (e.uncompressedSize > budget)
      throw fileError(
        entry,
        `declares ${e.uncompressedSize} bytes, more than verify reads as one inference's inputs (limit ${INPUT_LIMITS.tensorBytes} in all)`,
      );
    if (e.method === 8 && e.uncompressedSize > Math.max(1024, e.compressedSize * ZIP_LIMITS.maxRatio)) {
      throw fileError(entry, `declares ${e.uncompressedSize} bytes from ${e.compressedSize} compressed: a ratio no deflate stream reaches (a zip bomb?)`);
    }
    budget -= e.uncompressedSize;
    let data: Buffer;
    try {
      data = readEntry(src, e, e.uncompressedSize);
    } catch (err) {
      return zipError(err);
    }
    out.push({ ...parseNpy(data, entry), name });
  }
  return out;
}

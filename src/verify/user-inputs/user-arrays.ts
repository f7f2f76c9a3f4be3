// The user's own input tensors for `verify --reference ort` (--input NAME=FILE, --inputs FILE), as
// the readers (npy.ts, npz.ts, json-tensors.ts) hand them over: binary data of a numpy dtype, or the
// numbers of a JSON array whose type the model's config decides. Every size is bounded before it is
// read; the limits are here.
import { CannotRun } from '../errors.js';

/** A tensor read from a file: where it came from, its shape, and its data. */
export interface UserArray {
  /** The input it is for, where the file names it (an .npz entry, a JSON key); --input gives it otherwise. */
  name?: string;
  /** The file as the user sees it, with the entry or key where the file holds several: `x.npz[input]`. */
  source: string;
  shape: number[];
  data:
    | { kind: 'binary'; dtype: NumpyType; bytes: Buffer }
    /** JSON numbers (true/false as 1/0), and the KServe datatype the file declares, if any. */
    | { kind: 'numbers'; datatype?: string; values: number[] };
}

/** A numpy dtype verify takes: its name in messages, the KServe datatype, and the element size. */
export interface NumpyType {
  numpy: string;
  kserve: string;
  bytes: number;
}

/** numpy's dtype kind + size (`descr` without the byte order) to the KServe datatype. */
export const NUMPY_TYPES: ReadonlyMap<string, NumpyType> = new Map(
  (
    [
      ['b1', 'bool', 'BOOL', 1],
      ['u1', 'uint8', 'UINT8', 1],
      ['u2', 'uint16', 'UINT16', 2],
      ['u4', 'uint32', 'UINT32', 4],
      ['u8', 'uint64', 'UINT64', 8],
      ['i1', 'int8', 'INT8', 1],
      ['i2', 'int16', 'INT16', 2],
      ['i4', 'int32', 'INT32', 4],
      ['i8', 'int64', 'INT64', 8],
      ['f2', 'float16', 'FP16', 2],
      ['f4', 'float32', 'FP32', 4],
      ['f8', 'float64', 'FP64', 8],
    ] as const
  ).map(([code, numpy, kserve, bytes]) => [code, { numpy, kserve, bytes }]),
);

/** numpy's name for a KServe datatype, for the fix a message proposes (`a.astype(np.float32)`). */
export const numpyNameOf = (kserve: string): string | undefined => [...NUMPY_TYPES.values()].find((t) => t.kserve === kserve)?.numpy;

export const INPUT_LIMITS = {
  /** An .npy or .npz file: larger is not one inference's input. */
  fileBytes: 1024 * 1024 * 1024,
  /** A JSON file (its text is parsed whole; V8's strings end near 512 M characters). */
  jsonBytes: 256 * 1024 * 1024,
  /** Numbers in one JSON tensor: each is a JS number while it is read (V8 cannot grow an array past about 112 M). */
  jsonValues: 16 * 1024 * 1024,
  /** All the inputs' data together, as the request carries it. */
  tensorBytes: 1024 * 1024 * 1024,
  /** numpy's own bound on an .npy header (numpy.lib.format, max_header_size, since 1.24). */
  npyHeaderBytes: 10_000,
  /** numpy's NPY_MAXDIMS (64 in numpy 2; Triton's requests have far fewer). */
  dims: 64,
  /** Entries in an .npz: one per input. */
  npzEntries: 1024,
} as const;

/** An error about one file: the file, what is wrong, and the fix. */
export const fileError = (source: string, problem: string): CannotRun => new CannotRun(`${source}: ${problem}`);

/**
 * The element count of `shape`, checked step by step against `maxElements`, so a declared shape of
 * (2**62, 2**62) is refused before anything is multiplied out of range or allocated.
 */
export function elementCount(shape: readonly number[], maxElements: number): number | undefined {
  let n = 1;
  for (const d of shape) {
    if (d === 0) return 0;
    n *= d;
    if (n > maxElements) return undefined;
  }
  return n;
}

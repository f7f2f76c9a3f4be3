// The .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0): the magic "\x93NUMPY", the version,
// the header's length (2 bytes in 1.0, 4 in 2.0 and 3.0), a header that is a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } (latin-1; UTF-8 in 3.0), then the
// data. The header is parsed by a small strict reader of that literal, never evaluated; its length is
// bounded as numpy bounds it (10,000 bytes); the shape's element count is checked against what the
// file holds before anything is allocated. Little- and big-endian data of numpy's bool, integer and
// float types, in C order; Fortran order and the object, string, complex, datetime and structured
// dtypes are refused with what to do.
import { elementCount, fileError, INPUT_LIMITS, NUMPY_TYPES, type NumpyType, type UserArray } from './user-arrays.js';

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);

/** Whether the bytes start as an .npy file does. */
export const isNpy = (bytes: Buffer): boolean => bytes.length >= MAGIC.length && bytes.subarray(0, MAGIC.length).equals(MAGIC);

type PyValue = string | boolean | number[] | { list: true };

/** The header dict: `{'key': value, ...}` with str, bool, int-tuple values (a list only to refuse it). */
function parseHeader(text: string, source: string): Map<string, PyValue> {
  let i = 0;
  const bad = (what: string): never => {
    throw fileError(source, `the .npy header is not the dict numpy writes (${what} at character ${i}): ${JSON.stringify(text.slice(0, 120))}`);
  };
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const q = text[i];
    if (q !== "'" && q !== '"') return bad('expected a string');
    const end = text.indexOf(q, i + 1);
    if (end < 0) return bad('a string that does not end');
    const s = text.slice(i + 1, end);
    if (s.includes('\\')) return bad('an escape in a string');
    i = end + 1;
    return s;
  };
  const int = (): number => {
    const m = /^\d{1,16}L?/.exec(text.slice(i, i + 17));
    if (!m) return bad('expected a dimension');
    i += m[0].length;
    const n = Number(m[0].replace('L', ''));
    if (!Number.isSafeInteger(n)) return bad('a dimension too large');
    return n;
  };
  const value = (): PyValue => {
    ws();
    if (text.startsWith('True', i)) return ((i += 4), true);
    if (text.startsWith('False', i)) return ((i += 5), false);
    if (text[i] === "'" || text[i] === '"') return str();
    if (text[i] === '[') return { list: true };
    if (text[i] !== '(') return bad('expected a value');
    i++;
    const dims: number[] = [];
    for (;;) {
      ws();
      if (text[i] === ')') break;
      if (dims.length >= INPUT_LIMITS.dims) return bad(`more than ${INPUT_LIMITS.dims} dimensions`);
      dims.push(int());
      ws();
      if (text[i] === ',') i++;
      else if (text[i] !== ')') return bad("expected ',' or ')'");
    }
    i++;
    return dims;
  };
  const out = new Map<string, PyValue>();
  ws();
  if (text[i] !== '{') bad("expected '{'");
  i++;
  for (;;) {
    ws();
    if (text[i] === '}') break;
    const key = str();
    ws();
    if (text[i] !== ':') bad("expected ':'");
    i++;
    const v = value();
    if (typeof v === 'object' && 'list' in v) return out.set(key, v);
    if (out.has(key)) bad(`'${key}' twice`);
    out.set(key, v);
    ws();
    if (text[i] === ',') i++;
    else if (text[i] !== '}') bad("expected ',' or '}'");
  }
  i++;
  ws();
  if (i !== text.length) bad('text after the dict');
  return out;
}

const REFUSED_KINDS: Record<string, string> = {
  O: 'object dtype (pickled Python objects, which verify never unpickles)',
  U: 'a unicode string dtype',
  S: 'a bytes string dtype',
  a: 'a bytes string dtype',
  c: 'a complex dtype',
  M: 'a datetime dtype',
  m: 'a timedelta dtype',
  V: 'a void (raw or structured) dtype',
};

function dtypeOf(descr: PyValue | undefined, source: string): { type: NumpyType; bigEndian: boolean } {
  const fix = 'save a numeric array of the type the model takes, e.g. np.save(path, a.astype(np.float32))';
  if (descr !== undefined && typeof descr === 'object' && 'list' in descr)
    throw fileError(source, `a structured dtype (a record of fields), not a tensor; ${fix}`);
  if (typeof descr !== 'string') throw fileError(source, "the .npy header has no 'descr' string");
  const m = /^([<>|=])([a-zA-Z])(\d+)$/.exec(descr);
  const kind = m?.[2] ?? descr.replace(/^[<>|=]/, '')[0] ?? '';
  if (REFUSED_KINDS[kind]) throw fileError(source, `${REFUSED_KINDS[kind]} ('${descr}'), not a tensor verify can send; ${fix}`);
  const type = m ? NUMPY_TYPES.get(`${m[2]}${m[3]}`) : undefined;
  if (!m || !type) throw fileError(source, `dtype '${descr}' is not one Triton takes (bool, int8-64, uint8-64, float16, float32, float64); ${fix}`);
  return { type, bigEndian: m[1] === '>' && type.bytes > 1 };
}

/** Parses an .npy file's bytes (the whole file, bounded by the caller). */
export function parseNpy(bytes: Buffer, source: string): UserArray {
  if (!isNpy(bytes)) throw fileError(source, 'not an .npy file (it does not start with "\\x93NUMPY"); write it with np.save');
  if (bytes.length < 10) throw fileError(source, 'the file ends inside the .npy preamble (truncated)');
  const major = bytes[6]!;
  const minor = bytes[7]!;
  if (![1, 2, 3].includes(major) || minor !== 0) throw fileError(source, `.npy format version ${major}.${minor}; numpy writes 1.0, 2.0 and 3.0`);
  const lenBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenBytes) throw fileError(source, 'the file ends inside the .npy preamble (truncated)');
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = 8 + lenBytes;
  if (headerLen > INPUT_LIMITS.npyHeaderBytes)
    throw fileError(source, `the .npy header declares ${headerLen} bytes, more than numpy itself reads (${INPUT_LIMITS.npyHeaderBytes})`);
  if (start + headerLen > bytes.length)
    throw fileError(source, `the .npy header declares ${headerLen} bytes but the file ends after ${bytes.length - start} (truncated)`);
  const raw = bytes.subarray(start, start + headerLen);
  let text: string;
  if (major === 3) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw fileError(source, 'the .npy 3.0 header is not UTF-8');
    }
  } else {
    text = raw.toString('latin1');
  }
  const header = parseHeader(text, source);
  for (const key of header.keys())
    if (!['descr', 'fortran_order', 'shape'].includes(key)) throw fileError(source, `the .npy header has a key '${key}' numpy does not write`);
  const { type, bigEndian } = dtypeOf(header.get('descr'), source);
  const fortran = header.get('fortran_order');
  if (typeof fortran !== 'boolean') throw fileError(source, "the .npy header's 'fortran_order' is not True or False");
  const shape = header.get('shape');
  if (!Array.isArray(shape)) throw fileError(source, "the .npy header has no 'shape' tuple");
  const available = bytes.length - start - headerLen;
  // Bounded by the largest file read, so a declared (2**62, 2**62) is never multiplied out.
  const count = elementCount(shape, Math.floor(INPUT_LIMITS.fileBytes / type.bytes));
  if (count === undefined || count * type.bytes !== available) {
    const declared = count === undefined ? 'more than' : `${count * type.bytes} bytes, not`;
    const tuple = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
    throw fileError(
      source,
      `its header says shape ${tuple} of ${type.numpy}: ${declared} the ${available} bytes of data the file holds (truncated, or a header that does not describe the data)`,
    );
  }
  // A Fortran-ordered array of more than one dim would be sent transposed; one of rank <= 1 is the same bytes.
  if (fortran && shape.filter((d) => d > 1).length > 1)
    throw fileError(source, 'a Fortran-ordered array (fortran_order: True); save it in C order: np.save(path, np.ascontiguousarray(a))');
  const data = Buffer.from(bytes.subarray(start + headerLen));
  if (bigEndian) {
    if (type.bytes === 2) data.swap16();
    else if (type.bytes === 4) data.swap32();
    else data.swap64();
  }
  // numpy's bool is one byte, 0 or 1; any other byte is true, as numpy reads it.
  if (type.kserve === 'BOOL') for (let k = 0; k < data.length; k++) data[k] = data[k] ? 1 : 0;
  return { source, shape: [...shape], data: { kind: 'binary', dtype: type, bytes: data } };
}

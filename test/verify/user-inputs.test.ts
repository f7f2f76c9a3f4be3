// The readers of the user's inputs for verify --reference ort (src/verify/user-inputs): .npy (numpy's
// format 1.0, 2.0, 3.0), .npz (ZIP, stored and deflate), JSON; every one bounded, and hostile files
// (truncated, lying headers, huge declared shapes, zip bombs, non-UTF-8 names, FIFOs) refused with
// the file and the fix, never a crash, a hang or an allocation the size of a lie. Files numpy itself
// writes are read too, where the exporters' venv is (it has numpy 1.26).
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseNpy } from '../../src/verify/user-inputs/npy.js';
import { parseNpz } from '../../src/verify/user-inputs/npz.js';
import { parseJsonText, tensorOfJson, tensorsOfJson } from '../../src/verify/user-inputs/json-tensors.js';
import { loadInputFiles } from '../../src/verify/user-inputs/load.js';
import { INPUT_LIMITS, type UserArray } from '../../src/verify/user-inputs/user-arrays.js';
import { referenceInputs } from '../../src/verify/reference-inputs.js';
import { compareOutput, decidedNothing, suggestedAtol, undecidedMessage } from '../../src/verify/reference.js';
import { cli } from '../support/cli.js';
import { EXPORTS_PYTHON, haveExporters } from '../support/model-exports.js';
import { tempDir } from '../support/temp.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';

/** An .npy file as numpy.lib.format writes it: magic, version, header length, dict padded to 64, data. */
function npy(header: string, data: Buffer, major = 1): Buffer {
  const lenBytes = major === 1 ? 2 : 4;
  let text = header;
  const total = 8 + lenBytes + text.length + 1;
  text += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const pre = Buffer.alloc(8 + lenBytes);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]).copy(pre);
  if (major === 1) pre.writeUInt16LE(Buffer.byteLength(text), 8);
  else pre.writeUInt32LE(Buffer.byteLength(text), 8);
  return Buffer.concat([pre, Buffer.from(text, major === 3 ? 'utf8' : 'latin1'), data]);
}
const f32 = (...v: number[]): Buffer => Buffer.from(Float32Array.from(v).buffer);
const dict = (descr: string, shape: string, fortran = 'False'): string => `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shape}, }`;
const values = (a: UserArray): number[] => (a.data.kind === 'binary' ? [...new Float32Array(Uint8Array.from(a.data.bytes).buffer)] : a.data.values);

interface ZipEntrySpec {
  name: string | Buffer;
  data: Buffer;
  method?: 0 | 8 | 12;
  declaredSize?: number;
  flags?: number;
}
/** A ZIP archive (APPNOTE 6.3): local headers and data, the central directory, the end record; sizes as declared. */
function zip(entries: ZipEntrySpec[], eocdCount?: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
    const method = e.method ?? 0;
    const body = method === 8 ? zlib.deflateRawSync(e.data) : e.data;
    const size = e.declaredSize ?? e.data.length;
    const crc = zlib.crc32(e.data);
    const flags = (e.flags ?? 0) | (typeof e.name === 'string' ? 0x800 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(eocdCount ?? entries.length, 8);
  eocd.writeUInt16LE(eocdCount ?? entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

describe('.npy', () => {
  it('reads versions 1.0, 2.0 and 3.0, little- and big-endian, and the shapes () and (n,)', () => {
    for (const major of [1, 2, 3]) {
      const a = parseNpy(npy(dict('<f4', '(2, 2)'), f32(1, 2, 3, 4), major), 'x.npy');
      expect([a.shape, values(a)]).toEqual([
        [2, 2],
        [1, 2, 3, 4],
      ]);
    }
    const be = Buffer.alloc(8);
    be.writeFloatBE(1.5, 0);
    be.writeFloatBE(-2, 4);
    expect(values(parseNpy(npy(dict('>f4', '(2,)'), be), 'x.npy'))).toEqual([1.5, -2]);
    expect(parseNpy(npy(dict('<f4', '()'), f32(7)), 'x.npy').shape).toEqual([]);
    const bools = parseNpy(npy(dict('|b1', '(3,)'), Buffer.from([0, 1, 7])), 'b.npy');
    expect(bools.data.kind === 'binary' && [...bools.data.bytes]).toEqual([0, 1, 1]);
    // A Fortran-ordered vector is the same bytes as a C-ordered one.
    expect(parseNpy(npy(dict('<f4', '(2,)', 'True'), f32(1, 2)), 'x.npy').shape).toEqual([2]);
  });

  it('refuses Fortran order, object, string, complex and structured dtypes with what to do', () => {
    expect(() => parseNpy(npy(dict('<f4', '(2, 2)', 'True'), f32(1, 2, 3, 4)), 'x.npy')).toThrow(
      'x.npy: a Fortran-ordered array (fortran_order: True); save it in C order: np.save(path, np.ascontiguousarray(a))',
    );
    expect(() => parseNpy(npy(dict('|O', '(1,)'), Buffer.alloc(8)), 'o.npy')).toThrow(
      "o.npy: object dtype (pickled Python objects, which verify never unpickles) ('|O'), not a tensor verify can send; save a numeric array",
    );
    expect(() => parseNpy(npy(dict('<U5', '(1,)'), Buffer.alloc(20)), 'u.npy')).toThrow('a unicode string dtype');
    expect(() => parseNpy(npy(dict('<c8', '(1,)'), Buffer.alloc(8)), 'c.npy')).toThrow('a complex dtype');
    expect(() => parseNpy(npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", Buffer.alloc(4)), 's.npy')).toThrow(
      's.npy: a structured dtype',
    );
    expect(() => parseNpy(npy(dict('<f16', '(1,)'), Buffer.alloc(16)), 'g.npy')).toThrow("dtype '<f16' is not one Triton takes");
  });

  it('refuses truncated files, lying headers and huge declared shapes before allocating them', () => {
    const good = npy(dict('<f4', '(2, 2)'), f32(1, 2, 3, 4));
    expect(() => parseNpy(good.subarray(0, good.length - 1), 'x.npy')).toThrow(
      'x.npy: its header says shape (2, 2) of float32: 16 bytes, not the 15 bytes of data the file holds',
    );
    expect(() => parseNpy(good.subarray(0, 9), 'x.npy')).toThrow('the file ends inside the .npy preamble');
    expect(() => parseNpy(good.subarray(0, 40), 'x.npy')).toThrow('the .npy header declares 118 bytes but the file ends after 30 (truncated)');
    // (2**40, 2**40) float32 would be 4 * 2**80 bytes: refused from the header, nothing multiplied out.
    expect(() => parseNpy(npy(dict('<f4', '(1099511627776, 1099511627776)'), f32(1)), 'x.npy')).toThrow(
      'its header says shape (1099511627776, 1099511627776) of float32: more than the 4 bytes of data',
    );
    const huge = Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 2, 0]), Buffer.from([0xff, 0xff, 0xff, 0x7f])]);
    expect(() => parseNpy(huge, 'x.npy')).toThrow(`the .npy header declares 2147483647 bytes, more than numpy itself reads (${INPUT_LIMITS.npyHeaderBytes})`);
    expect(() => parseNpy(npy(dict('<f4', '(1,)'), f32(1), 4), 'x.npy')).toThrow('.npy format version 4.0');
    expect(() => parseNpy(Buffer.from('PK\x03\x04'), 'x.npy')).toThrow('not an .npy file');
  });

  it('parses the header as data, never as code', () => {
    expect(() => parseNpy(npy("{'descr': __import__('os').system('true'), 'fortran_order': False, 'shape': (1,), }", f32(1)), 'x.npy')).toThrow(
      'the .npy header is not the dict numpy writes (expected a value',
    );
    expect(() => parseNpy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}", f32(1)), 'x.npy')).toThrow('expected a value');
    expect(() => parseNpy(npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", f32(1)), 'x.npy')).toThrow("'descr' twice");
    // Format 3.0's header is UTF-8: invalid bytes are refused.
    const bad = npy(dict('<f4', '(1,)'), f32(1), 3);
    bad[12] = 0xff;
    expect(() => parseNpy(bad, 'x.npy')).toThrow('the .npy 3.0 header is not UTF-8');
  });

  it.runIf(haveExporters)('reads what numpy 1.26 writes: format 1.0, 2.0 and 3.0, every dtype Triton takes, big-endian', () => {
    const dir = tempDir('tritonc-npy-');
    execFileSync(EXPORTS_PYTHON, [
      '-c',
      `
import numpy as np, numpy.lib.format as f
a = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
for v in [(1, 0), (2, 0), (3, 0)]:
    with open('${dir}/v%d.npy' % v[0], 'wb') as h: f.write_array(h, a, version=v)
for t in ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'float16', 'float32', 'float64', '>i8', '>f8']:
    np.save('${dir}/%s.npy' % t.replace('>', 'be_'), np.array([0, 1, 2]).astype(t))
np.save('${dir}/fortran.npy', np.asfortranarray(a))
np.save('${dir}/object.npy', np.array([1, 'a'], dtype=object), allow_pickle=True)
`,
    ]);
    const read = (name: string): UserArray => parseNpy(readFileSync(join(dir, name)), name);
    for (const v of ['v1', 'v2', 'v3'])
      expect([read(`${v}.npy`).shape, values(read(`${v}.npy`))]).toEqual([
        [2, 3],
        [0, 0.25, 0.5, 0.75, 1, 1.25],
      ]);
    for (const [t, kserve] of [
      ['bool', 'BOOL'],
      ['int8', 'INT8'],
      ['int64', 'INT64'],
      ['uint16', 'UINT16'],
      ['float16', 'FP16'],
      ['float64', 'FP64'],
      ['be_i8', 'INT64'],
      ['be_f8', 'FP64'],
    ] as const) {
      const a = read(`${t}.npy`);
      expect(a.data.kind === 'binary' && a.data.dtype.kserve, t).toBe(kserve);
    }
    const be = read('be_i8.npy');
    expect(be.data.kind === 'binary' && [...new BigInt64Array(Uint8Array.from(be.data.bytes).buffer)]).toEqual([0n, 1n, 2n]);
    expect(() => read('fortran.npy')).toThrow('a Fortran-ordered array');
    expect(() => read('object.npy')).toThrow('object dtype');
  });
});

describe('.npz', () => {
  const x = npy(dict('<f4', '(2,)'), f32(1, 2));
  it('reads stored and deflated entries by key', () => {
    const arrays = parseNpz(
      zip([
        { name: 'input.npy', data: x },
        { name: 'mask.npy', data: x, method: 8 },
      ]),
      'in.npz',
    );
    expect(arrays.map((a) => [a.name, a.source, values(a)])).toEqual([
      ['input', 'in.npz[input]', [1, 2]],
      ['mask', 'in.npz[mask]', [1, 2]],
    ]);
  });

  it('refuses a zip bomb from its record, and an entry that inflates past its declared size', () => {
    // 1 GB declared from a few hundred compressed bytes: past deflate's own ratio, refused unread.
    const bomb = zip([{ name: 'input.npy', data: Buffer.alloc(1_000_000), method: 8, declaredSize: 1_000_000_000 }]);
    expect(() => parseNpz(bomb, 'bomb.npz')).toThrow('bomb.npz[input]: declares 1000000000 bytes from');
    expect(() => parseNpz(bomb, 'bomb.npz')).toThrow('a ratio no deflate stream reaches (a zip bomb?)');
    // 10 MB of zeros declared as 200 bytes: inflation stops at the declared size.
    const lying = zip([{ name: 'input.npy', data: Buffer.alloc(10_000_000), method: 8, declaredSize: 200 }]);
    expect(() => parseNpz(lying, 'lie.npz')).toThrow('inflates past its declared 200 bytes (a zip bomb?)');
    // Past the input budget: refused from the record.
    const big = zip([{ name: 'input.npy', data: x, declaredSize: INPUT_LIMITS.tensorBytes + 20_000 }]);
    expect(() => parseNpz(big, 'big.npz')).toThrow(`big.npz[input]: declares ${INPUT_LIMITS.tensorBytes + 20_000} bytes, more than verify reads`);
  });

  it('refuses non-UTF-8 names, foreign entries, methods numpy does not write, encryption, truncation and lying counts', () => {
    expect(() => parseNpz(zip([{ name: Buffer.from([0x69, 0xff, 0x2e, 0x6e, 0x70, 0x79]), data: x }]), 'n.npz')).toThrow(
      'n.npz: an entry whose name is not UTF-8',
    );
    expect(() => parseNpz(zip([{ name: 'readme.txt', data: x }]), 'n.npz')).toThrow("entry 'readme.txt' is not an .npy array");
    expect(() => parseNpz(zip([{ name: 'a.npy', data: x, method: 12 }]), 'n.npz')).toThrow('compressed with ZIP method 12');
    expect(() => parseNpz(zip([{ name: 'a.npy', data: x, flags: 1 }]), 'n.npz')).toThrow('encrypted');
    const whole = zip([{ name: 'a.npy', data: x }]);
    expect(() => parseNpz(whole.subarray(0, whole.length - 30), 'n.npz')).toThrow('n.npz: not an .npz numpy can write');
    expect(() => parseNpz(zip([{ name: 'a.npy', data: x }], 60000), 'n.npz')).toThrow('60000 entries cannot fit in a central directory');
    expect(() => parseNpz(zip([{ name: 'a.npy', data: x.subarray(0, x.length - 2) }]), 'n.npz')).toThrow('n.npz[a]: its header says shape (2,) of float32');
    expect(() =>
      parseNpz(
        zip([
          { name: 'a.npy', data: x },
          { name: 'a.npy', data: x },
        ]),
        'n.npz',
      ),
    ).toThrow("two arrays named 'a'");
    expect(() => parseNpz(zip([]), 'n.npz')).toThrow('an .npz without arrays');
  });

  it.runIf(haveExporters)('reads what np.savez and np.savez_compressed write (zip64 local headers)', () => {
    const dir = tempDir('tritonc-npz-');
    execFileSync(EXPORTS_PYTHON, [
      '-c',
      `
import numpy as np
a = np.arange(6, dtype=np.float32).reshape(2, 3)
np.savez('${dir}/s.npz', input=a, ids=np.arange(2))
np.savez_compressed('${dir}/c.npz', input=a, ids=np.arange(2))
`,
    ]);
    for (const f of ['s.npz', 'c.npz']) {
      const arrays = parseNpz(readFileSync(join(dir, f)), f);
      expect(arrays.map((a) => [a.name, a.shape, a.data.kind === 'binary' && a.data.dtype.kserve])).toEqual([
        ['input', [2, 3], 'FP32'],
        ['ids', [2], 'INT64'],
      ]);
    }
  });
});

describe('JSON', () => {
  it('takes nested arrays, KServe tensor objects (flat or nested data) and request bodies', () => {
    expect(
      tensorOfJson(
        [
          [1, 2],
          [3, 4],
        ],
        'x.json',
        'x',
      ),
    ).toMatchObject({ name: 'x', shape: [2, 2], data: { kind: 'numbers', values: [1, 2, 3, 4] } });
    expect(tensorOfJson({ shape: [2, 2], datatype: 'FP32', data: [1, 2, 3, 4] }, 'x.json', 'x')).toMatchObject({
      shape: [2, 2],
      data: { datatype: 'FP32', values: [1, 2, 3, 4] },
    });
    expect(tensorsOfJson({ inputs: [{ name: 'a', shape: [1], datatype: 'INT64', data: [5] }] }, 'r.json').map((a) => [a.name, a.source])).toEqual([
      ['a', 'r.json[a]'],
    ]);
    expect(tensorsOfJson({ a: [true, false], b: [[1]] }, 'k.json').map((a) => [a.name, a.shape, a.data.kind === 'numbers' && a.data.values])).toEqual([
      ['a', [2], [1, 0]],
      ['b', [1, 1], [1]],
    ]);
  });

  it('refuses ragged arrays, non-numbers, a shape that does not hold the data, deep nesting and non-UTF-8 text', () => {
    expect(() => tensorOfJson([[1, 2], [3]], 'x.json')).toThrow('x.json: [1] is an array of 1, where the first elements make an array of 2');
    expect(() =>
      tensorOfJson(
        [
          [1, 2],
          [3, 'a'],
        ],
        'x.json',
      ),
    ).toThrow('x.json: [1][1] is string, where a number belongs');
    expect(() => tensorOfJson({ shape: [3], data: [1, 2] }, 'x.json')).toThrow('"shape" [3] does not hold the 2 numbers of "data"');
    expect(() => tensorOfJson({ shape: [2 ** 40, 2 ** 40], data: [1] }, 'x.json')).toThrow('does not hold the 1 numbers');
    expect(() => tensorOfJson({ name: 'y', data: [1] }, 'x.json', 'x')).toThrow('the tensor is named "y", but given for input \'x\'');
    let deep: unknown = [1];
    for (let k = 0; k < 10_000; k++) deep = [deep];
    expect(() => tensorOfJson(deep, 'x.json')).toThrow(`nested more than ${INPUT_LIMITS.dims} deep`);
    expect(() => parseJsonText(Buffer.from([0x5b, 0xff, 0x5d]), 'x.json')).toThrow('x.json: not UTF-8 text, so not JSON');
    expect(() => parseJsonText(Buffer.from('[1,'), 'x.json')).toThrow('x.json: not JSON');
  });

  it("refuses a tensor of more numbers than it can read from the first elements' shape, before reading any (V8 aborts the process past about 112 M)", () => {
    // A row of 2**12 repeated 2**13 times: 32 M numbers from one shared row, in a few KiB of memory.
    const row = new Array<number>(2 ** 12).fill(0);
    const big = new Array<number[]>(2 ** 13).fill(row);
    expect(() => tensorOfJson(big, 'x.json')).toThrow(
      `x.json: holds more than ${INPUT_LIMITS.jsonValues} numbers (shape [8192,4096] from the first elements): JSON is for small inputs; save a large one with numpy.save and give the .npy`,
    );
  });
});

describe('the files', () => {
  it('reads only regular files: a FIFO is refused without blocking, an oversized file from its size', () => {
    const dir = tempDir('tritonc-input-files-');
    execFileSync('mkfifo', [join(dir, 'fifo.npy')]);
    const shown = (p: string): string => p.slice(dir.length + 1);
    expect(() => loadInputFiles({ perInput: [{ name: 'x', file: 'fifo.npy' }] }, dir, shown)).toThrow(
      'fifo.npy: not a regular file (a FIFO); give an .npy or .json file',
    );
    mkdirSync(join(dir, 'd.npz'));
    expect(() => loadInputFiles({ archive: 'd.npz' }, dir, shown)).toThrow('d.npz: not a regular file (a directory)');
    // A sparse file one byte past the limit: refused from fstat, never read.
    const fd = openSync(join(dir, 'huge.npy'), 'w');
    ftruncateSync(fd, INPUT_LIMITS.fileBytes + 1);
    closeSync(fd);
    expect(() => loadInputFiles({ perInput: [{ name: 'x', file: 'huge.npy' }] }, dir, shown)).toThrow(
      `huge.npy: ${INPUT_LIMITS.fileBytes + 1} bytes, more than verify reads`,
    );
    expect(() => loadInputFiles({ perInput: [{ name: 'x', file: 'none.npy' }] }, dir, shown)).toThrow(
      'none.npy: cannot open it: no such file or directory (ENOENT)',
    );
    writeFileSync(join(dir, 'x.json'), '[[1, 2]]');
    expect(loadInputFiles({ perInput: [{ name: 'x', file: 'x.json' }] }, dir, shown).map((a) => [a.name, a.source, a.shape])).toEqual([
      ['x', 'x.json', [1, 2]],
    ]);
  });
});

describe('fitting the arrays to the model', () => {
  const spec = (name: string, dataType: string, dims: number[]) => ({ name, dataType, dims, modelDims: dims, optional: false });
  const arr = (name: string, shape: number[], vals: number[], datatype?: string): UserArray => ({
    name,
    source: `${name}.json`,
    shape,
    data: { kind: 'numbers', values: vals, ...(datatype ? { datatype } : {}) },
  });
  it('a batch of B or one item with batching; the config dims without; the others seeded at that batch', () => {
    const specs = [spec('x', 'TYPE_FP32', [2]), spec('ids', 'TYPE_INT64', [-1])];
    const batch = referenceInputs([arr('x', [3, 2], [1, 2, 3, 4, 5, 6])], specs, 8, 1, new Map());
    expect(batch.batch).toBe(3);
    expect(batch.inputs.map((i) => [i.name, i.shape])).toEqual([
      ['x', [3, 2]],
      ['ids', [3, 1]],
    ]);
    expect(batch.from).toEqual([
      { name: 'x', from: 'x.json' },
      { name: 'ids', from: 'seeded' },
    ]);
    expect([...(batch.inputs[0]!.ortData as Float32Array)]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(referenceInputs([arr('x', [2], [1, 2])], specs, 8, 1, new Map()).inputs[0]!.shape).toEqual([1, 2]);
    expect(referenceInputs([arr('x', [2], [1, 2])], [spec('x', 'TYPE_FP32', [2])], 0, 1, new Map()).batch).toBeUndefined();
    // JSON numbers take the model's type: FP16 as half-precision bits, BOOL as bytes, INT64 as 8 bytes each.
    const typed = referenceInputs(
      [arr('h', [2], [1, 0.5]), arr('b', [2], [1, 0]), arr('l', [2], [-3, 2 ** 40])],
      [spec('h', 'TYPE_FP16', [2]), spec('b', 'TYPE_BOOL', [2]), spec('l', 'TYPE_INT64', [2])],
      0,
      1,
      new Map(),
    );
    expect(typed.inputs.map((i) => [i.datatype, i.ortType, [...i.bytes]])).toEqual([
      ['FP16', 'float16', [0x00, 0x3c, 0x00, 0x38]],
      ['BOOL', 'bool', [1, 0]],
      ['INT64', 'int64', [0xfd, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 1, 0, 0]],
    ]);
  });
  it('refuses another dtype, shape, batch, a mixed batch, an unknown name, and integers a type cannot hold', () => {
    const specs = [spec('x', 'TYPE_FP32', [2]), spec('y', 'TYPE_INT8', [-1])];
    expect(() => referenceInputs([arr('x', [3], [1, 2, 3])], specs, 8, 1, new Map())).toThrow(
      "input 'x' has shape [3] in x.json; the model takes [-1,2] (a batch of at most 8) or [2] (one item); -1 is any size",
    );
    expect(() => referenceInputs([arr('x', [9, 2], new Array(18).fill(0))], specs, 8, 1, new Map())).toThrow(
      "input 'x' in x.json is a batch of 9, and the model's max_batch_size is 8",
    );
    expect(() => referenceInputs([arr('x', [2, 2], [1, 2, 3, 4]), arr('y', [3, 1], [1, 2, 3])], specs, 8, 1, new Map())).toThrow(
      'y.json is a batch of 3, x.json a batch of 2',
    );
    expect(() => referenceInputs([arr('z', [2], [1, 2])], specs, 8, 1, new Map())).toThrow("z.json: 'z' is not an input of the model (its inputs: 'x', 'y')");
    expect(() => referenceInputs([arr('y', [1], [300])], specs, 8, 1, new Map())).toThrow(
      "input 'y' in y.json: element 0 is 300, not an integer INT8 holds (-128 to 127)",
    );
    expect(() => referenceInputs([arr('x', [2], [1, 2], 'FP64')], specs, 8, 1, new Map())).toThrow(
      "input 'x' is FP64 in x.json, the model takes FP32 (TYPE_FP32)",
    );
    const f64: UserArray = {
      name: 'x',
      source: 'x.npy',
      shape: [2],
      data: { kind: 'binary', dtype: { numpy: 'float64', kserve: 'FP64', bytes: 8 }, bytes: Buffer.alloc(16) },
    };
    expect(() => referenceInputs([f64], specs, 8, 1, new Map())).toThrow(
      "input 'x' is float64 in x.npy, the model takes FP32 (TYPE_FP32): save it as float32, e.g. np.save(path, a.astype(np.float32))",
    );
  });
});

describe('the tolerance', () => {
  const ref = (v: number[]) => ({ dims: [v.length], values: Float64Array.from(v) });
  const served = (v: number[]) => ({ shape: [v.length], values: Float64Array.from(v) });
  it('decided nothing when atol + rtol * |ref| reaches every |ref|: an output of zeros would pass', () => {
    // The case: outputs around 1e-5, 6.3% off, under the default atol 1e-5.
    const tiny = compareOutput('y', served([1.063e-6, 2e-6]), ref([1e-6, 2e-6]), 1e-5, 1e-5);
    expect(tiny).toMatchObject({ ok: false, undecided: true, mismatched: 0, largestReference: 2e-6 });
    expect(tiny.maxRelError).toBeCloseTo(0.063, 6);
    expect(compareOutput('y', served([0, 0]), ref([1e-6, 2e-6]), 1e-5, 1e-5)).toMatchObject({ undecided: true });
    expect(undecidedMessage(tiny, 1e-5, 1e-5)).toBe(
      "output 'y': --atol 1e-5 (with --rtol 1e-5) reaches every |reference| value (largest 2.00e-6), so an output of zeros would pass as well: the comparison decided nothing (max abs error 6.30e-8, max rel error 0.0630, largest |reference| 2.00e-6); pass --atol 1e-9 (a thousandth of the largest |reference|, to a power of ten)",
    );
    expect(undecidedMessage(compareOutput('y', served([1]), ref([1]), 0, 1), 0, 1)).toContain(
      '--rtol 1 is 1 or more, so an output of zeros would pass as well',
    );
    // One element past atol decides: a real verdict. An all-zero reference is decided by atol itself.
    expect(compareOutput('y', served([1e-6, 2e-3]), ref([1e-6, 2e-3]), 1e-5, 1e-5)).toMatchObject({ ok: true });
    expect(compareOutput('y', served([0, 0]), ref([0, 0]), 1e-5, 1e-5)).toMatchObject({ ok: true });
    expect(compareOutput('y', served([1, 0]), ref([1e-6, 0]), 1e-5, 1e-5)).toMatchObject({ ok: false, mismatched: 1 });
    expect(decidedNothing(2.1e-5, 1e-3, 0)).toBe(true);
    expect(decidedNothing(0.68, 1e-5, 1e-5)).toBe(false);
    expect([suggestedAtol(2.1e-5), suggestedAtol(0.68), suggestedAtol(6.8e-6)]).toEqual([1e-8, 1e-4, 1e-9]);
  });
});

describe('the flags', () => {
  it('--input and --inputs need --reference ort; --input takes NAME=FILE; a bad file is exit 2 before any server is asked', async () => {
    const repo = await writeRepo({
      'm/config.pbtxt': CLASSIFIER_CONFIG.replace('"classifier"', '"m"'),
      'm/1/model.onnx': CLASSIFIER,
      'x64.npy': npy(dict('<f8', '(1, 3, 224, 224)'), Buffer.alloc(8 * 3 * 224 * 224)),
    });
    const server = ['--runtime', 'server', '--server', 'http://127.0.0.1:1'];
    expect((await cli(['verify', 'm', ...server, '--input', 'input=x.npy'], { cwd: repo })).stderr).toBe(
      'tritonc verify: --reference-model, --atol, --rtol, --input and --inputs apply to --reference ort\n',
    );
    expect((await cli(['verify', 'm', ...server, '--reference', 'ort', '--input', 'x.npy'], { cwd: repo })).stderr).toContain('--input takes NAME=FILE');
    const r = await cli(['verify', 'm', ...server, '--reference', 'ort', '--input', 'input=x64.npy'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "tritonc verify: input 'input' is float64 in x64.npy, the model takes FP32 (TYPE_FP32): save it as float32, e.g. np.save(path, a.astype(np.float32))\n",
    );
    // A file's own words reach the terminal escaped: a dtype that clears the screen is shown, not run.
    writeFileSync(join(repo, 'esc.npy'), npy(dict('O\x1b[2J', '(1,)'), Buffer.alloc(8)));
    const esc = await cli(['verify', 'm', ...server, '--reference', 'ort', '--input', 'input=esc.npy'], { cwd: repo });
    expect(esc.code).toBe(2);
    expect(esc.stderr).not.toContain('\x1b');
    expect(esc.stderr).toContain('\\x1b[2J');
  });
});

// The PyTorch reader on archives that are wrong in one way each: every one is a ModelReadError with
// the byte offset where the problem is, and bombs and absurd sizes are refused before anything is
// inflated or allocated.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readTorchSignatureOfBytes } from '../../src/pytorch/reader.js';
import { ROOT } from '../support/snapshot.js';
import { buildZip, torchscriptZip } from './zip-builder.js';

const QA = readFileSync(join(ROOT, 'fixtures/models/pytorch/libtorch_float32_float32_float32/1/model.pt'));
const CODE =
  'class Net(Module):\n  __parameters__ = []\n  def forward(self: __torch__.Net,\n    x: Tensor,\n    y: List[Tensor]) -> Tuple[Tensor, Tensor, Tensor]:\n    return (x, x, x)\n';

function refusal(bytes: Uint8Array): ModelReadError {
  try {
    readTorchSignatureOfBytes('m.pt', bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelReadError);
    const err = e as ModelReadError;
    expect(err.offset).not.toBeNull();
    expect(err.offset!).toBeGreaterThanOrEqual(0);
    expect(err.offset!).toBeLessThanOrEqual(bytes.length);
    return err;
  }
  throw new Error('read without error');
}

describe('archives the reader builds here read as written', () => {
  it('deflated and stored code, zip64 records, weights summed from the central directory', () => {
    for (const options of [{}, { deflate: false }, { zip64: true }]) {
      const sig = readTorchSignatureOfBytes('m.pt', torchscriptZip(CODE, { ...options, weights: [64, 4096] }));
      expect(sig.inputs.map((t) => [t.name, t.kind])).toEqual([
        ['x', 'tensor'],
        ['y', 'sequence'],
      ]);
      expect(sig.outputs.map((t) => t.name)).toEqual(['OUTPUT__0', 'OUTPUT__1', 'OUTPUT__2']);
      expect(sig.initializers).toMatchObject({ count: 2, bytes: 4160 });
    }
  });

  it('a nested top module: data.pkl names __torch__.pkg.Net, whose code is code/__torch__/pkg.py', () => {
    const pkl = Buffer.concat([Buffer.from([0x80, 0x02]), Buffer.from('c__torch__.pkg\nNet\n')]);
    const zip = buildZip([
      { name: 'archive/data.pkl', data: pkl },
      { name: 'archive/code/__torch__.py', data: 'class Other(Module):\n  def forward(self: __torch__.Other, z: Tensor) -> Tensor:\n    return z\n' },
      { name: 'archive/code/__torch__/pkg.py', data: CODE.replace('__torch__.Net', '__torch__.pkg.Net'), deflate: true },
    ]);
    expect(readTorchSignatureOfBytes('m.pt', zip).inputs.map((t) => t.name)).toEqual(['x', 'y']);
  });

  it('no top module named: the first class with a forward, each class looked at once (issue 42)', { timeout: 60_000 }, () => {
    const pkl = Buffer.from([0x80, 0x02, 0x4e, 0x2e]); // PROTO 2, NONE, STOP: no GLOBAL names the module
    const zip = (code: string): Buffer =>
      buildZip([
        { name: 'm/data.pkl', data: pkl },
        { name: 'm/code/__torch__.py', data: code, deflate: true },
      ]);
    // A class named twice is looked at where it is first defined (the second Net's forward is not its).
    const twice =
      'class Net(Module):\n  x : int\nclass Other(Module):\n  def forward(self: __torch__.Other, b: Tensor) -> Tensor:\n    return b\nclass Net(Module):\n  def forward(self: __torch__.Net, a: Tensor) -> Tensor:\n    return a\n';
    expect(readTorchSignatureOfBytes('m.pt', zip(twice)).inputs.map((t) => t.name)).toEqual(['b']);
    // 40,000 classes without a forward before the one with it (107 KB deflated): a search from the
    // start and a RegExp per class took 288 s on this machine; a hang bound, not a speed target.
    const many = Array.from({ length: 40_000 }, (_, i) => `class C${i}(Module):\n  x : int\n`).join('');
    const sig = readTorchSignatureOfBytes('m.pt', zip(`${many}${CODE}`));
    expect(sig.inputs.map((t) => t.name)).toEqual(['x', 'y']);
    expect(sig.outputs).toHaveLength(3);
  });

  it('an AOTInductor package: its weights counted, its inputs and outputs unknown (no stable record)', () => {
    const zip = buildZip([
      { name: 'model/archive_format', data: 'pt2' },
      { name: 'model/data/aotinductor/model/cabc.wrapper.cpp', data: 'in_spec_ = R"([1, {...}])";' },
      { name: 'model/data/aotinductor/model/cabc.wrapper.so', data: Buffer.alloc(1000) },
    ]);
    const sig = readTorchSignatureOfBytes('model.pt2', zip);
    expect(sig.format).toBe('pt2');
    expect(sig.ioUnknown).toMatch(/AOTInductor package .* no stable form/);
    expect(sig.initializers.bytes).toBe(1000 + 'in_spec_ = R"([1, {...}])";'.length);
  });
});

describe('refusals', () => {
  it('not an archive: empty, text, a bare pickle, a Git LFS pointer', () => {
    expect(refusal(Buffer.alloc(0)).reason).toMatch(/empty/);
    expect(refusal(Buffer.from('hello world')).reason).toMatch(/not a ZIP archive; a TorchScript model.pt is the ZIP archive torch.jit.save writes/);
    expect(refusal(Buffer.from([0x80, 0x02, 0x63])).reason).toMatch(/bare pickle/);
    const lfs = refusal(Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12345\n'));
    expect(lfs.lfsPointer).toEqual({ oid: 'sha256:abc', size: 12345 });
  });

  it('truncated anywhere: the end record or the entries are missing', () => {
    for (const cut of [4, 100, QA.length - 30, QA.length - 1])
      expect(refusal(QA.subarray(0, cut)).reason).toMatch(/end of central directory|truncated|runs past/);
  });

  it('a corrupt central directory: a bad signature, an offset past the end record, more entries than fit', () => {
    const cdAt = QA.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), QA.length - 22 - 46 * 6);
    const bad = Buffer.from(QA);
    bad.writeUInt32LE(0x12345678, cdAt);
    expect(refusal(bad).reason).toMatch(/no central file header signature/);
    const eocd = QA.length - 22;
    const far = Buffer.from(QA);
    far.writeUInt32LE(QA.length, eocd + 16);
    expect(refusal(far)).toMatchObject({ offset: eocd + 16 });
    const many = Buffer.from(QA);
    many.writeUInt16LE(60000, eocd + 10);
    expect(refusal(many).reason).toMatch(/cannot fit/);
  });

  it('bombs: a declared size over the limit, a ratio no deflate reaches, a stream longer than declared', () => {
    const big = torchscriptZip(CODE.repeat(1), {});
    const huge = buildZip([
      { name: 'model/data.pkl', data: Buffer.from('\x80\x02c__torch__\nNet\n', 'latin1') },
      { name: 'model/code/__torch__.py', data: CODE, deflate: true, declaredUncompressed: 4_000_000_000 },
    ]);
    expect(refusal(huge).reason).toMatch(/declares 4000000000 bytes, more than a signature record holds/);
    const ratio = buildZip([
      { name: 'model/data.pkl', data: Buffer.from('\x80\x02c__torch__\nNet\n', 'latin1') },
      { name: 'model/code/__torch__.py', data: CODE, deflate: true, declaredUncompressed: 10_000_000 },
    ]);
    expect(refusal(ratio).reason).toMatch(/a ratio no deflate stream reaches/);
    // 1 MiB of zeros deflates to ~1 KiB: declared 200 bytes, it would inflate far past them.
    const zeros = 'a'.repeat(1 << 20);
    const lie = buildZip([
      { name: 'model/data.pkl', data: Buffer.from('\x80\x02c__torch__\nNet\n', 'latin1') },
      { name: 'model/code/__torch__.py', data: zeros, deflate: true, declaredUncompressed: 200 },
    ]);
    expect(refusal(lie).reason).toMatch(/inflates past its declared 200 bytes/);
    expect(readTorchSignatureOfBytes('m.pt', big).inputs.length).toBe(2);
  });

  it('an entry over the central directory, a bad deflate stream, an unknown method', () => {
    const over = buildZip([{ name: 'model/data.pkl', data: 'x', declaredCompressed: 5000 }]);
    expect(refusal(over).reason).toMatch(/runs past the start of the central directory/);
    const zip = torchscriptZip(CODE);
    const codeAt = zip.indexOf(Buffer.from('model/code/__torch__.py')) + 'model/code/__torch__.py'.length;
    const broken = Buffer.from(zip);
    broken.fill(0xff, codeAt, codeAt + 8);
    expect(refusal(broken).reason).toMatch(/not a valid deflate stream|inflates to/);
  });

  it('TorchScript without what Triton needs: no data.pkl, no code, no such class, no forward, a missing code record', () => {
    expect(refusal(buildZip([{ name: 'a/b.txt', data: 'x' }])).reason).toMatch(/without data\.pkl/);
    expect(refusal(torchscriptZip(CODE, { cls: 'Missing' })).reason).toMatch(/does not define class Missing/);
    expect(refusal(torchscriptZip('class Net(Module):\n  x : int\n')).reason).toMatch(/class Net in 'model\/code\/__torch__.py' has no forward method/);
    const nested = buildZip([
      { name: 'model/data.pkl', data: Buffer.from('\x80\x02c__torch__.pkg\nNet\n', 'latin1') },
      { name: 'model/code/__torch__.py', data: CODE },
    ]);
    expect(refusal(nested).reason).toMatch(/no 'model\/code\/__torch__\/pkg\.py'/);
    expect(refusal(torchscriptZip('class Net(Module):\n  def forward(self: __torch__.Net, x: Tensor\n')).reason).toMatch(/does not end/);
  });
});

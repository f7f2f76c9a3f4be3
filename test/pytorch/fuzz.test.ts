// Property tests of the PyTorch reader and its ZIP reader: whatever the bytes (random, a real export
// truncated or with bytes changed, archives whose records lie), the result is a signature or a
// ModelReadError with an offset inside the file: never another exception, a hang, or an allocation
// the size of a declared lie.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import type { ModelSignature } from '../../src/model-file/signature.js';
import { readTorchSignatureOfBytes } from '../../src/pytorch/reader.js';
import { ROOT } from '../support/snapshot.js';
import { buildZip, torchscriptZip } from './zip-builder.js';

const DIR = join(ROOT, 'fixtures/models/pytorch');
const FIXTURES = [
  'libtorch_float32_float32_float32/1/model.pt',
  'libtorch_named/1/model.pt',
  'libtorch_dict/1/model.pt',
  'torch_export_program/1/model.pt2',
].map((f) => readFileSync(join(DIR, f)));
const RUNS = { numRuns: Number(process.env.TRITONC_FUZZ_RUNS ?? 300) };

function outcome(bytes: Uint8Array): ModelSignature | ModelReadError {
  try {
    return readTorchSignatureOfBytes('fuzz.pt', bytes);
  } catch (e) {
    if (!(e instanceof ModelReadError)) throw e;
    expect(e.kind).toBe('format');
    expect(e.offset).not.toBeNull();
    expect(e.offset!).toBeGreaterThanOrEqual(0);
    expect(e.offset!).toBeLessThanOrEqual(bytes.length);
    return e;
  }
}

const fixture = fc.constantFrom(...FIXTURES);

describe('robustness', () => {
  it('random bytes, and random bytes after a local header signature', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (b) => void outcome(b)),
      RUNS,
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (b) => void outcome(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), b]))),
      RUNS,
    );
  });

  it('real exports truncated anywhere', () => {
    fc.assert(
      fc.property(fixture, fc.double({ min: 0, max: 1, noNaN: true }), (bytes, at) => {
        const cut = Math.floor(at * bytes.length);
        const r = outcome(bytes.subarray(0, cut));
        if (cut < bytes.length) expect(r).toBeInstanceOf(ModelReadError);
      }),
      RUNS,
    );
  });

  it('real exports with bytes changed (the central directory and end record most often)', () => {
    fc.assert(
      fc.property(
        fixture,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 }), fc.boolean()), { minLength: 1, maxLength: 8 }),
        (bytes, edits) => {
          const b = Buffer.from(bytes);
          for (const [at, value, tail] of edits) {
            // Half the edits land in the last 25%: the central directory and the end record.
            const pos = tail ? Math.floor(b.length * 0.75 + at * b.length * 0.25) : Math.floor(at * b.length);
            b[Math.min(pos, b.length - 1)] = value;
          }
          outcome(b);
        },
      ),
      RUNS,
    );
  });

  it('archives whose sizes lie (bombs and absurd sizes) and whose code is arbitrary text', () => {
    const size = fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(0xffffffff, 0xfffffffe, 2 ** 31, 16 * 1024 * 1024 + 1));
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.option(size), fc.option(size), fc.boolean(), fc.boolean(), (code, u, c, deflate, zip64) => {
        const zip = buildZip(
          [
            { name: 'model/data.pkl', data: Buffer.from('\x80\x02c__torch__\nNet\n', 'latin1') },
            {
              name: 'model/code/__torch__.py',
              data: `class Net(Module):\n  def forward(self: __torch__.Net, ${code}`,
              deflate,
              declaredUncompressed: u ?? undefined,
              declaredCompressed: c ?? undefined,
            },
          ],
          { zip64 },
        );
        outcome(zip);
      }),
      RUNS,
    );
  });

  it('forward definitions of any shape read or refuse, never throw otherwise', () => {
    const piece = fc.constantFrom(
      'x',
      ': ',
      'Tensor',
      'List[',
      'Dict[str, ',
      ']',
      ', ',
      '(',
      ')',
      ' -> ',
      ':',
      '\n',
      '"',
      "'",
      '=',
      '1',
      'Tuple[',
      'Optional[',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        outcome(torchscriptZip(`class Net(Module):\n  def forward(self: __torch__.Net, ${pieces.join('')}\n    return x\n`));
      }),
      RUNS,
    );
  });
});

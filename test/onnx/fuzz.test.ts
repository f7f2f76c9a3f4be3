// Property tests: whatever the bytes, the reader returns a signature or throws ModelReadError (never
// another exception, never a hang), and random well-formed models read back exactly as written.

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_NAMES, type FixtureName } from '../../fixtures/onnx/index.js';
import { encodeModel, model, shapeProto, type DimSpec, type TensorProto } from '../../fixtures/onnx/model-builder.js';
import { ModelReadError, elemTypeByCode, readSignature, readSignatureSync, type ModelSignature } from '../../src/onnx/index.js';
import { buildAllFixtures, makeTempDir, removeDir } from './helpers.js';

let dir: string;
let fixtures: Record<FixtureName, Buffer>;

beforeAll(async () => {
  dir = makeTempDir('onnx-fuzz');
  const files = await buildAllFixtures(dir);
  fixtures = Object.fromEntries(FIXTURE_NAMES.map((n) => [n, fs.readFileSync(files[n])])) as Record<FixtureName, Buffer>;
});
afterAll(() => removeDir(dir));

let counter = 0;
function write(bytes: Uint8Array): string {
  // Beside the fixtures' external data files, so mutated models can resolve them too.
  const file = path.join(dir, 'external-data', `fuzz-${counter++ % 8}.onnx`);
  fs.writeFileSync(file, bytes);
  return file;
}

/** Reads with the given window; a result or an ModelReadError are the only allowed outcomes. */
function outcome(bytes: Uint8Array, windowBytes: number): ModelSignature | ModelReadError {
  const file = write(bytes);
  try {
    return readSignatureSync(file, { windowBytes });
  } catch (e) {
    if (e instanceof ModelReadError) {
      expect(e.kind).toBe('format');
      expect(e.offset).not.toBeNull();
      expect(e.offset!).toBeGreaterThanOrEqual(0);
      expect(e.offset!).toBeLessThanOrEqual(bytes.length);
      return e;
    }
    throw e;
  }
}

const windowSize = fc.constantFrom(64, 100, 1024, 65536);
const fixtureName = fc.constantFrom(...FIXTURE_NAMES);
/** TRITONC_FUZZ_RUNS raises the run count for a longer local hunt. */
const RUNS = { numRuns: Number(process.env.TRITONC_FUZZ_RUNS ?? 400) };

describe('robustness', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), windowSize, (bytes, w) => {
        outcome(bytes, w);
      }),
      RUNS,
    );
  });

  it('random bytes after a plausible ModelProto start', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), windowSize, (tail, w) => {
        outcome(Buffer.concat([Buffer.from([0x08, 0x08, 0x3a]), tail]), w);
      }),
      RUNS,
    );
  });

  it('truncated fixtures', () => {
    fc.assert(
      fc.property(fixtureName, fc.double({ min: 0, max: 1, noNaN: true }), windowSize, (name, at, w) => {
        const bytes = fixtures[name];
        const cut = Math.floor(at * bytes.length);
        const result = outcome(bytes.subarray(0, cut), w);
        if (cut < bytes.length && cut === 0) expect(result).toBeInstanceOf(ModelReadError);
      }),
      RUNS,
    );
  });

  it('bit flips in fixtures', () => {
    fc.assert(
      fc.property(
        fixtureName,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 8 }),
        windowSize,
        (name, flips, w) => {
          const bytes = Buffer.from(fixtures[name]);
          for (const [at, bit] of flips) bytes[Math.floor(at * bytes.length)]! ^= 1 << bit;
          outcome(bytes, w);
        },
      ),
      RUNS,
    );
  });

  it('random bytes spliced into fixtures', () => {
    fc.assert(
      fc.property(fixtureName, fc.double({ min: 0, max: 1, noNaN: true }), fc.uint8Array({ minLength: 1, maxLength: 32 }), windowSize, (name, at, junk, w) => {
        const bytes = fixtures[name];
        const pos = Math.floor(at * bytes.length);
        outcome(Buffer.concat([bytes.subarray(0, pos), junk, bytes.subarray(pos + junk.length)]), w);
      }),
      RUNS,
    );
  });

  it('the async reader fails exactly like the sync one', async () => {
    await fc.assert(
      fc.asyncProperty(fixtureName, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 }), async (name, at, value) => {
        const bytes = Buffer.from(fixtures[name]);
        bytes[Math.floor(at * (bytes.length - 1))] = value;
        const file = write(bytes);
        const sync = (() => {
          try {
            return readSignatureSync(file);
          } catch (e) {
            return e;
          }
        })();
        const async = await readSignature(file).catch((e: unknown) => e);
        expect(async).toEqual(sync);
      }),
      { numRuns: Math.ceil(RUNS.numRuns / 2) },
    );
  });
});

// Random well-formed models, written with onnx-proto, must read back as written.

const dimArb: fc.Arbitrary<DimSpec> = fc.oneof(
  fc.integer({ min: -3, max: 5000 }),
  fc.constantFrom(2 ** 40, -(2 ** 40), Number.MAX_SAFE_INTEGER),
  fc.string({ minLength: 1, maxLength: 8 }),
  fc.constant(null),
);
const shapeArb = fc.option(fc.array(dimArb, { maxLength: 6 }), { nil: null });
const nameArb = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const ioArb = fc.record({ name: nameArb, elem: fc.integer({ min: 0, max: 30 }), shape: shapeArb });
const initArb = fc.record({
  name: nameArb,
  dims: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
  raw: fc.integer({ min: 0, max: 70_000 }),
  listAsInput: fc.boolean(),
});

describe('round trip', () => {
  it('random signatures read back exactly', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(ioArb, { selector: (v) => v.name, maxLength: 6 }),
        fc.array(ioArb, { maxLength: 4 }),
        fc.uniqueArray(initArb, { selector: (v) => v.name, maxLength: 5 }),
        fc.integer({ min: 1, max: 12 }),
        windowSize,
        (inputs, outputs, inits, irVersion, w) => {
          const names = new Set(inputs.map((i) => i.name));
          const initializers = inits.filter((i) => !names.has(i.name));
          const valueInfo = (v: { name: string; elem: number; shape: DimSpec[] | null }) => ({
            name: v.name,
            type: { tensorType: v.shape === null ? { elemType: v.elem } : { elemType: v.elem, shape: shapeProto(v.shape) } },
          });
          const tensors: TensorProto[] = initializers.map((i) => ({ name: i.name, dataType: 1, dims: i.dims, rawData: Buffer.alloc(i.raw) }));
          const asInputs = initializers.filter((i) => i.listAsInput).map((i) => ({ name: i.name, elem: 1, shape: i.dims }));
          const bytes = encodeModel(
            model({ name: 'fuzz', initializer: tensors, input: [...inputs, ...asInputs].map(valueInfo), output: outputs.map(valueInfo) }, { irVersion }),
          );
          const result = outcome(bytes, w);
          expect(result).not.toBeInstanceOf(ModelReadError);
          const sig = result as ModelSignature;
          const info = (v: { name: string; elem: number; shape: DimSpec[] | null }) => {
            const t = elemTypeByCode(v.elem);
            return { name: v.name, kind: 'tensor', elemType: t?.name ?? null, tritonType: t?.tritonType ?? null, shape: v.shape };
          };
          expect(sig.irVersion).toBe(irVersion);
          expect(sig.inputs).toEqual(inputs.map(info));
          expect(sig.outputs).toEqual(outputs.map(info));
          expect(sig.overridableInitializers).toEqual(asInputs.map(info));
          expect(sig.initializers).toEqual({
            count: initializers.length,
            bytes: initializers.reduce((a, i) => a + i.raw, 0),
            externalBytes: 0,
            constantBytes: 0,
          });
        },
      ),
      { numRuns: Math.ceil(RUNS.numRuns / 2) },
    );
  });
});

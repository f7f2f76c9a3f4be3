// Property tests: whatever saved_model.pb holds, the reader returns a signature or throws a
// ModelReadError of kind 'format' with an offset inside the file (never another exception, never a hang).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readSavedModelOfBytes } from '../../src/savedmodel/index.js';
import { SAVED_MODELS, savedModelPb } from './helpers.js';

const RUNS = { numRuns: Number(process.env.TRITONC_FUZZ_RUNS ?? 400) };
const models = SAVED_MODELS.map((n) => savedModelPb(n));

function outcome(bytes: Uint8Array): void {
  try {
    readSavedModelOfBytes('/fuzz/model.savedmodel', bytes);
  } catch (e) {
    if (!(e instanceof ModelReadError)) throw e;
    expect(e.kind).toBe('format');
    expect(e.offset).not.toBeNull();
    expect(e.offset!).toBeGreaterThanOrEqual(0);
    expect(e.offset!).toBeLessThanOrEqual(bytes.length);
  }
}

describe('SavedModel reader robustness', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => outcome(bytes)),
      RUNS,
    );
  });

  it('real exports with bytes overwritten', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: models.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (m, edits) => {
          const bytes = Buffer.from(models[m]!);
          for (const [at, b] of edits) bytes[at % bytes.length] = b;
          outcome(bytes);
        },
      ),
      RUNS,
    );
  });

  it('real exports cut short at every length', () => {
    const bytes = models[0]!;
    for (let n = 0; n < bytes.length; n++) outcome(bytes.subarray(0, n));
  });

  it('real exports with a length prefix inflated', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: models.length - 1 }), fc.nat(), fc.integer({ min: 0x80, max: 0xff }), (m, at, b) => {
        const bytes = Buffer.from(models[m]!);
        // A continuation bit set anywhere makes the next byte part of a (larger) varint.
        bytes[at % bytes.length] = b;
        outcome(bytes);
      }),
      RUNS,
    );
  });
});

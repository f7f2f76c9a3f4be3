import { describe, expect, it } from 'vitest';
import { errors, lintConfig } from './core-support.js';

const ID = 'preferred-batch-size';
const ORT = 'backend: "onnxruntime"\n';

describe(ID, () => {
  describe('valid', () => {
    it('sizes within max_batch_size (only the docs note, as info)', async () => {
      const fs = await lintConfig(ID, `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 8 ] }\n`);
      expect(errors(fs)).toEqual([]);
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ severity: 'info', token: 'preferred_batch_size' });
      expect(fs[0]!.message).toContain('"should not be used for most models"');
    });
    it('TensorRT models get no note (multiple optimization profiles are the documented exception)', async () => {
      expect(await lintConfig(ID, 'platform: "tensorrt_plan"\nmax_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 8 ] }\n')).toEqual([]);
    });
    it('no preferred sizes', async () => {
      expect(await lintConfig(ID, `${ORT}max_batch_size: 8\ndynamic_batching { }\n`)).toEqual([]);
    });
    it('sequence batching oldest within max_batch_size', async () => {
      expect(await lintConfig(ID, `${ORT}max_batch_size: 8\nsequence_batching { oldest { preferred_batch_size: [ 2, 8 ] } }\n`)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('a size above max_batch_size: points at the size', async () => {
      const fs = await lintConfig(ID, `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 16 ] }\n`);
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ severity: 'error', line: 3, token: '16' });
      expect(fs[0]!.message).toBe(
        `dynamic_batching.preferred_batch_size 16 is larger than the largest batch the model takes: max_batch_size is 8, so Triton refuses the model ("dynamic batching preferred size must be <= max batch size for m"); set max_batch_size: 16, or drop the sizes above 8`,
      );
    });
    it('the ordering trap: max_batch_size omitted, checked before auto-complete would raise it', async () => {
      const [f] = await lintConfig(ID, `${ORT}dynamic_batching { preferred_batch_size: [ 4 ] }\n`);
      expect(f).toMatchObject({ severity: 'error', token: '4' });
      expect(f!.message).toContain("max_batch_size is not set (0) when Triton checks this, before the backend's auto-complete could raise it");
      expect(f!.message).toContain('set max_batch_size: 4 explicitly, or remove preferred_batch_size');
    });
    it('zero or negative sizes', async () => {
      const fs = await lintConfig(ID, `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 0, -2 ] }\n`);
      expect(fs.map((f) => f.token)).toEqual(['0', '-2']);
      expect(fs[0]!.message).toContain('("dynamic batching preferred size must be positive for m")');
    });
    it('sequence batching oldest: both checks, with the sequence batcher messages', async () => {
      const fs = await lintConfig(ID, `${ORT}max_batch_size: 4\nsequence_batching { oldest { preferred_batch_size: [ 0, 8 ] } }\n`);
      expect(fs.map((f) => f.token)).toEqual(['0', '8']);
      expect(fs[0]!.message).toContain('("sequence batching preferred batch size must be positive for m")');
      expect(fs[1]!.message).toContain('("sequence batching preferred batch size must be <= max batch size for m")');
    });
  });
});

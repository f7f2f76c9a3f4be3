import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'max-batch-size';

describe(ID, () => {
  describe('valid', () => {
    it.each([['0', 'max_batch_size: 0\n'], ['8', 'max_batch_size: 8\n'], ['omitted', 'backend: "onnxruntime"\n']])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('negative: points at the value', async () => {
      const [f, ...rest] = await lintConfig(ID, 'backend: "onnxruntime"\nmax_batch_size: -2\n');
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 2, token: '-2' });
      expect(f!.message).toBe(
        `max_batch_size -2 is negative, so Triton refuses the model ("'max_batch_size' must be non-negative value for m"); set the largest batch the model takes (e.g. max_batch_size: 8), or 0 if its inputs have no batch axis`,
      );
    });
  });
});

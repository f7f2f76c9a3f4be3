import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'response-cache';
const ORT = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['cache on a plain model', `${ORT}response_cache { enable: true }\n`],
      ['cache disabled on a decoupled model', `${ORT}model_transaction_policy { decoupled: true }\nresponse_cache { enable: false }\n`],
      ['sequence batching without cache', `${ORT}sequence_batching { }\n`],
    ])('%s', async (_, config) => {
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('a decoupled model: points at enable', async () => {
      const [f, ...rest] = await lintConfig(ID, `${ORT}model_transaction_policy { decoupled: True }\nresponse_cache { enable: true }\n`);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 4, token: 'true' });
      expect(f!.message).toBe(
        `the response cache cannot serve a decoupled model (it sends any number of responses per request), so Triton refuses the model ("Response Cache does not currently support model m with 'decoupled' transaction policy. Please disable the response cache."); remove response_cache or set enable: false`,
      );
    });
    it('the sequence batcher', async () => {
      const [f] = await lintConfig(ID, `${ORT}sequence_batching { }\nresponse_cache { enable: true }\n`);
      expect(f!.message).toContain('("Response Cache does not currently support model m with sequence batching scheduler. Please disable the response cache.")');
    });
  });
});

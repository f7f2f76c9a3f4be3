import { describe, expect, it } from 'vitest';
import { check } from '../lint/harness.js';

const config = (delay: number) => `name: "m"\nmax_batch_size: 8\n# tritonc-disable-next-line queue-delay -- offline batch model\ndynamic_batching { max_queue_delay_microseconds: ${delay} }\n`;

describe('unused-suppression', () => {
  it('is off by default', async () => {
    expect(await check('unused-suppression', config(100))).toEqual([]);
  });
  it('valid: a suppression that suppresses something', async () => {
    expect(await check('unused-suppression', config(50000), undefined, { ruleLevels: { 'unused-suppression': 'warning' } })).toEqual([]);
  });
  it('invalid: a suppression with nothing to suppress', async () => {
    const [f] = await check('unused-suppression', config(100), undefined, { ruleLevels: { 'unused-suppression': 'warning' } });
    expect(f).toMatchObject({ severity: 'warning', line: 3, token: 'queue-delay' });
    expect(f!.message).toContain("nothing to suppress: 'queue-delay' reports no problem here");
  });
});

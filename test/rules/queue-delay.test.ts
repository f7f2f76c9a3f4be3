import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, findings, lintDir, writeRepo } from '../lint/harness.js';

const config = (delay: number) => `name: "m"\nmax_batch_size: 8\ndynamic_batching { max_queue_delay_microseconds: ${delay} }\n`;

describe('queue-delay', () => {
  describe('valid', () => {
    it('a delay within the default 10 ms threshold', async () => {
      expect(await check('queue-delay', config(5000))).toEqual([]);
      expect(await check('queue-delay', config(10000))).toEqual([]);
    });
    it('no delay at all', async () => {
      expect(await check('queue-delay', 'max_batch_size: 8\ndynamic_batching { }\n')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('warns above 10 ms, on the value, in ms', async () => {
      const [f] = await check('queue-delay', config(50000));
      expect(f).toMatchObject({ severity: 'warning', token: '50000', line: 3 });
      expect(f!.message).toMatch(/^max_queue_delay_microseconds: 50000 \(50 ms\) lets a request wait up to 50 ms for a batch to fill; above 10 ms this trades latency for throughput\. Start at 2-5 ms/);
    });
    it('checks the sequence batcher strategies too', async () => {
      const [f] = await check('queue-delay', 'max_batch_size: 8\nsequence_batching { oldest { max_queue_delay_microseconds: 20000 } }\n');
      expect(f).toMatchObject({ token: '20000' });
    });
    it('takes a threshold from the settings', async () => {
      const dir = await writeRepo({ 'm/config.pbtxt': config(5000), 'tritonc.config.json': JSON.stringify({ rules: { 'queue-delay': ['warn', { threshold: '2ms' }] } }) });
      const [f] = findings(lintDir(dir), 'queue-delay');
      expect(f!.message).toContain('above 2 ms');
    });
    it('with a latency budget, warns when the delay takes more than a fraction (default 25%) of it', async () => {
      const dir = await writeRepo({ 'm/config.pbtxt': config(8000), 'tritonc.config.json': JSON.stringify({ latencyBudget: '20ms' }) });
      const [f] = findings(lintDir(dir), 'queue-delay');
      expect(f!.message).toBe(
        'max_queue_delay_microseconds: 8000 (8 ms) is 40% of the 20 ms latency budget: a request can wait that long before it even runs. Keep it within 25% (5000 or less), and raise it only while perf_analyzer shows throughput gains within the budget',
      );
      writeFileSync(join(dir, 'tritonc.config.json'), JSON.stringify({ latencyBudget: '100ms' }));
      expect(findings(lintDir(dir), 'queue-delay')).toEqual([]);
    });
    it('can be raised to an error', async () => {
      const [f] = await check('queue-delay', config(50000), undefined, { ruleLevels: { 'queue-delay': 'error' } });
      expect(f!.severity).toBe('error');
    });
  });
});

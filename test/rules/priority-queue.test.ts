import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'priority-queue';
const HEAD = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

describe(ID, () => {
  describe('valid', () => {
    it('levels, a default level and policies in range', async () => {
      const config = `${HEAD}dynamic_batching {
  priority_levels: 3
  default_priority_level: 2
  priority_queue_policy { key: 1 value: { timeout_action: DELAY default_timeout_microseconds: 100 } }
}
`;
      expect(await lintConfig(ID, config)).toEqual([]);
    });
    it('uint64 extremes (L0_config_json max_priority_level)', async () => {
      const config = `${HEAD}dynamic_batching { priority_levels: 18446744073709551615 default_priority_level: 18446744073709551615 priority_queue_policy { key: 4294967296 value { max_queue_size: 1 } } }\n`;
      expect(await lintConfig(ID, config)).toEqual([]);
    });
    it('preserve_ordering with one level and REJECT, or DELAY without a timeout', async () => {
      const config = `${HEAD}dynamic_batching { preserve_ordering: true priority_levels: 1 default_priority_level: 1 default_queue_policy { timeout_action: DELAY } }\n`;
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('default_priority_level above priority_levels: points at it', async () => {
      const [f, ...rest] = await lintConfig(ID, `${HEAD}dynamic_batching { priority_levels: 3 default_priority_level: 4 }\n`);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 3, token: '4' });
      expect(f!.message).toBe(
        `default_priority_level 4 is outside the 3 priority levels, so Triton refuses the model ("default priority level must be in range [1, 3] for m"); set default_priority_level to a level from 1 to 3`,
      );
    });
    it('default_priority_level missing: points at priority_levels', async () => {
      const [f] = await lintConfig(ID, `${HEAD}dynamic_batching { priority_levels: 3 }\n`);
      expect(f).toMatchObject({ token: '3' });
      expect(f!.message).toMatch(/^default_priority_level is not set \(0\)/);
    });
    it('a policy key outside the levels: points at the key', async () => {
      const [f] = await lintConfig(ID, `${HEAD}dynamic_batching { priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 5 value: { } } }\n`);
      expect(f).toMatchObject({ severity: 'error', token: '5' });
      expect(f!.message).toContain('("priority queue policy must have priority level in range [1, 2] for m")');
    });
    it('preserve_ordering with several levels', async () => {
      const [f] = await lintConfig(ID, `${HEAD}dynamic_batching { preserve_ordering: true priority_levels: 2 default_priority_level: 1 }\n`);
      expect(f).toMatchObject({ token: 'true' });
      expect(f!.message).toContain(`("Only one priority level is allowed when 'preserve_ordering' is true for m")`);
    });
    it('preserve_ordering with a DELAY policy, default or per level: points at DELAY', async () => {
      const config = `${HEAD}dynamic_batching {
  preserve_ordering: true
  default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 10 }
  priority_queue_policy { key: 1 value: { timeout_action: DELAY default_timeout_microseconds: 10 } }
}
`;
      const fs = await lintConfig(ID, config);
      expect(fs.filter((f) => f.severity === 'error').map((f) => [f.line, f.token])).toEqual([[5, 'DELAY'], [6, 'DELAY']]);
      expect(fs[0]!.message).toContain(`("Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for m"); use timeout_action: REJECT`);
    });
    it('policies without priority_levels do nothing: warning', async () => {
      const [f] = await lintConfig(ID, `${HEAD}dynamic_batching { priority_queue_policy { key: 1 value: { } } }\n`);
      expect(f).toMatchObject({ severity: 'warning', token: 'priority_queue_policy' });
    });
  });
});

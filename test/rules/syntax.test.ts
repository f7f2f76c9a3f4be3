import { describe, expect, it } from 'vitest';
import { CLASSIFIER, check, lintModel, ruleIds } from '../lint/harness.js';

describe('syntax', () => {
  it('valid: a config that parses', async () => {
    expect(await check('syntax', 'name: "m"\nmax_batch_size: 8\n')).toEqual([]);
  });
  it('invalid: parse errors are errors at their token, and no other rule runs on the file', async () => {
    const config = 'name: "m"\nmax_batch_size: eight\ninput { name: "x" dims: [1, 3, 224, 224] }\n';
    const f = await check('syntax', config);
    expect(f[0]).toMatchObject({ severity: 'error', line: 2, column: 17, token: 'eight' });
    expect(f[0]!.message).toContain('Expected integer');
    const { result } = await lintModel(config, CLASSIFIER);
    expect(ruleIds(result)).toEqual(['syntax']);
  });
  it('cannot be turned off or suppressed', async () => {
    const config = '# tritonc-disable syntax\nname: 1\n';
    expect(await check('syntax', config)).toHaveLength(1);
  });
});

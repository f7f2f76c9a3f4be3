import { describe, expect, it } from 'vitest';
import { check } from '../lint/harness.js';

describe('invalid-suppression', () => {
  it('valid: suppressions naming real rules', async () => {
    expect(await check('invalid-suppression', '# tritonc-disable queue-delay -- batch-heavy offline model\nname: "m"\n')).toEqual([]);
  });
  it('invalid: an unknown id, pointed at in the comment, with a suggestion', async () => {
    const config = 'name: "m"\n# tritonc-disable-next-line queue-dealy, io-shape -- reason\nmax_batch_size: 8\n';
    const [f, ...rest] = await check('invalid-suppression', config);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'warning', line: 2, token: 'queue-dealy' });
    expect(f!.message).toBe("'queue-dealy' is not a tritonc rule, so this suppression does nothing; did you mean 'queue-delay'?");
  });
});

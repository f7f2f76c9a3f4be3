// What verify says when a model fails at batch 1 with the sizes it sent (input-sizes.ts sizesMessage).
import { describe, expect, it } from 'vitest';
import { sizesMessage } from '../../src/verify/input-sizes.js';

const ERROR = "Triton: inference failed: shape '[1, 1, 16]' is invalid for input of size 16";

describe('verify: the advice when a model fails at batch 1', () => {
  it('dims that start with -1 under batching: the batch axis may be in the request twice, and --shape is not the fix', () => {
    // A PyTorch model served by Triton, whose config copied the batch axis into dims: Triton sends
    // [1] + dims, the model gets [1, 1, 16] and fails; no --shape changes that.
    const m = sizesMessage('at batch 1', ERROR, [{ name: 'x', dims: [-1, 16] }], new Map(), 1, true);
    expect(m).toContain(
      "input 'x' has dims [-1,16], which start with -1: if that is the batch axis, it is in the request twice (Triton sends [1] + dims, [1,1,16]), so set dims: [16]",
    );
    expect(m.indexOf('set dims: [16]')).toBeLessThan(m.indexOf('--shape'));
  });

  it('without batching a leading -1 is no batch axis: --shape as before', () => {
    const m = sizesMessage('at its fixed shape', ERROR, [{ name: 'x', dims: [-1, 16] }], new Map(), 1, false);
    expect(m).not.toContain('twice');
    expect(m).toContain('pass --shape x:16,16');
  });

  it('dims that do not start with -1 (a variable length): --shape as before', () => {
    const m = sizesMessage('at batch 1', ERROR, [{ name: 'signal', dims: [1, -1] }], new Map(), 1, true);
    expect(m).not.toContain('twice');
    expect(m).toContain('pass --shape signal:1,16');
  });
});

import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/util/line-diff.js';

describe('lineDiff', () => {
  it('shows a changed line as - then +, as diff does, with context', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc')).toEqual(['  a', '- b', '+ B', '  c']);
    expect(lineDiff('x\nmax_batch_size: 2\ny', 'x\nmax_batch_size: 8\nextra\ny')).toEqual([
      '  x',
      '- max_batch_size: 2',
      '+ max_batch_size: 8',
      '+ extra',
      '  y',
    ]);
  });
  it('elides unchanged runs beyond the context', () => {
    expect(lineDiff('1\n2\n3\n4\n5\n6\n7', '1\n2\n3\n4\n5\n6\nX', 1)).toEqual(['  ...', '  6', '- 7', '+ X']);
  });
});

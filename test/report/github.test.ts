import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../../src/report/github.js';
import { CWD, sampleResult } from './fixtures.js';

describe('github annotations', () => {
  it('one workflow command per problem, paths relative to the workspace, escaped per @actions/core', () => {
    expect(formatGithub(sampleResult(), { cwd: '/elsewhere', workspace: CWD }).split('\n')).toEqual([
      '::error file=models/resnet/config.pbtxt,line=4,endLine=4,col=54,endColumn=55,title=tritonc(batch-dim-in-dims)::dims [1,3,224,224] include the batch axis; with max_batch_size: 8 Triton expects dims [3,224,224]',
      '::warning file=models/resnet/config.pbtxt,line=6,endLine=6,col=50,endColumn=55,title=tritonc(queue-delay)::max_queue_delay_microseconds: 50000 (50 ms) lets a request wait up to 50 ms, 100%25 sure',
      '::notice file=models/resnet/config.pbtxt,line=9,endLine=9,col=40,endColumn=46,title=tritonc(fp16-accuracy)::precision_mode FP16 runs the model%0Ain reduced precision',
      '',
    ]);
  });
  it('escapes', () => {
    expect(escapeData('50% a\r\nb: c, d')).toBe('50%25 a%0D%0Ab: c, d');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
  });
});

// The decisions every deploy target shares (src/deploy/plan.ts), the GPUs instance groups need
// (src/triton/gpu-count.ts requiredGpus, what core's ValidateInstanceGroup requires of the host), and
// the words deploy writes where another program reads them again (the chart's unquoted serverArgs,
// the kubelet's $(VAR) expansion).
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { requiredGpus } from '../../src/triton/gpu-count.js';
import { nameProblem, suggestName } from '../../src/deploy/plan.js';
import { chartWord } from '../../src/deploy/helm.js';
import { kubeletWord } from '../../src/deploy/yaml-text.js';

describe('requiredGpus', () => {
  it.each([
    ['no instance group', {}, { count: 0 }],
    ['KIND_GPU listing none: one', { instance_group: [{ kind: 'KIND_GPU' }] }, { count: 1, group: 'm_0' }],
    [
      'the highest id listed, plus one',
      {
        instance_group: [
          { name: 'a', kind: 'KIND_GPU', gpus: [1] },
          { name: 'b', gpus: [0, 3] },
        ],
      },
      { count: 4, group: 'b' },
    ],
    ['KIND_CPU and KIND_MODEL need none', { instance_group: [{ kind: 'KIND_CPU', gpus: [5] }, { kind: 'KIND_MODEL' }] }, { count: 0 }],
    ['KIND_AUTO listing none runs on the CPU where there is no GPU', { instance_group: [{ kind: 'KIND_AUTO' }] }, { count: 0 }],
  ] as const)('%s', (_, groups, expected) => {
    expect(requiredGpus({ name: 'm', ...groups } as never)).toEqual(expected);
  });
});

describe('the name', () => {
  it('takes a DNS-1035 label and refuses anything else with one', () => {
    expect(nameProblem('triton-2')).toBeUndefined();
    expect(nameProblem('a'.repeat(63))).toBeUndefined();
    expect(nameProblem('a'.repeat(64))).toMatch(/is 64 characters long, more than the 63 of a DNS-1035 label.*; use --name a{63}$/);
    for (const bad of ['2nd', 'Triton', 'tri_ton', 'triton-', '', 'a\nb', 'a;rm -rf ~'])
      expect(nameProblem(bad), bad).toMatch(/is not a DNS-1035 label .*; use --name [a-z]([-a-z0-9]*[a-z0-9])?$/);
  });

  it('is made of a directory name', () => {
    expect(suggestName('2nd_Repo.v1')).toBe('nd-repo-v1');
    expect(suggestName('model_repository')).toBe('model-repository');
    expect(suggestName('___')).toBe('triton');
    expect(suggestName(`x${'-'.repeat(70)}y`)).toBe('x');
  });
});

describe('words read again by another program', () => {
  const HOSTILE = [
    '--load-model=plain',
    '--load-model=a: b',
    '--load-model=#x',
    '--load-model=x #y',
    '--load-model=ends:',
    'true',
    '- x',
    "'quoted'",
    '"double"',
    'back\\slash',
    'line\nbreak',
    'tab\there',
    'nul\u0000',
    'nel\u0085 and bom\ufeff',
    'emoji 🙂',
    '{a: 1}',
    '[1, 2]',
    '*alias',
    '&anchor x',
    '!tag x',
    '%directive',
    '@at',
    '`tick`',
    '',
    ' lead and trail ',
  ];

  it("a serverArgs entry written into the chart's manifest unquoted reads back as the word", () => {
    for (const word of HOSTILE) expect(parse(`- ${chartWord(word)}\n`), JSON.stringify(word)).toEqual([word]);
    // A plain word stays as it is.
    expect(chartWord('--model-repository=s3://bucket/path')).toBe('--model-repository=s3://bucket/path');
  });

  it('the kubelet reads $$ as $, so every $ is doubled and $(VAR) is not expanded', () => {
    expect(kubeletWord('--load-model=$(HOME)$$x$')).toBe('--load-model=$$(HOME)$$$$x$$');
  });
});

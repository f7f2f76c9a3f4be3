import { describe, expect, it } from 'vitest';
import { testRule } from '../support/rule-tester.js';
import { lintModel, tokenAt } from '../lint/harness.js';

// The rule tester lints with the rule under test only, so the ids its cases know are this rule's
// own; a suggestion among the other rules is checked below with the engine's rules (harness lintModel).
testRule('invalid-suppression', {
  valid: [
    { name: 'a suppression naming a rule that exists', config: '# tritonc-disable invalid-suppression -- reason\nname: "m"\n' },
    { name: 'a suppression of every rule', config: 'name: "m"\n# tritonc-disable-next-line\nmax_batch_size: 8\n' },
  ],
  invalid: [
    {
      name: 'an unknown id close to a rule: pointed at in the comment, with a suggestion --fix does not take',
      config: 'name: "m"\n# tritonc-disable-next-line invalid-supression -- reason\nmax_batch_size: 8\n',
      errors: [
        {
          messageId: 'unknownRuleDidYouMean',
          severity: 'warning',
          line: 2,
          token: 'invalid-supression',
          data: { id: 'invalid-supression', suggestion: 'invalid-suppression' },
        },
      ],
      suggestions: ['name: "m"\n# tritonc-disable-next-line invalid-suppression -- reason\nmax_batch_size: 8\n'],
      output: null,
    },
    {
      name: 'an unknown id like no rule: no suggestion, no fix',
      config: 'name: "m"\n# tritonc-disable-next-line no-such-thing-at-all -- reason\nmax_batch_size: 8\n',
      errors: [{ messageId: 'unknownRule', severity: 'warning', line: 2, token: 'no-such-thing-at-all', data: { id: 'no-such-thing-at-all' } }],
      output: null,
    },
  ],
});

describe('invalid-suppression with every rule', () => {
  it('valid: suppressions naming real rules', async () => {
    const { result } = await lintModel('# tritonc-disable queue-delay -- batch-heavy offline model\nname: "m"\n');
    expect(result.results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === 'invalid-suppression')).toEqual([]);
  });
  it('invalid: an unknown id, with the rule it is a typo of', async () => {
    const config = 'name: "m"\n# tritonc-disable-next-line queue-dealy, io-shape -- reason\nmax_batch_size: 8\n';
    const { result } = await lintModel(config);
    const found = result.results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === 'invalid-suppression');
    expect(found.map((d) => [d.messageId, d.severity, d.range.start.line, tokenAt(config, d), d.data])).toEqual([
      ['unknownRuleDidYouMean', 'warning', 2, 'queue-dealy', { id: 'queue-dealy', suggestion: 'queue-delay' }],
    ]);
  });
});

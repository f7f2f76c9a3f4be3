import { describe, expect, it } from 'vitest';
import { testRule } from '../support/rule-tester.js';
import { check, lintModel, tokenAt } from '../lint/harness.js';

// The rule tester lints with the rule under test only, so a suppression in its cases names this rule
// (the only one it knows); whether a directive suppressed another rule's finding is checked below
// with the engine's rules (harness `check`).
const ON = { rules: { 'unused-suppression': 'warn' } };
const delayed = (delay: number) =>
  `name: "m"\nmax_batch_size: 8\n# tritonc-disable-next-line queue-delay -- offline batch model\ndynamic_batching { max_queue_delay_microseconds: ${delay} }\n`;

testRule('unused-suppression', {
  valid: [
    { name: 'is off by default', config: 'name: "m"\n# tritonc-disable-next-line unused-suppression -- reason\nmax_batch_size: 8\n' },
    { name: 'a config without suppressions', config: 'name: "m"\n', settings: ON },
  ],
  invalid: [
    {
      name: 'a rule named in a suppression reports nothing there: on its id',
      config: 'name: "m"\n# tritonc-disable-next-line unused-suppression -- reason\nmax_batch_size: 8\n',
      settings: ON,
      errors: [{ messageId: 'unusedRule', severity: 'warning', line: 2, token: 'unused-suppression', data: { id: 'unused-suppression' } }],
      output: null,
    },
    {
      name: 'a suppression of every rule that suppresses nothing: removed by --fix',
      config: 'name: "m"\n# tritonc-disable-next-line\nmax_batch_size: 8\n',
      settings: ON,
      errors: [{ messageId: 'unused', severity: 'warning', line: 2 }],
      output: 'name: "m"\nmax_batch_size: 8\n',
    },
  ],
});

describe('unused-suppression with the rule it names', () => {
  it('is off by default', async () => {
    expect(await check('unused-suppression', delayed(100))).toEqual([]);
  });
  it('valid: a suppression that suppresses something', async () => {
    expect(await check('unused-suppression', delayed(50000), undefined, { ruleLevels: { 'unused-suppression': 'warning' } })).toEqual([]);
  });
  it('invalid: a suppression with nothing to suppress', async () => {
    const config = delayed(100);
    const { result } = await lintModel(config, undefined, { ruleLevels: { 'unused-suppression': 'warning' } });
    const found = result.results.flatMap((r) => r.diagnostics).filter((d) => d.ruleId === 'unused-suppression');
    expect(found.map((d) => [d.messageId, d.severity, d.range.start.line, tokenAt(config, d), d.data])).toEqual([
      ['unusedRule', 'warning', 3, 'queue-delay', { id: 'queue-delay' }],
    ]);
  });
});

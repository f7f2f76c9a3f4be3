import { describe, expect, it } from 'vitest';
import { CLASSIFIER, lintModel, ruleIds } from '../lint/harness.js';
import { findingsOf, testRule } from '../support/rule-tester.js';

const BROKEN = 'name: "m"\nmax_batch_size: eight\ninput { name: "x" dims: [1, 3, 224, 224] }\n';

testRule('syntax', {
  valid: [
    { name: 'a config that parses', config: 'name: "m"\nmax_batch_size: 8\n' },
    { name: 'a placeholder inside a string parses (unfilled-placeholder says what it does)', config: 'name: "m"\nbackend: "${triton_backend}"\n' },
  ],
  invalid: [
    {
      name: 'a template: one placeholder where a value goes is all that stops the parse',
      config: 'name: "m"\nmax_batch_size: ${max_batch_size}\n',
      errors: [{ messageId: 'templateOne', severity: 'info', line: 2, token: '${max_batch_size}', data: { count: 1, names: '${max_batch_size}', file: 'm/config.pbtxt', placeholders: ['${max_batch_size}'] } }],
    },
    {
      name: 'a template with several placeholders: named once each, the first three shown',
      config: 'max_batch_size: ${a}\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ ${b} ] } ]\ndynamic_batching { max_queue_delay_microseconds: ${c} }\ninstance_group [ { count: ${d} } ]\nmodel_warmup [ { batch_size: ${a} } ]\n',
      errors: [{ messageId: 'template', severity: 'info', line: 1, token: '${a}', data: { count: 5, names: '${a}, ${b}, ${c}, ...', placeholders: ['${a}', '${b}', '${c}', '${d}'] } }],
    },
  ],
});

// The parser's message is the value of parseError's {{text}}: it names the token and what was
// expected, as protobuf's text parser does, so it is wording to the tester; these cases are
// checked by their findings' data.
describe('syntax: parse errors', () => {
  it('are errors at their token', () => {
    const found = findingsOf('syntax', { name: 'broken', config: BROKEN });
    expect(found.map((d) => ({ messageId: d.messageId, severity: d.severity, line: d.range.start.line, column: d.range.start.column, code: d.data?.code }))).toEqual([
      { messageId: 'parseError', severity: 'error', line: 2, column: 17, code: 'expected-integer' },
    ]);
    expect(found[0]!.data?.text).toContain('Expected integer');
  });

  it('an unknown field, with a did-you-mean', () => {
    const found = findingsOf('syntax', { name: 'unknown field', config: 'input { name: "input" data_tyep: TYPE_FP32 }\n' });
    expect(found).toMatchObject([{ messageId: 'parseError', severity: 'error', range: { start: { line: 1, column: 23 } } }]);
  });

  it('cannot be turned off or suppressed', () => {
    expect(findingsOf('syntax', { name: 'suppressed', config: '# tritonc-disable syntax\nname: 1\n' })).toMatchObject([{ messageId: 'parseError' }]);
  });

  it('no other rule runs on the file', async () => {
    const { result } = await lintModel(BROKEN, CLASSIFIER);
    expect(ruleIds(result)).toEqual(['syntax']);
  });
});

import { testRule } from '../support/rule-tester.js';

const config = (delay: number) => `name: "m"\nmax_batch_size: 8\ndynamic_batching { max_queue_delay_microseconds: ${delay} }\n`;

testRule('queue-delay', {
  valid: [
    { name: 'a delay within the default 10 ms threshold', config: config(5000) },
    { name: 'a delay at the default 10 ms threshold', config: config(10000) },
    { name: 'no delay at all', config: 'max_batch_size: 8\ndynamic_batching { }\n' },
    { name: 'within 25% of a latency budget', config: config(8000), settings: { latencyBudget: '100ms' } },
  ],
  invalid: [
    {
      name: 'warns above 10 ms, on the value, in ms',
      config: config(50000),
      errors: [
        {
          messageId: 'delayOverThreshold',
          severity: 'warning',
          token: '50000',
          line: 3,
          path: ['dynamic_batching', 'max_queue_delay_microseconds'],
          data: { delayUs: 50000, delay: '50 ms', threshold: '10 ms', thresholdUs: 10000 },
        },
      ],
      output: null,
    },
    {
      name: 'checks the sequence batcher strategies too',
      config: 'max_batch_size: 8\nsequence_batching { oldest { max_queue_delay_microseconds: 20000 } }\n',
      errors: [
        {
          messageId: 'delayOverThreshold',
          token: '20000',
          path: ['sequence_batching', 'oldest', 'max_queue_delay_microseconds'],
          data: { delayUs: 20000, delay: '20 ms' },
        },
      ],
    },
    {
      name: 'takes a threshold from the settings',
      config: config(5000),
      settings: { rules: { 'queue-delay': ['warn', { threshold: '2ms' }] } },
      errors: [{ messageId: 'delayOverThreshold', data: { delayUs: 5000, threshold: '2 ms', thresholdUs: 2000 } }],
    },
    {
      name: 'with a latency budget, warns when the delay takes more than a fraction (default 25%) of it',
      config: config(8000),
      settings: { latencyBudget: '20ms' },
      errors: [
        {
          messageId: 'delayOverBudget',
          severity: 'warning',
          token: '8000',
          data: { delayUs: 8000, delay: '8 ms', percent: 40, budget: '20 ms', budgetUs: 20000, fractionPercent: 25, limit: 5000, limitUs: 5000 },
        },
      ],
      output: null,
    },
    {
      name: 'can be raised to an error',
      config: config(50000),
      options: { ruleLevels: { 'queue-delay': 'error' } },
      errors: [{ messageId: 'delayOverThreshold', severity: 'error' }],
    },
  ],
});

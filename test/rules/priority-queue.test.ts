import { testRule } from '../support/rule-tester.js';

const HEAD = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

testRule('priority-queue', {
  valid: [
    {
      name: 'levels, a default level and policies in range',
      config: `${HEAD}dynamic_batching {
  priority_levels: 3
  default_priority_level: 2
  priority_queue_policy { key: 1 value: { timeout_action: DELAY default_timeout_microseconds: 100 } }
}
`,
    },
    {
      name: 'uint64 extremes (L0_config_json max_priority_level)',
      config: `${HEAD}dynamic_batching { priority_levels: 18446744073709551615 default_priority_level: 18446744073709551615 priority_queue_policy { key: 4294967296 value { max_queue_size: 1 } } }\n`,
    },
    {
      name: 'preserve_ordering with one level and REJECT, or DELAY without a timeout',
      config: `${HEAD}dynamic_batching { preserve_ordering: true priority_levels: 1 default_priority_level: 1 default_queue_policy { timeout_action: DELAY } }\n`,
    },
  ],
  invalid: [
    {
      name: 'default_priority_level above priority_levels: points at it',
      config: `${HEAD}dynamic_batching { priority_levels: 3 default_priority_level: 4 }\n`,
      errors: [
        {
          messageId: 'defaultLevelOutOfRange',
          severity: 'error',
          line: 3,
          token: '4',
          path: ['dynamic_batching', 'default_priority_level'],
          data: { defaultPriorityLevel: '4', priorityLevels: '3', levels: 3n, name: 'm' },
        },
      ],
      output: null,
    },
    {
      name: 'default_priority_level missing: points at priority_levels',
      config: `${HEAD}dynamic_batching { priority_levels: 3 }\n`,
      errors: [
        {
          messageId: 'defaultLevelUnset',
          token: '3',
          path: ['dynamic_batching', 'priority_levels'],
          data: { defaultPriorityLevel: '0', priorityLevels: '3', name: 'm' },
        },
      ],
    },
    {
      name: 'a policy key outside the levels: points at the key',
      config: `${HEAD}dynamic_batching { priority_levels: 2 default_priority_level: 1 priority_queue_policy { key: 5 value: { } } }\n`,
      errors: [{ messageId: 'policyLevelOutOfRange', severity: 'error', token: '5', data: { level: '5', key: '5', priorityLevels: '2', name: 'm' } }],
    },
    {
      name: 'preserve_ordering with several levels',
      config: `${HEAD}dynamic_batching { preserve_ordering: true priority_levels: 2 default_priority_level: 1 }\n`,
      errors: [{ messageId: 'orderingWithLevels', token: 'true', data: { priorityLevels: '2', name: 'm' } }],
    },
    {
      name: 'preserve_ordering with a DELAY policy, default or per level: points at DELAY',
      config: `${HEAD}dynamic_batching {
  preserve_ordering: true
  default_queue_policy { timeout_action: DELAY default_timeout_microseconds: 10 }
  priority_queue_policy { key: 1 value: { timeout_action: DELAY default_timeout_microseconds: 10 } }
}
`,
      errors: [
        { messageId: 'delayWithOrdering', severity: 'error', line: 5, token: 'DELAY', data: { default_timeout_microseconds: '10', name: 'm' } },
        { messageId: 'policyWithoutLevels', severity: 'warning', line: 6, token: 'priority_queue_policy' },
        {
          messageId: 'delayWithOrdering',
          severity: 'error',
          line: 6,
          token: 'DELAY',
          path: ['dynamic_batching', 'priority_queue_policy', '1', 'timeout_action'],
        },
      ],
    },
    {
      name: 'policies without priority_levels do nothing: warning',
      config: `${HEAD}dynamic_batching { priority_queue_policy { key: 1 value: { } } }\n`,
      errors: [{ messageId: 'policyWithoutLevels', severity: 'warning', token: 'priority_queue_policy' }],
    },
  ],
});

import { testRule } from '../support/rule-tester.js';

const ORT = 'backend: "onnxruntime"\n';

testRule('preferred-batch-size', {
  valid: [
    {
      name: 'TensorRT models get no note (multiple optimization profiles are the documented exception)',
      config: 'platform: "tensorrt_plan"\nmax_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 8 ] }\n',
    },
    { name: 'no preferred sizes', config: `${ORT}max_batch_size: 8\ndynamic_batching { }\n` },
    {
      name: 'sequence batching oldest within max_batch_size',
      config: `${ORT}max_batch_size: 8\nsequence_batching { oldest { preferred_batch_size: [ 2, 8 ] } }\n`,
    },
  ],
  invalid: [
    {
      name: 'sizes within max_batch_size: only the docs note, as info, on the field',
      config: `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 8 ] }\n`,
      errors: [{ messageId: 'preferredUsuallyUnneeded', severity: 'info', token: 'preferred_batch_size', data: { sizes: [4, 8] } }],
    },
    {
      name: 'a size above max_batch_size: points at the size',
      config: `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 4, 16 ] }\n`,
      errors: [
        {
          messageId: 'aboveMaxBatchSize',
          severity: 'error',
          line: 3,
          token: '16',
          path: ['dynamic_batching', 'preferred_batch_size', 1],
          data: { size: 16, maxBatchSize: 8, largest: 16, name: 'm', field: 'dynamic_batching.preferred_batch_size' },
        },
      ],
      output: null,
    },
    {
      name: 'the ordering trap: max_batch_size omitted, checked before auto-complete would raise it',
      config: `${ORT}dynamic_batching { preferred_batch_size: [ 4 ] }\n`,
      errors: [{ messageId: 'aboveUnsetMaxBatchSize', severity: 'error', token: '4', data: { size: 4, maxBatchSize: 0, largest: 4, name: 'm' } }],
    },
    {
      name: 'max_batch_size: 0 written out',
      config: `${ORT}max_batch_size: 0\ndynamic_batching { preferred_batch_size: [ 2, 4 ] }\n`,
      errors: [
        { messageId: 'aboveZeroMaxBatchSize', token: '2', data: { size: 2, maxBatchSize: 0, largest: 4 } },
        { messageId: 'aboveZeroMaxBatchSize', token: '4', data: { size: 4, maxBatchSize: 0, largest: 4 } },
      ],
    },
    {
      name: 'zero or negative sizes',
      config: `${ORT}max_batch_size: 8\ndynamic_batching { preferred_batch_size: [ 0, -2 ] }\n`,
      errors: [
        { messageId: 'notPositive', token: '0', data: { size: 0, name: 'm' } },
        { messageId: 'notPositive', token: '-2', data: { size: -2, name: 'm' } },
      ],
    },
    {
      name: 'sequence batching oldest: both checks, with the sequence batcher messages',
      config: `${ORT}max_batch_size: 4\nsequence_batching { oldest { preferred_batch_size: [ 0, 8 ] } }\n`,
      errors: [
        { messageId: 'oldestNotPositive', token: '0', data: { size: 0, name: 'm', field: 'sequence_batching.oldest.preferred_batch_size' } },
        { messageId: 'oldestAboveMaxBatchSize', token: '8', data: { size: 8, maxBatchSize: 4, largest: 8, name: 'm' } },
      ],
    },
    {
      name: 'sequence batching oldest with max_batch_size omitted',
      config: `${ORT}sequence_batching { oldest { preferred_batch_size: [ 2 ] } }\n`,
      errors: [{ messageId: 'oldestAboveUnsetMaxBatchSize', token: '2', data: { size: 2, maxBatchSize: 0, largest: 2 } }],
    },
    {
      name: 'sequence batching oldest with max_batch_size: 0 written out',
      config: `${ORT}max_batch_size: 0\nsequence_batching { oldest { preferred_batch_size: [ 2 ] } }\n`,
      errors: [{ messageId: 'oldestAboveZeroMaxBatchSize', token: '2', data: { size: 2, maxBatchSize: 0, largest: 2 } }],
    },
  ],
});

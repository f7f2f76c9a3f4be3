import { testRule } from '../support/rule-tester.js';

testRule('max-batch-size', {
  valid: [
    { name: '0', config: 'max_batch_size: 0\n' },
    { name: '8', config: 'max_batch_size: 8\n' },
    { name: 'omitted', config: 'backend: "onnxruntime"\n' },
  ],
  invalid: [
    {
      name: 'negative: points at the value, quoting the model name as Triton does',
      config: 'backend: "onnxruntime"\nmax_batch_size: -2\n',
      errors: [
        { messageId: 'negative', data: { mbs: -2, maxBatchSize: -2, modelName: 'm' }, severity: 'error', line: 2, token: '-2', path: ['max_batch_size'] },
      ],
      output: null,
    },
  ],
});

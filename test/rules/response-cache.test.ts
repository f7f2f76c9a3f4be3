import { testRule } from '../support/rule-tester.js';

const ORT = 'backend: "onnxruntime"\nmax_batch_size: 8\n';

testRule('response-cache', {
  valid: [
    { name: 'cache on a plain model', config: `${ORT}response_cache { enable: true }\n` },
    { name: 'cache disabled on a decoupled model', config: `${ORT}model_transaction_policy { decoupled: true }\nresponse_cache { enable: false }\n` },
    { name: 'sequence batching without cache', config: `${ORT}sequence_batching { }\n` },
  ],
  invalid: [
    {
      name: 'a decoupled model: points at enable',
      config: `${ORT}model_transaction_policy { decoupled: True }\nresponse_cache { enable: true }\n`,
      errors: [{ messageId: 'cacheWithDecoupled', data: { name: 'm' }, severity: 'error', line: 4, token: 'true', path: ['response_cache', 'enable'] }],
      output: null,
    },
    {
      name: 'the sequence batcher',
      config: `${ORT}sequence_batching { }\nresponse_cache { enable: true }\n`,
      errors: [{ messageId: 'cacheWithSequenceBatching', data: { name: 'm' }, severity: 'error', line: 4, token: 'true' }],
    },
    {
      name: 'both: two findings, in the order the engine sorts them',
      config: `name: "m"\n${ORT}sequence_batching { }\nmodel_transaction_policy { decoupled: true }\nresponse_cache { enable: true }\n`,
      errors: [
        { messageId: 'cacheWithDecoupled', data: { name: 'm' }, line: 6 },
        { messageId: 'cacheWithSequenceBatching', data: { name: 'm' }, line: 6 },
      ],
    },
  ],
});

import { testRule } from '../support/rule-tester.js';

const VLLM = { 'v/config.pbtxt': 'backend: "vllm"\n', 'v/1/model.json': '{"model":"x"}' };

testRule('decoupled-clients', {
  valid: [
    { name: 'a model that is not decoupled', config: 'backend: "python"\nmodel_transaction_policy { decoupled: false }\n' },
    { name: 'a vLLM model with auto-complete off', files: VLLM, targets: ['v'], settings: { server: { disableAutoCompleteConfig: true } } },
  ],
  invalid: [
    {
      name: 'notes a decoupled model on its decoupled field',
      files: { 'llm/config.pbtxt': 'backend: "python"\nmodel_transaction_policy { decoupled: true }\n' },
      targets: ['llm'],
      errors: [{ messageId: 'decoupled', severity: 'info', token: 'true', line: 2, data: { name: 'llm' } }],
      output: null,
    },
    {
      name: 'notes a vLLM model, decoupled by auto-complete, on its backend',
      files: VLLM,
      targets: ['v'],
      errors: [{ messageId: 'decoupledByVllm', severity: 'info', token: '"vllm"', path: ['backend'], data: { name: 'v' } }],
    },
  ],
});

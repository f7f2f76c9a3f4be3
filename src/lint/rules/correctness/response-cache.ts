// The response cache cannot serve decoupled models or the sequence batcher (core src/model_config_utils.cc
// ValidateModelConfig): core refuses response_cache { enable: true } with either.
import { defineModelRule } from '../../rule.js';
import { modelName } from '../../backend.js';

export const responseCache = defineModelRule({
  meta: {
    id: 'response-cache',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'response_cache cannot be enabled for decoupled models or with sequence batching',
    prevents: [
      "Response Cache does not currently support model <name> with 'decoupled' transaction policy. Please disable the response cache.",
      'Response Cache does not currently support model <name> with sequence batching scheduler. Please disable the response cache.',
    ],
    messages: {
      cacheWithSequenceBatching: `the response cache cannot serve a model with the sequence batcher (each response depends on the sequence's state), so Triton refuses the model ("Response Cache does not currently support model {{name}} with sequence batching scheduler. Please disable the response cache."); remove response_cache or set enable: false`,
      cacheWithDecoupled: `the response cache cannot serve a decoupled model (it sends any number of responses per request), so Triton refuses the model ("Response Cache does not currently support model {{name}} with 'decoupled' transaction policy. Please disable the response cache."); remove response_cache or set enable: false`,
    },
  },
  check(ctx) {
    const config = ctx.config;
    if (!config.response_cache?.enable) return;
    const name = modelName(ctx);
    if (config.sequence_batching) {
      ctx.report({
        path: ['response_cache', 'enable'],
        messageId: 'cacheWithSequenceBatching',
        data: { name },
      });
    }
    if (config.model_transaction_policy?.decoupled) {
      ctx.report({
        path: ['response_cache', 'enable'],
        messageId: 'cacheWithDecoupled',
        data: { name },
      });
    }
  },
});

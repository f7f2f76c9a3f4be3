// max_batch_size is the largest batch Triton forms; 0 means the model does not batch. A negative
// value is refused before anything else about batching is looked at (core ValidateModelConfig).
import { defineModelRule } from '../../rule.js';
import { modelName } from '../../backend.js';

export const maxBatchSize = defineModelRule({
  meta: {
    id: 'max-batch-size',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'max_batch_size must not be negative',
    prevents: ["'max_batch_size' must be non-negative value for <name>"],
    messages: {
      negative: `max_batch_size {{mbs}} is negative, so Triton refuses the model ("'max_batch_size' must be non-negative value for {{modelName}}"); set the largest batch the model takes (e.g. max_batch_size: 8), or 0 if its inputs have no batch axis`,
    },
  },
  check(ctx) {
    const mbs = ctx.config.max_batch_size;
    if (mbs === undefined || mbs >= 0) return;
    ctx.report({
      path: ['max_batch_size'],
      messageId: 'negative',
      data: { maxBatchSize: mbs, mbs, modelName: modelName(ctx) },
    });
  },
});

// max_queue_delay_microseconds is how long a request may wait for a batch to fill. Triton accepts any
// value, and a large one quietly adds that much latency whenever traffic is light. The tutorial's
// advice: start at 2-5 ms; 50 ms or more trades latency for throughput.
import { z } from 'zod';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule } from '../../rule.js';
import { durationSchema } from '../../settings.js';
import { valueAt } from '../../../config/value-path.js';
import { formatMicroseconds, parseMicroseconds } from '../../units.js';

const options = z.strictObject({
  threshold: durationSchema.default(10_000).describe('Warn above this delay when no latency budget is set (default 10ms).'),
  budgetFraction: z.number().gt(0).lte(1).default(0.25).describe('With a latencyBudget: warn when the delay is more than this fraction of it (default 0.25).'),
});

type Options = z.infer<typeof options>;

/** Where Triton reads a queue delay: the dynamic batcher and both sequence batching strategies. */
const DELAY_PATHS: PathSegment[][] = [
  ['dynamic_batching', 'max_queue_delay_microseconds'],
  ['sequence_batching', 'oldest', 'max_queue_delay_microseconds'],
  ['sequence_batching', 'direct', 'max_queue_delay_microseconds'],
];

export const queueDelay = defineModelRule<Options>({
  meta: {
    id: 'queue-delay',
    category: 'performance',
    defaultSeverity: 'warning',
    requiresModel: false,
    description: 'A long max_queue_delay_microseconds adds that much latency whenever a batch does not fill',
    prevents: [],
    messages: {
      delayOverBudget:
        'max_queue_delay_microseconds: {{delayUs}} ({{delay}}) is {{percent}}% of the {{budget}} latency budget: a request can wait that long before it even runs. Keep it within {{fractionPercent}}% ({{limit}} or less), and raise it only while perf_analyzer shows throughput gains within the budget',
      delayOverThreshold:
        'max_queue_delay_microseconds: {{delayUs}} ({{delay}}) lets a request wait up to {{delay}} for a batch to fill; above {{threshold}} this trades latency for throughput. Start at 2-5 ms (2000-5000) and raise it only while perf_analyzer shows throughput gains within your latency budget (set latencyBudget in tritonc.config.json to check against it)',
    },
    options,
  },
  check(ctx) {
    const threshold = parseMicroseconds(ctx.options.threshold) ?? 10_000;
    const budget = ctx.settings.latencyBudgetUs;
    for (const path of DELAY_PATHS) {
      const raw = valueAt(ctx.config, path);
      if (raw === undefined) continue;
      const delay = Number(raw);
      if (budget !== undefined) {
        const limit = budget * ctx.options.budgetFraction;
        if (delay <= limit) continue;
        ctx.report({
          path,
          messageId: 'delayOverBudget',
          data: {
            delayUs: delay,
            budgetUs: budget,
            limitUs: limit,
            delay: formatMicroseconds(delay),
            percent: Math.round((delay / budget) * 100),
            budget: formatMicroseconds(budget),
            fractionPercent: Math.round(ctx.options.budgetFraction * 100),
            limit: Math.floor(limit),
          },
        });
      } else if (delay > threshold) {
        ctx.report({
          path,
          messageId: 'delayOverThreshold',
          data: { delayUs: delay, thresholdUs: threshold, delay: formatMicroseconds(delay), threshold: formatMicroseconds(threshold) },
        });
      }
    }
  },
});

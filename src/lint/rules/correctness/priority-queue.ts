// Priority levels and queue policies of the dynamic batcher (core model_config_utils.cc ValidateModelConfig): with
// priority_levels set, default_priority_level and every priority_queue_policy key must be in
// [1, priority_levels]; preserve_ordering allows one priority level and no DELAY timeout action.
import type { ModelQueuePolicy } from '../../../config/model-config.js';
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule } from '../../rule.js';
import { modelName } from '../../backend.js';

const big = (v: number | bigint | string | undefined): bigint => {
  try {
    return BigInt(v ?? 0);
  } catch {
    return -1n;
  }
};

export const priorityQueue = defineModelRule({
  meta: {
    id: 'priority-queue',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'priority levels and queue policies must be in range and compatible with preserve_ordering',
    prevents: [
      'default priority level must be in range [1, <priority_levels>] for <name>',
      'priority queue policy must have priority level in range [1, <priority_levels>] for <name>',
      "Only one priority level is allowed when 'preserve_ordering' is true for <name>",
      "Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for <name>",
    ],
    messages: {
      defaultLevelOutOfRange:
        'default_priority_level {{defaultPriorityLevel}} is outside the {{levels}} priority levels, so Triton refuses the model ("default priority level must be in range [1, {{levels}}] for {{name}}"); set default_priority_level to a level from 1 to {{levels}}',
      defaultLevelUnset:
        'default_priority_level is not set (0) is outside the {{levels}} priority levels, so Triton refuses the model ("default priority level must be in range [1, {{levels}}] for {{name}}"); set default_priority_level to a level from 1 to {{levels}}',
      policyLevelOutOfRange:
        'priority_queue_policy key {{key}} is not one of the {{levels}} priority levels, so Triton refuses the model ("priority queue policy must have priority level in range [1, {{levels}}] for {{name}}"); use a key from 1 to {{levels}}',
      policyWithoutLevels:
        'priority_queue_policy has no effect without priority_levels: every request is queued at one level under default_queue_policy; set priority_levels (and default_priority_level), or remove priority_queue_policy',
      orderingWithLevels: `preserve_ordering: true returns responses in arrival order, which {{levels}} priority levels would break, so Triton refuses the model ("Only one priority level is allowed when 'preserve_ordering' is true for {{name}}"); remove preserve_ordering or set priority_levels: 1`,
      delayWithOrdering: `timeout_action: DELAY (with default_timeout_microseconds {{default_timeout_microseconds}}) lets timed-out requests fall behind later ones, which preserve_ordering: true forbids, so Triton refuses the model ("Queue policy can not have DELAY as timeout action when 'preserve_ordering' is true for {{name}}"); use timeout_action: REJECT or remove preserve_ordering`,
    },
  },
  check(ctx) {
    const db = ctx.config.dynamic_batching;
    if (!db) return;
    const name = modelName(ctx);
    const base: PathSegment[] = ['dynamic_batching'];
    const levels = big(db.priority_levels);
    const policies = Object.entries(db.priority_queue_policy ?? {});

    if (levels !== 0n) {
      const dflt = big(db.default_priority_level);
      if (dflt === 0n || dflt > levels) {
        ctx.report({
          path: db.default_priority_level !== undefined ? [...base, 'default_priority_level'] : [...base, 'priority_levels'],
          messageId: db.default_priority_level === undefined ? 'defaultLevelUnset' : 'defaultLevelOutOfRange',
          data: { defaultPriorityLevel: String(dflt), priorityLevels: String(levels), levels, name },
        });
      }
      for (const [key] of policies) {
        const level = big(key);
        if (level === 0n || level > levels) {
          const path = [...base, 'priority_queue_policy', key];
          ctx.report({
            path,
            range: ctx.doc.locate(path)?.name,
            messageId: 'policyLevelOutOfRange',
            data: { level: key, priorityLevels: String(levels), key, levels, name },
          });
        }
      }
    } else if (policies.length) {
      ctx.report({
        path: [...base, 'priority_queue_policy'],
        severity: 'warning',
        messageId: 'policyWithoutLevels',
      });
    }

    if (db.preserve_ordering) {
      if (levels > 1n) {
        ctx.report({
          path: [...base, 'preserve_ordering'],
          messageId: 'orderingWithLevels',
          data: { priorityLevels: String(levels), levels, name },
        });
      }
      const delay = (p: ModelQueuePolicy | undefined, path: PathSegment[]): void => {
        if (!p || big(p.default_timeout_microseconds) === 0n) return;
        if (p.timeout_action !== 'DELAY' && p.timeout_action !== 1) return;
        ctx.report({
          path: [...path, 'timeout_action'],
          messageId: 'delayWithOrdering',
          data: { default_timeout_microseconds: String(p.default_timeout_microseconds), name },
        });
      };
      delay(db.default_queue_policy, [...base, 'default_queue_policy']);
      for (const [key, policy] of policies) delay(policy, [...base, 'priority_queue_policy', key]);
    }
  },
});

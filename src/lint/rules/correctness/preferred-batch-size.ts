// Preferred batch sizes (dynamic_batching, and sequence_batching's oldest strategy) must be positive
// and no larger than max_batch_size (core ValidateModelConfig). Core checks them BEFORE a backend's
// auto-complete runs, so a preferred size with max_batch_size omitted is refused even when the ONNX
// Runtime backend would later have raised max_batch_size to 4: the ordering trap.
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend } from '../../backend.js';
import { maxBatchSize } from '../../tensors.js';
import { maxOf } from '../../../util/arrays.js';
import { isTensorrtPlatform } from '../../../triton/backend-records.js';

const messages = {
  preferredUsuallyUnneeded: `Triton's batcher guide says preferred batch sizes "should not be used for most models": without them the dynamic batcher forms the largest batch it can within max_queue_delay_microseconds; keep preferred_batch_size only if measurements (perf_analyzer) show these sizes are much faster, as with TensorRT engines built with one optimization profile per size`,
  notPositive:
    'dynamic_batching.preferred_batch_size {{size}} is not a batch size, so Triton refuses the model ("dynamic batching preferred size must be positive for {{name}}"); use sizes from 1 to max_batch_size, or remove it',
  aboveMaxBatchSize:
    'dynamic_batching.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is {{maxBatchSize}}, so Triton refuses the model ("dynamic batching preferred size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}}, or drop the sizes above {{maxBatchSize}}',
  aboveUnsetMaxBatchSize: `dynamic_batching.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is not set (0) when Triton checks this, before the backend's auto-complete could raise it, so Triton refuses the model ("dynamic batching preferred size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}} explicitly, or remove preferred_batch_size`,
  aboveZeroMaxBatchSize: `dynamic_batching.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is 0 when Triton checks this, before the backend's auto-complete could raise it, so Triton refuses the model ("dynamic batching preferred size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}} explicitly, or remove preferred_batch_size`,
  // sequence_batching.oldest: the same checks, in the sequence batcher's words.
  oldestNotPositive:
    'sequence_batching.oldest.preferred_batch_size {{size}} is not a batch size, so Triton refuses the model ("sequence batching preferred batch size must be positive for {{name}}"); use sizes from 1 to max_batch_size, or remove it',
  oldestAboveMaxBatchSize:
    'sequence_batching.oldest.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is {{maxBatchSize}}, so Triton refuses the model ("sequence batching preferred batch size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}}, or drop the sizes above {{maxBatchSize}}',
  oldestAboveUnsetMaxBatchSize: `sequence_batching.oldest.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is not set (0) when Triton checks this, before the backend's auto-complete could raise it, so Triton refuses the model ("sequence batching preferred batch size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}} explicitly, or remove preferred_batch_size`,
  oldestAboveZeroMaxBatchSize: `sequence_batching.oldest.preferred_batch_size {{size}} is larger than the largest batch the model takes: max_batch_size is 0 when Triton checks this, before the backend's auto-complete could raise it, so Triton refuses the model ("sequence batching preferred batch size must be <= max batch size for {{name}}"); set max_batch_size: {{largest}} explicitly, or remove preferred_batch_size`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const preferredBatchSize = defineModelRule({
  meta: {
    id: 'preferred-batch-size',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'preferred_batch_size entries must be > 0 and <= max_batch_size (checked before auto-complete)',
    prevents: [
      'dynamic batching preferred size must be positive for <name>',
      'dynamic batching preferred size must be <= max batch size for <name>',
      'sequence batching preferred batch size must be positive for <name>',
      'sequence batching preferred batch size must be <= max batch size for <name>',
    ],
    messages,
  },
  check(ctx) {
    const dynamic = ctx.config.dynamic_batching?.preferred_batch_size;
    if (dynamic?.length) {
      const ok = checkSizes(ctx, dynamic, ['dynamic_batching', 'preferred_batch_size'], DYNAMIC);
      if (ok && !isTensorrtPlatform(settledBackend(ctx).platform)) {
        ctx.report({
          path: ['dynamic_batching', 'preferred_batch_size'],
          severity: 'info',
          messageId: 'preferredUsuallyUnneeded',
          data: { sizes: dynamic },
        });
      }
    }
    const oldest = ctx.config.sequence_batching?.oldest?.preferred_batch_size;
    if (oldest?.length) checkSizes(ctx, oldest, ['sequence_batching', 'oldest', 'preferred_batch_size'], OLDEST);
  },
});

/** Messages of one preferred_batch_size list: dynamic_batching's, or sequence_batching.oldest's. */
const DYNAMIC = { notPositive: 'notPositive', above: 'aboveMaxBatchSize', aboveUnset: 'aboveUnsetMaxBatchSize', aboveZero: 'aboveZeroMaxBatchSize' } as const;
const OLDEST = {
  notPositive: 'oldestNotPositive',
  above: 'oldestAboveMaxBatchSize',
  aboveUnset: 'oldestAboveUnsetMaxBatchSize',
  aboveZero: 'oldestAboveZeroMaxBatchSize',
} as const;

/** Reports each bad size; true when all are fine. */
function checkSizes(ctx: Ctx, sizes: number[], path: PathSegment[], ids: typeof DYNAMIC | typeof OLDEST): boolean {
  const name = modelName(ctx);
  const mbs = maxBatchSize(ctx.config);
  const field = path.join('.');
  let ok = true;
  sizes.forEach((size, i) => {
    if (size <= 0) {
      ok = false;
      ctx.report({
        path: [...path, i],
        messageId: ids.notPositive,
        data: { size, field, name },
      });
    } else if (mbs >= 0 && size > mbs) {
      ok = false;
      // At 0, core checks before the backend's auto-complete could raise max_batch_size.
      const messageId = mbs !== 0 ? ids.above : ctx.config.max_batch_size === undefined ? ids.aboveUnset : ids.aboveZero;
      ctx.report({
        path: [...path, i],
        messageId,
        data: { size, maxBatchSize: mbs, field, name, largest: maxOf(sizes) },
      });
    }
  });
  return ok;
}

// model_metrics (core src/model_config_utils.cc ValidateModelMetrics): every metric_control names a
// metric family and gives histogram buckets. Only nv_inference_first_response_histogram_ms can be
// customized today; Triton logs a warning and ignores any other family.
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule } from '../../rule.js';

const CUSTOMIZABLE = ['nv_inference_first_response_histogram_ms'];

export const modelMetrics = defineModelRule({
  meta: {
    id: 'model-metrics',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'each model_metrics metric_control needs a metric family and non-empty histogram buckets',
    prevents: [
      "metric control must specify 'metric_identifier'",
      "metric identifier must specify non-empty 'family'",
      "metric control must specify 'histogram_options'",
      "histogram options must specify non-empty 'buckets'",
      "Metric family '<family>' in 'metric_identifier' is not a customizable metric in Triton core.",
    ],
    messages: {
      noMetricIdentifier: `this metric_control says no metric, so Triton refuses the model ("metric control must specify 'metric_identifier'"); add metric_identifier { family: "nv_inference_first_response_histogram_ms" }`,
      noFamily: `metric_identifier has no family, so Triton refuses the model ("metric identifier must specify non-empty 'family'"); set family: "nv_inference_first_response_histogram_ms"`,
      familyNotCustomizable: `metric family '{{family}}' cannot be customized, so Triton ignores this metric_control ("Metric family '{{family}}' in 'metric_identifier' is not a customizable metric in Triton core."); the customizable families are {{CUSTOMIZABLE}}`,
      noHistogramOptions: `this metric_control gives no histogram_options, so Triton refuses the model ("metric control must specify 'histogram_options'"); add histogram_options { buckets: [ 100, 500, 2000, 5000 ] }`,
      noBuckets: `histogram_options has no buckets, so Triton refuses the model ("histogram options must specify non-empty 'buckets'"); list the bucket bounds in ms, e.g. buckets: [ 100, 500, 2000, 5000 ]`,
      bucketsNotIncreasing:
        'bucket {{bucket}} does not come after {{previous}}: Prometheus histogram bucket bounds must be strictly increasing; sort the buckets and drop repeats',
    },
  },
  check(ctx) {
    (ctx.config.model_metrics?.metric_control ?? []).forEach((mc, i) => {
      const base: PathSegment[] = ['model_metrics', 'metric_control', i];
      if (!mc.metric_identifier) {
        ctx.report({
          path: base,
          messageId: 'noMetricIdentifier',
        });
      } else if (!mc.metric_identifier.family) {
        ctx.report({
          path: [...base, 'metric_identifier', 'family'],
          messageId: 'noFamily',
        });
      } else if (!CUSTOMIZABLE.includes(mc.metric_identifier.family)) {
        const family = mc.metric_identifier.family;
        ctx.report({
          path: [...base, 'metric_identifier', 'family'],
          severity: 'warning',
          messageId: 'familyNotCustomizable',
          data: { family, CUSTOMIZABLE: CUSTOMIZABLE.join(', ') },
        });
      }
      // Core checks the identifier first: without one it never gets here.
      if (!mc.metric_identifier || !mc.metric_identifier.family) return;
      if (!mc.histogram_options) {
        ctx.report({
          path: base,
          messageId: 'noHistogramOptions',
        });
        return;
      }
      const buckets = mc.histogram_options.buckets ?? [];
      if (!buckets.length) {
        ctx.report({
          path: [...base, 'histogram_options', mc.histogram_options.buckets !== undefined ? 'buckets' : ''].filter((s) => s !== ''),
          messageId: 'noBuckets',
        });
        return;
      }
      const k = buckets.findIndex((b, j) => j > 0 && !(b > buckets[j - 1]!));
      if (k > 0) {
        ctx.report({
          path: [...base, 'histogram_options', 'buckets', k],
          severity: 'warning',
          messageId: 'bucketsNotIncreasing',
          data: { buckets, bucket: buckets[k]!, previous: buckets[k - 1]! },
        });
      }
    });
  },
});

import { testRule } from '../support/rule-tester.js';

const mc = (body: string): string => `backend: "python"\nmodel_metrics { metric_control [ { ${body} } ] }\n`;
const FAMILY = 'metric_identifier { family: "nv_inference_first_response_histogram_ms" }';
const CONTROL = ['model_metrics', 'metric_control', 0];

testRule('model-metrics', {
  valid: [
    { name: 'the customizable family with buckets', config: mc(`${FAMILY} histogram_options { buckets: [ 1, 2, 4, 8 ] }`) },
    { name: 'no model_metrics', config: 'backend: "python"\n' },
  ],
  invalid: [
    {
      name: 'no metric_identifier: points at the metric_control',
      config: mc('histogram_options { buckets: [ 1 ] }'),
      errors: [{ messageId: 'noMetricIdentifier', severity: 'error', line: 2, path: CONTROL }],
    },
    {
      name: 'an empty family',
      config: mc('metric_identifier { family: "" } histogram_options { buckets: [ 1 ] }'),
      errors: [{ messageId: 'noFamily', severity: 'error', token: '""', path: [...CONTROL, 'metric_identifier', 'family'] }],
    },
    {
      name: 'no histogram_options',
      config: mc(FAMILY),
      errors: [{ messageId: 'noHistogramOptions', severity: 'error', path: CONTROL }],
    },
    {
      name: 'empty buckets: at buckets',
      config: mc(`${FAMILY} histogram_options { buckets: [ ] }`),
      errors: [{ messageId: 'noBuckets', severity: 'error', path: [...CONTROL, 'histogram_options', 'buckets'] }],
    },
    {
      name: 'no buckets: at histogram_options',
      config: mc(`${FAMILY} histogram_options { }`),
      errors: [{ messageId: 'noBuckets', path: [...CONTROL, 'histogram_options'] }],
    },
    {
      name: 'a family Triton cannot customize: warning',
      config: mc('metric_identifier { family: "nv_inference_request_success" } histogram_options { buckets: [ 1 ] }'),
      errors: [
        {
          messageId: 'familyNotCustomizable',
          severity: 'warning',
          token: '"nv_inference_request_success"',
          data: { family: 'nv_inference_request_success', CUSTOMIZABLE: 'nv_inference_first_response_histogram_ms' },
        },
      ],
    },
    {
      name: 'buckets out of order: warning at the first one out of place',
      config: mc(`${FAMILY} histogram_options { buckets: [ 1, 8, 4 ] }`),
      errors: [{ messageId: 'bucketsNotIncreasing', severity: 'warning', token: '4', data: { bucket: 4, previous: 8, buckets: [1, 8, 4] } }],
    },
  ],
});

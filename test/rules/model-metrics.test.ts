import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'model-metrics';
const mc = (body: string): string => `backend: "python"\nmodel_metrics { metric_control [ { ${body} } ] }\n`;
const FAMILY = 'metric_identifier { family: "nv_inference_first_response_histogram_ms" }';

describe(ID, () => {
  describe('valid', () => {
    it('the customizable family with buckets', async () => {
      expect(await lintConfig(ID, mc(`${FAMILY} histogram_options { buckets: [ 1, 2, 4, 8 ] }`))).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('no metric_identifier: points at the metric_control', async () => {
      const [f, ...rest] = await lintConfig(ID, mc('histogram_options { buckets: [ 1 ] }'));
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 2 });
      expect(f!.message).toBe(
        `this metric_control says no metric, so Triton refuses the model ("metric control must specify 'metric_identifier'"); add metric_identifier { family: "nv_inference_first_response_histogram_ms" }`,
      );
    });
    it('an empty family', async () => {
      const [f] = await lintConfig(ID, mc('metric_identifier { family: "" } histogram_options { buckets: [ 1 ] }'));
      expect(f).toMatchObject({ token: '""' });
      expect(f!.message).toContain(`("metric identifier must specify non-empty 'family'")`);
    });
    it('no histogram_options, and no buckets', async () => {
      expect((await lintConfig(ID, mc(FAMILY)))[0]!.message).toContain(`("metric control must specify 'histogram_options'")`);
      const [f] = await lintConfig(ID, mc(`${FAMILY} histogram_options { buckets: [ ] }`));
      expect(f!.message).toContain(`("histogram options must specify non-empty 'buckets'")`);
    });
    it('a family Triton cannot customize: warning', async () => {
      const [f] = await lintConfig(ID, mc('metric_identifier { family: "nv_inference_request_success" } histogram_options { buckets: [ 1 ] }'));
      expect(f).toMatchObject({ severity: 'warning', token: '"nv_inference_request_success"' });
      expect(f!.message).toContain(`("Metric family 'nv_inference_request_success' in 'metric_identifier' is not a customizable metric in Triton core.")`);
    });
    it('buckets out of order: warning at the first one out of place', async () => {
      const [f] = await lintConfig(ID, mc(`${FAMILY} histogram_options { buckets: [ 1, 8, 4 ] }`));
      expect(f).toMatchObject({ severity: 'warning', token: '4' });
    });
  });
});

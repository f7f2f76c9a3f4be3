// max_inflight_requests' meaning by release (core a02b0c0 in r26.04: one limiter per step shared by all
// of the ensemble's requests; r25.11 to r26.03: one per ensemble request).
import { testRule } from '../support/rule-tester.js';

const ensemble = (limit: string) =>
  `platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\nensemble_scheduling {\n  ${limit}\n  step [ { model_name: "m" model_version: -1 input_map { key: "x" value: "x" } output_map { key: "y" value: "y" } } ]\n}\n`;

testRule('ensemble-inflight-limit', {
  valid: [
    { name: 'a limit in 26.03: each ensemble request has its own', config: ensemble('max_inflight_requests: 4'), settings: { triton: '26.03' } },
    { name: 'no limit (0) in 26.08', config: ensemble('max_inflight_requests: 0'), settings: { triton: '26.08' } },
    { name: 'no field', config: ensemble(''), settings: { triton: '26.08' } },
  ],
  invalid: [
    {
      name: 'a limit in 26.04: shared by all requests from here on',
      config: ensemble('max_inflight_requests: 4'),
      settings: { triton: '26.04' },
      errors: [{ messageId: 'sharedLimit', data: { limit: 4, release: '26.04' }, severity: 'info', token: '4' }],
    },
    {
      name: 'the same in 26.08',
      config: ensemble('max_inflight_requests: 16'),
      settings: { triton: '26.08' },
      errors: [{ messageId: 'sharedLimit', data: { limit: 16, release: '26.08' } }],
    },
  ],
});

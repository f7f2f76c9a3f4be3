// Each ModelConfig field that arrived after 24.05 (triton/schema-releases.ts, read from common's
// protobuf/model_config.proto at each release branch), at the release before it (refused) and the
// release it arrived in (read). The line:column is protobuf's (the token after the name; a tab to the
// next multiple of 8, bytes not characters): 2.51's own answer for model_metrics is in
// test/server/field-release-real-triton.test.ts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { parseTarget } from '../../src/triton/releases/target.js';
import { testRule } from '../support/rule-tester.js';
import { tempDir } from '../support/temp.js';

const METRICS =
  'model_metrics { metric_control [ { metric_identifier { family: "nv_inference_first_response_histogram_ms" } histogram_options { buckets: [ 1, 10 ] } } ] }\n';
const ENSEMBLE =
  'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\nensemble_scheduling {\n  step [ { model_name: "a" model_version: -1 input_map { key: "x" value: "IN" } output_map { key: "y" value: "OUT" } } ]\n  max_inflight_requests: 4\n}\n';
const NON_LINEAR =
  'platform: "tensorrt_plan"\nmax_batch_size: 8\ninput [ { name: "a" data_type: TYPE_FP16 dims: [ 8 ] }, { name: "b" data_type: TYPE_FP16 dims: [ 8 ] is_non_linear_format_io: true } ]\noutput [ { name: "y" data_type: TYPE_FP16 dims: [ 8 ] is_non_linear_format_io: true } ]\n';
const at = (triton: string) => ({ settings: { triton } });

testRule('field-release', {
  valid: [
    { name: 'model_metrics in 24.11, the release it arrived', config: `backend: "python"\n${METRICS}`, ...at('24.11') },
    { name: 'model_metrics with no target: the newest release', config: `backend: "python"\n${METRICS}` },
    { name: 'max_inflight_requests in 25.11, the release it arrived', config: ENSEMBLE, ...at('25.11') },
    { name: 'is_non_linear_format_io in 24.08, the release it arrived', config: NON_LINEAR, ...at('24.08') },
    { name: 'a config of fields every release has, in 24.05', config: 'backend: "python"\nmax_batch_size: 8\n', ...at('24.05') },
  ],
  invalid: [
    {
      name: 'model_metrics in 24.10 (2.51.0): where protobuf stops, the token after the name',
      config: `backend: "python"\nmax_batch_size: 0\n\n\n${METRICS}`,
      ...at('24.10'),
      errors: [
        {
          messageId: 'fieldNotInRelease',
          severity: 'error',
          path: ['model_metrics'],
          line: 5,
          data: { field: 'model_metrics', message: 'inference.ModelConfig', since: '24.11', target: '24.10', server: '2.51.0', line: 5, column: 15 },
        },
      ],
      suggestions: ['backend: "python"\nmax_batch_size: 0\n\n\n'],
    },
    {
      name: 'the target as a server version (2.51.0); a tab and a multi-byte character count as protobuf counts them',
      config: `name: "é"\n\tmodel_metrics # why\n { }\n`,
      ...at('2.51.0'),
      errors: [{ messageId: 'fieldNotInRelease', path: ['model_metrics'], data: { target: '24.10', server: '2.51.0', line: 3, column: 2 } }],
    },
    {
      name: 'a tab before the name',
      config: `name: "é" \tmodel_metrics { }\n`,
      ...at('24.10'),
      errors: [{ messageId: 'fieldNotInRelease', data: { line: 1, column: 31 } }],
    },
    {
      name: 'max_inflight_requests in 25.10, the release before it arrived: at its colon',
      config: ENSEMBLE,
      ...at('25.10'),
      errors: [
        {
          messageId: 'fieldNotInRelease',
          path: ['ensemble_scheduling', 'max_inflight_requests'],
          token: '4',
          data: { field: 'max_inflight_requests', message: 'inference.ModelEnsembling', since: '25.11', target: '25.10', line: 7, column: 24 },
        },
      ],
    },
    {
      name: 'is_non_linear_format_io in 24.07, the release before it arrived: on an input and an output',
      config: NON_LINEAR,
      ...at('24.07'),
      errors: [
        {
          messageId: 'fieldNotInRelease',
          path: ['input', 1, 'is_non_linear_format_io'],
          data: { field: 'is_non_linear_format_io', message: 'inference.ModelInput', since: '24.08', target: '24.07', line: 3 },
        },
        {
          messageId: 'fieldNotInRelease',
          path: ['output', 0, 'is_non_linear_format_io'],
          data: { field: 'is_non_linear_format_io', message: 'inference.ModelOutput', since: '24.08', line: 4 },
        },
      ],
    },
  ],
});

describe('a config the target cannot parse is unreadable to it', () => {
  it('gets field-release alone: the rules of the fields inside stay silent (model-metrics would quote a newer release)', () => {
    const repo = tempDir('tritonc-field-release-');
    mkdirSync(join(repo, 'm'));
    // An empty bucket list: the 26.x cores refuse it ("histogram options must specify non-empty 'buckets'").
    const config =
      'backend: "python"\nmodel_metrics { metric_control [ { metric_identifier { family: "nv_inference_first_response_histogram_ms" } histogram_options { } } ] }\n';
    writeFileSync(join(repo, 'm', 'config.pbtxt'), config);
    const ids = (triton: string) =>
      lintSync([join(repo, 'm')], { cwd: repo, rules: RULES, server: { target: parseTarget(triton) } })
        .results.flatMap((r) => r.diagnostics)
        .filter((d) => d.severity === 'error')
        .map((d) => `${d.ruleId}/${d.messageId}`);
    expect(ids('24.10')).toEqual(['field-release/fieldNotInRelease']);
    expect(ids('24.11')).toContain('model-metrics/noBuckets');
    rmSync(repo, { recursive: true, force: true });
  });
});

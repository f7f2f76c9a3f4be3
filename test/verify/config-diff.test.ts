// The effective config (as Triton's GET /v2/models/<name>/config prints it) against config.pbtxt.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { toProtoJson } from '../../src/config/proto-json.js';
import { loadSchema } from '../../src/config/schema.js';
import { configLeaves, diffConfigs } from '../../src/verify/config-diff.js';

const local = (text: string) => toProtoJson(parseConfig(text).value as Record<string, unknown>, loadSchema().modelConfig);

const LOCAL = `name: "classifier"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { }
instance_group [ { count: 2 kind: KIND_GPU } ]
`;

/** What a Triton server prints for LOCAL: defaults included, int64 as numbers, auto-filled fields. */
const EFFECTIVE = {
  name: 'classifier',
  platform: 'onnxruntime_onnx',
  backend: 'onnxruntime',
  runtime: '',
  version_policy: { latest: { num_versions: 1 } },
  max_batch_size: 8,
  input: [
    {
      name: 'input',
      data_type: 'TYPE_FP32',
      format: 'FORMAT_NONE',
      dims: [3, 224, 224],
      is_shape_tensor: false,
      allow_ragged_batch: false,
      optional: false,
      is_non_linear_format_io: false,
    },
  ],
  output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [1000], label_filename: '', is_shape_tensor: false, is_non_linear_format_io: false }],
  batch_input: [],
  batch_output: [],
  optimization: {
    priority: 'PRIORITY_DEFAULT',
    input_pinned_memory: { enable: true },
    output_pinned_memory: { enable: true },
    gather_kernel_buffer_threshold: 0,
    eager_batching: false,
  },
  dynamic_batching: {
    preferred_batch_size: [8],
    max_queue_delay_microseconds: 0,
    preserve_ordering: false,
    priority_levels: 0,
    default_priority_level: 0,
    priority_queue_policy: {},
  },
  instance_group: [{ name: 'classifier_0', kind: 'KIND_GPU', count: 2, gpus: [0], secondary_devices: [], profile: [], passive: false, host_policy: '' }],
  default_model_filename: 'model.onnx',
  cc_model_filenames: {},
  metric_tags: {},
  parameters: {},
  model_warmup: [],
};

describe('effective config diff', () => {
  it('lists what Triton filled in or changed, not the defaults it prints', () => {
    expect(diffConfigs(local(LOCAL), EFFECTIVE)).toEqual([
      { path: 'platform', change: 'added', effective: '"onnxruntime_onnx"' },
      { path: 'version_policy.latest.num_versions', change: 'added', effective: '1' },
      { path: 'optimization.input_pinned_memory.enable', change: 'added', effective: 'true' },
      { path: 'optimization.output_pinned_memory.enable', change: 'added', effective: 'true' },
      { path: 'dynamic_batching.preferred_batch_size', change: 'added', effective: '[8]' },
      { path: 'instance_group[0].name', change: 'added', effective: '"classifier_0"' },
      { path: 'instance_group[0].gpus', change: 'added', effective: '[0]' },
      { path: 'default_model_filename', change: 'added', effective: '"model.onnx"' },
    ]);
  });

  it('shows changed and removed values; int64 as strings or numbers compare equal', () => {
    const changed = { ...EFFECTIVE, max_batch_size: 4, input: [{ ...EFFECTIVE.input[0], dims: ['3', '224', '224'] }], dynamic_batching: undefined };
    const diffs = diffConfigs(local(LOCAL), JSON.parse(JSON.stringify(changed)));
    expect(diffs).toContainEqual({ path: 'max_batch_size', change: 'changed', local: '8', effective: '4' });
    expect(diffs).toContainEqual({ path: 'dynamic_batching', change: 'removed', local: '{}' });
    expect(diffs.some((d) => d.path.startsWith('input'))).toBe(false);
  });

  it("compares fields newer than tritonc's schema as written, and enums given as numbers by name", () => {
    const leaves = configLeaves({ name: 'm', some_future_field: { a: 1 }, input: [{ name: 'x', data_type: 11 }] });
    expect([...leaves]).toEqual([
      ['name', '"m"'],
      ['some_future_field', '{"a":1}'],
      ['input[0].name', '"x"'],
      ['input[0].data_type', '"TYPE_FP32"'],
    ]);
  });
});

// The JSON form of GET /v2/models/<name>/config (core ModelConfigToJson), checked against a real answer.
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../../src/config/model-config.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { shortestFloat32, stringifyTritonJson, tritonConfigJson } from '../../src/triton/triton-json.js';
import { makeModelDir } from './helpers.js';
import { parseTarget } from '../../src/triton/releases/target.js';

// What a Triton server answered for the densenet_onnx model of the tutorials' Quick_Deploy/ONNX
// example (no config.pbtxt, CPU-only host), copied from a published `curl .../config` transcript.
const DENSENET_ANSWER =
  '{"name":"densenet_onnx","platform":"onnxruntime_onnx","backend":"onnxruntime","runtime":"","version_policy":{"latest":{"num_versions":1}},"max_batch_size":0,' +
  '"input":[{"name":"data_0","data_type":"TYPE_FP32","format":"FORMAT_NONE","dims":[1,3,224,224],"is_shape_tensor":false,"allow_ragged_batch":false,"optional":false,"is_non_linear_format_io":false}],' +
  '"output":[{"name":"fc6_1","data_type":"TYPE_FP32","dims":[1,1000,1,1],"label_filename":"","is_shape_tensor":false,"is_non_linear_format_io":false}],' +
  '"batch_input":[],"batch_output":[],"optimization":{"priority":"PRIORITY_DEFAULT","input_pinned_memory":{"enable":true},"output_pinned_memory":{"enable":true},"gather_kernel_buffer_threshold":0,"eager_batching":false},' +
  '"instance_group":[{"name":"densenet_onnx","kind":"KIND_CPU","count":2,"gpus":[],"secondary_devices":[],"profile":[],"passive":false,"host_policy":""}],' +
  '"default_model_filename":"model.onnx","cc_model_filenames":{},"metric_tags":{},"parameters":{},"model_warmup":[]}';

describe('tritonConfigJson', () => {
  it('resolving a DenseNet ONNX model gives, byte for byte, the answer a Triton server gave', async () => {
    const dir = await makeModelDir({
      name: 'densenet_onnx',
      models: {
        '1/model.onnx': {
          inputs: [{ name: 'data_0', type: 'TYPE_FP32', shape: [1, 3, 224, 224] }],
          outputs: [{ name: 'fc6_1', type: 'TYPE_FP32', shape: [1, 1000, 1, 1] }],
        },
      },
    });
    const r = resolveModelDir(dir, { gpus: 0 });
    expect(r.status).toBe('ok');
    expect(stringifyTritonJson(tritonConfigJson(r.config!), 0)).toBe(DENSENET_ANSWER);
  });

  it('for a release, only the fields its schema has: 24.07 prints no is_non_linear_format_io (24.08), 24.10 no max_inflight_requests (25.11)', () => {
    const config: ModelConfig = {
      name: 'e',
      platform: 'ensemble',
      input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [2] }],
      output: [{ name: 'y', data_type: 'TYPE_FP32', dims: [2] }],
      ensemble_scheduling: { step: [{ model_name: 'a', model_version: -1 }] },
    };
    const at = (release: string) => tritonConfigJson(config, parseTarget(release).release) as Record<string, any>;
    expect(at('24.07').input[0]).not.toHaveProperty('is_non_linear_format_io');
    expect(at('24.08').input[0]).toHaveProperty('is_non_linear_format_io', false);
    expect(at('24.10').ensemble_scheduling).not.toHaveProperty('max_inflight_requests');
    expect(at('25.11').ensemble_scheduling).toHaveProperty('max_inflight_requests', 0);
    // No release given: tritonc's schema, every field.
    expect((tritonConfigJson(config) as Record<string, any>).ensemble_scheduling).toHaveProperty('max_inflight_requests', 0);
  });

  it('dynamic_batching as Triton prints it for an auto-completed batching model', () => {
    // From a published answer for an auto-completed ONNX model with max_batch_size 4.
    const json = tritonConfigJson({ name: 'm', max_batch_size: 4, dynamic_batching: { preferred_batch_size: [4] } });
    expect(json.dynamic_batching).toEqual({
      preferred_batch_size: [4],
      max_queue_delay_microseconds: 0,
      preserve_ordering: false,
      priority_levels: 0,
      default_priority_level: 0,
      priority_queue_policy: {},
    });
  });

  it("turns 64-bit integers into numbers exactly where Triton does, and leaves protobuf's strings elsewhere", () => {
    const config: ModelConfig = {
      name: 'm',
      input: [{ name: 'x', dims: [-1, 3], reshape: { shape: [3] } }],
      version_policy: { specific: { versions: [1, 2] } },
      dynamic_batching: {
        max_queue_delay_microseconds: 100,
        priority_levels: 2,
        default_priority_level: 1,
        default_queue_policy: { default_timeout_microseconds: 5 },
        priority_queue_policy: { '2': { default_timeout_microseconds: 7 } },
      },
      sequence_batching: {
        max_sequence_idle_microseconds: 9,
        oldest: { max_queue_delay_microseconds: 3 },
        state: [{ input_name: 'i', dims: [4], initial_state: [{ dims: [4], zero_data: true, name: 's' }] }],
      },
      ensemble_scheduling: { step: [{ model_name: 'a', model_version: -1 }] },
      model_warmup: [{ name: 'w', inputs: { x: { dims: [3] } } }],
      instance_group: [{ secondary_devices: [{ kind: 'KIND_NVDLA', device_id: 1 }] }],
      optimization: { cuda: { graph_spec: [{ batch_size: 1, input: { x: { dim: [3] } } }] } },
    };
    const json = tritonConfigJson(config) as Record<string, any>;
    expect(json.input[0].dims).toEqual([-1, 3]);
    expect(json.input[0].reshape.shape).toEqual([3]);
    expect(json.version_policy.specific.versions).toEqual([1, 2]);
    expect(json.dynamic_batching).toMatchObject({
      max_queue_delay_microseconds: 100,
      priority_levels: 2,
      default_priority_level: 1,
      default_queue_policy: { default_timeout_microseconds: 5 },
    });
    expect(json.dynamic_batching.priority_queue_policy).toEqual({ '2': expect.objectContaining({ default_timeout_microseconds: 7 }) });
    expect(json.sequence_batching).toMatchObject({ max_sequence_idle_microseconds: 9, oldest: { max_queue_delay_microseconds: 3 } });
    expect(json.sequence_batching.state[0].dims).toEqual([4]);
    // core looks for initial_state on sequence_batching instead of the state, so these stay strings.
    expect(json.sequence_batching.state[0].initial_state[0].dims).toEqual(['4']);
    expect(json.ensemble_scheduling.step[0].model_version).toBe(-1);
    expect(json.model_warmup[0].inputs.x.dims).toEqual([3]);
    expect(json.instance_group[0].secondary_devices[0].device_id).toBe('1');
    expect(json.optimization.cuda.graph_spec[0].input.x.dim).toEqual(['3']);
  });

  it('keeps integers beyond 2^53 exact, and prints floats the short way', () => {
    const json = tritonConfigJson({
      name: 'm',
      input: [{ name: 'x', dims: [2n ** 62n] }],
      sequence_batching: { control_input: [{ name: 'c', control: [{ fp32_false_true: [0.1, 1] }] }] },
    });
    const text = stringifyTritonJson(json, 0);
    expect(text).toContain('"dims":[4611686018427387904]');
    expect(text).toContain('"fp32_false_true":[0.1,1]');
    expect(shortestFloat32(Math.fround(0.3))).toBe(0.3);
    expect(shortestFloat32(Infinity)).toBe(Infinity);
  });

  it('stringifies with indentation, and empty lists and objects inline', () => {
    expect(stringifyTritonJson({ a: [], b: {}, c: [1n, 'x'] })).toBe('{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    "x"\n  ]\n}');
  });
});

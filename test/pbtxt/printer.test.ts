import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/document.js';
import { printConfig } from '../../src/config/print.js';
import type { ModelConfig } from '../../src/config/model-config.js';

describe('printer', () => {
  it("prints the layout of Triton's docs", () => {
    const config: ModelConfig = {
      name: 'classifier',
      backend: 'onnxruntime',
      max_batch_size: 32,
      input: [{ name: 'input', data_type: 'TYPE_FP32', dims: [3, 224, 224] }],
      output: [{ name: 'output', data_type: 'TYPE_FP32', dims: [1000] }],
      dynamic_batching: { preferred_batch_size: [8, 16, 32], max_queue_delay_microseconds: 5000 },
      instance_group: [{ count: 2, kind: 'KIND_GPU' }],
      optimization: {
        execution_accelerators: {
          gpu_execution_accelerator: [{ name: 'tensorrt', parameters: { precision_mode: 'FP16', max_workspace_size_bytes: '1073741824' } }],
        },
      },
    };
    expect(printConfig(config)).toBe(`name: "classifier"
backend: "onnxruntime"
max_batch_size: 32
input [
  {
    name: "input"
    data_type: TYPE_FP32
    dims: [ 3, 224, 224 ]
  }
]
output [
  {
    name: "output"
    data_type: TYPE_FP32
    dims: [ 1000 ]
  }
]
dynamic_batching {
  preferred_batch_size: [ 8, 16, 32 ]
  max_queue_delay_microseconds: 5000
}
instance_group [
  {
    count: 2
    kind: KIND_GPU
  }
]
optimization {
  execution_accelerators {
    gpu_execution_accelerator [
      {
        name: "tensorrt"
        parameters { key: "precision_mode" value: "FP16" }
        parameters { key: "max_workspace_size_bytes" value: "1073741824" }
      }
    ]
  }
}
`);
  });

  it('keeps max_batch_size: 0 and other zeros that were set, which proto3 printers drop', () => {
    const text = printConfig({
      name: 'm',
      max_batch_size: 0,
      input: [{ name: 'x', data_type: 'TYPE_INVALID', dims: [0], reshape: { shape: [] } }],
      response_cache: { enable: false },
    });
    expect(text).toContain('max_batch_size: 0\n');
    expect(text).toContain('data_type: TYPE_INVALID');
    expect(text).toContain('reshape { shape: [ ] }');
    expect(text).toContain('response_cache { enable: false }');
  });

  it('prints strings exactly: quotes, backslashes, control characters, unicode, JSON-looking names', () => {
    const names = ['onnx::Flatten_0', 'x.1', '{"a": "b"}', 'a\\b', 'tab\there', '\u0001', '模型'];
    const text = printConfig({ input: names.map((name) => ({ name })) });
    const back = parseConfig(text);
    expect(back.diagnostics).toEqual([]);
    expect(back.value.input?.map((i) => i.name)).toEqual(names);
  });

  it('prints 64-bit values exactly, floats in their shortest form, and open enum numbers', () => {
    const text = printConfig({
      dynamic_batching: { priority_levels: 18446744073709551615n, max_queue_delay_microseconds: 9007199254740993n },
      model_metrics: { metric_control: [{ histogram_options: { buckets: [0.1, 1e-7, Infinity, NaN] } }] },
      input: [{ data_type: 42 }],
    });
    expect(text).toContain('priority_levels: 18446744073709551615');
    expect(text).toContain('max_queue_delay_microseconds: 9007199254740993');
    expect(text).toContain('histogram_options { buckets: [ 0.1, 1e-7, inf, nan ] }');
    expect(text).toContain('data_type: 42');
  });

  it('prints maps one entry per block, message values inline when small', () => {
    expect(printConfig({ parameters: { execution_mode: { string_value: '0' } } })).toBe('parameters { key: "execution_mode" value { string_value: "0" } }\n');
    expect(printConfig({ dynamic_batching: { priority_queue_policy: { 1: { timeout_action: 'DELAY', default_timeout_microseconds: 100 } } } }))
      .toBe(`dynamic_batching {
  priority_queue_policy {
    key: 1
    value {
      timeout_action: DELAY
      default_timeout_microseconds: 100
    }
  }
}
`);
  });

  it('prints an empty config as an empty file', () => {
    expect(printConfig({})).toBe('');
  });

  it('refuses a value of the wrong shape with a message naming the field', () => {
    expect(() => printConfig({ max_batch_size: '8' as unknown as number })).toThrow(/inference.ModelConfig.max_batch_size has a value of the wrong type/);
    expect(() => printConfig({ nope: 1 } as ModelConfig)).toThrow(/has no field named "nope"/);
  });
});

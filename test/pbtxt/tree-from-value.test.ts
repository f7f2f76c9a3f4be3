// valueShapeProblem (src/pbtxt/tree-from-value.ts): what a value read from outside tritonc's parse
// (the lint cache) must fit before it is used as a config, and treeFromValue's refusal of the same.
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/config/schema.js';
import { asConfigValue } from '../../src/config/value-shape.js';
import { ValueShapeError, treeFromValue, valueShapeProblem } from '../../src/pbtxt/tree-from-value.js';

const schema = loadSchema().modelConfig;

describe('valueShapeProblem', () => {
  it('finds nothing in a value of the config shape: scalars, enums, lists, messages, maps of either key type', () => {
    const value = {
      name: 'm',
      max_batch_size: 8,
      input: [{ name: 'x', data_type: 'TYPE_FP32', dims: [-1, 3n] }],
      dynamic_batching: { preferred_batch_size: [4], priority_queue_policy: { '1': { timeout_action: 'REJECT' } } },
      parameters: { k: { string_value: 'v' }, unset: undefined },
      instance_group: [{ kind: 'KIND_GPU', count: 1 }],
      optional_field_left_out: undefined,
    };
    expect(valueShapeProblem(value, schema)).toBeUndefined();
    expect(asConfigValue(value)).toBe(value);
    expect(treeFromValue(value, schema).fields.map((f) => f.name)).toEqual([
      'name',
      'max_batch_size',
      'input',
      'dynamic_batching',
      // A map's entries each a field (an entry whose value is unset keeps its key).
      'parameters',
      'parameters',
      'instance_group',
    ]);
  });

  it('names the path to what does not fit, at any depth', () => {
    const cases: [unknown, string][] = [
      [{ nme: 'm' }, 'inference.ModelConfig has no field named "nme"'],
      [{ dynamic_batching: { foo: 1 } }, 'inference.ModelConfig.dynamic_batching has no field named "foo"'],
      [{ input: [{ name: 'x', dims: [1, 'a'] }] }, 'inference.ModelConfig.input[0].dims[1] has a value of the wrong type for int64: a'],
      [{ input: [{ data_type: 'TYPE_FP33' }] }, 'inference.ModelConfig.input[0].data_type has a value of the wrong type for inference.DataType: TYPE_FP33'],
      [{ input: {} }, 'inference.ModelConfig.input is repeated and must be an array'],
      [{ parameters: [] }, 'inference.ModelConfig.parameters must be an object (a map)'],
      [{ parameters: { k: { string_value: 5 } } }, 'inference.ModelConfig.parameters["k"].value.string_value has a value of the wrong type for string: 5'],
      [{ parameters: { k: 'v' } }, 'inference.ModelConfig.parameters["k"].value must be an object (a inference.ModelParameter)'],
      [{ dynamic_batching: 3 }, 'inference.ModelConfig.dynamic_batching must be an object (a inference.ModelDynamicBatching)'],
      [{ max_batch_size: true }, 'inference.ModelConfig.max_batch_size has a value of the wrong type for int32: true'],
      [[], 'inference.ModelConfig must be an object (a inference.ModelConfig)'],
    ];
    for (const [value, problem] of cases) {
      expect(valueShapeProblem(value, schema), JSON.stringify(value)).toBe(problem);
      expect(asConfigValue(value)).toBeUndefined();
      if (!Array.isArray(value)) expect(() => treeFromValue(value as Record<string, unknown>, schema)).toThrow(new ValueShapeError(problem));
    }
  });

  it('refuses a key an integer-keyed map cannot read', () => {
    const value = { dynamic_batching: { priority_queue_policy: { high: {} } } };
    expect(valueShapeProblem(value, schema)).toMatch(/^inference\.ModelConfig\.dynamic_batching\.priority_queue_policy\["high"\] is not a key of \S+Entry$/);
    expect(() => treeFromValue(value, schema)).toThrow(ValueShapeError);
  });
});

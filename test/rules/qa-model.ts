// The model Triton's qa/L0_model_config autofill_noplatform/onnx tests load (onnx_int32_int8_int8):
// INPUT0, INPUT1 [-1,16] INT32 -> OUTPUT0, OUTPUT1 [-1,16] INT8, and the configs those tests start
// Triton with, written here as (name, dims) lists: max_batch_size 1, INT32 inputs, INT8 outputs.
import type { OnnxSpec } from '../lint/harness.js';

export const QA_MODEL: OnnxSpec = {
  inputs: [
    ['INPUT0', 'INT32', ['batch', 16]],
    ['INPUT1', 'INT32', ['batch', 16]],
  ],
  outputs: [
    ['OUTPUT0', 'INT8', ['batch', 16]],
    ['OUTPUT1', 'INT8', ['batch', 16]],
  ],
};

/** The same model exported without a batch axis: [16]. */
export const QA_MODEL_NOBATCH: OnnxSpec = {
  inputs: [
    ['INPUT0', 'INT32', [16]],
    ['INPUT1', 'INT32', [16]],
  ],
  outputs: [
    ['OUTPUT0', 'INT8', [16]],
    ['OUTPUT1', 'INT8', [16]],
  ],
};

type Entry = [name: string, dims: number[]];
const ok: Entry[] = [
  ['0', [16]],
  ['1', [16]],
];

const QA_CASES: Record<string, { inputs: Entry[]; outputs: Entry[] }> = {
  unknown_input: {
    inputs: [
      ['0', [16]],
      ['_UNKNOWN', [16]],
    ],
    outputs: ok,
  },
  unknown_output: { inputs: ok, outputs: [['_UNKNOWN', [16]]] },
  too_few_inputs: { inputs: [['1', [16]]], outputs: ok },
  too_many_inputs: { inputs: [...ok, ['_EXTRA', [16]]], outputs: ok },
  bad_input_dims: {
    inputs: [
      ['0', [16, 1]],
      ['1', [16]],
    ],
    outputs: ok,
  },
  bad_output_dims: {
    inputs: ok,
    outputs: [
      ['0', [16]],
      ['1', [1]],
    ],
  },
};

const entry =
  (kind: 'INPUT' | 'OUTPUT', type: string) =>
  ([suffix, dims]: Entry): string =>
    `  {\n    name: "${kind}${suffix}"\n    data_type: ${type}\n    dims: [ ${dims.join(', ')} ]\n  }`;

/** The config of one qa case, laid out as Triton's qa configs are. */
export function qaConfig(test: keyof typeof QA_CASES): string {
  const c = QA_CASES[test]!;
  return `max_batch_size: 1\ninput [\n${c.inputs.map(entry('INPUT', 'TYPE_INT32')).join(',\n')}\n]\noutput [\n${c.outputs.map(entry('OUTPUT', 'TYPE_INT8')).join(',\n')}\n]\n`;
}

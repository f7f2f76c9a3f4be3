// Triton's qa/L0_model_config autofill_noplatform/openvino cases (the configs as the suite has them),
// linted with the IR its test.sh copies in (qa/openvino_models/fixed_batch, exported here by
// scripts/model-exports/openvino/export.py): each refusal is caught by the rule that mirrors the
// OpenVINO backend's check, with Triton's numbers and names in its data; the success cases are clean.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { parseSettings } from '../../src/lint/settings.js';
import { memoryFiles } from '../support/memory-files.js';
import { MEMORY_ROOT } from '../support/rule-tester.js';
import { irFiles, type OpenVinoModel } from './fixtures.js';

const IN0 = 'Func/PartitionedCall/input/_0:0';
const OUT0 = 'Func/PartitionedCall/output/_2:0';
const OUT1 = 'Func/PartitionedCall/output/_3:0';
const io = (side: 'input' | 'output', name: string, type: string, dims: number[], extra = ''): string =>
  `${side} {\n  name: "${name}"\n  data_type: ${type}\n${dims.map((d) => `  dims: ${d}\n`).join('')}${extra}}\n`;

function lint(name: string, config: string | undefined, model: OpenVinoModel, extra: Record<string, string> = {}): Diagnostic[] {
  const files: Record<string, string | Uint8Array> = { ...irFiles(model, name), ...extra };
  if (config !== undefined) files[`${name}/config.pbtxt`] = config;
  const result = lintSync([name], {
    cwd: MEMORY_ROOT,
    files: memoryFiles(MEMORY_ROOT, files),
    rules: RULES,
    settings: parseSettings({}, `${MEMORY_ROOT}/tritonc.config.json`, RULES),
  });
  const errors = result.results.flatMap((r) => r.diagnostics).filter((d) => d.severity === 'error');
  if (process.env.SHOW) console.log(errors.map((d) => `[${d.ruleId}] ${d.message}`).join('\n'));
  return errors;
}

const brief = (ds: Diagnostic[]): { ruleId: string; messageId: string | undefined }[] => ds.map((d) => ({ ruleId: d.ruleId, messageId: d.messageId }));

describe('autofill_noplatform/openvino: every refusal caught', () => {
  it("bad_input_dims: model 'bad_input_dims', tensor 'input1': the model expects 2 dimensions (shape [1,4]) but the model configuration specifies 2 dimensions (shape [1,256])", () => {
    const errors = lint('bad_input_dims', io('input', IN0, 'TYPE_INT32', [1, 4]) + io('input', 'input1', 'TYPE_INT32', [1, 256]), 'openvino_fixed_batch');
    expect(brief(errors)).toEqual([{ ruleId: 'io-shape', messageId: 'dimMismatch' }]);
    expect(errors[0]!.data).toMatchObject({
      name: 'input1',
      direction: 'input',
      index: 1,
      value: 256,
      modelDim: 4,
      expected: [1, 4],
      modelShapeText: '[1,4]',
      backend: 'OpenVINO',
    });
  });

  it("bad_output_dims: tensor 'Func/PartitionedCall/output/_2:0': the model expects (shape [1,4]) but the model configuration specifies (shape [1,128])", () => {
    const errors = lint('bad_output_dims', io('output', OUT0, 'TYPE_INT32', [1, 128]) + io('output', OUT1, 'TYPE_INT32', [1, 4]), 'openvino_fixed_batch');
    expect(brief(errors)).toEqual([{ ruleId: 'io-shape', messageId: 'dimMismatch' }]);
    expect(errors[0]!.data).toMatchObject({ name: OUT0, direction: 'output', index: 1, value: 128, modelDim: 4, expected: [1, 4] });
  });

  it("too_few_inputs: unable to load model 'too_few_inputs', configuration expects 1 inputs, model provides 2", () => {
    const errors = lint('too_few_inputs', io('input', 'input1', 'TYPE_INT32', [1, 4]), 'openvino_fixed_batch');
    expect(brief(errors)).toEqual([{ ruleId: 'io-name', messageId: 'modelInputMissing' }]);
    expect(errors[0]!.data).toMatchObject({ name: IN0, expected: 1, provided: 2, inputEntry: `input { name: "${IN0}" data_type: TYPE_INT32 dims: [1,4] }` });
  });

  it("too_many_inputs: unable to load model 'too_many_inputs', configuration expects 3 inputs, model provides 2", () => {
    const errors = lint(
      'too_many_inputs',
      io('input', IN0, 'TYPE_INT32', [1, 4]) + io('input', 'input1', 'TYPE_INT32', [1, 4]) + io('input', 'input_extra', 'TYPE_INT32', [1, 4]),
      'openvino_fixed_batch',
    );
    expect(brief(errors)).toEqual([{ ruleId: 'io-name', messageId: 'inputUnknown' }]);
    expect(errors[0]!.data).toMatchObject({ name: 'input_extra', allowed: [IN0, 'input1'] });
  });

  it("unknown_input: unexpected inference input 'unknown_input', allowed inputs are: Func/PartitionedCall/input/_0:0, input1", () => {
    const config =
      io('input', IN0, 'TYPE_INT32', [1, 4]) +
      io('input', 'unknown_input', 'TYPE_INT32', [1, 4]) +
      io('output', OUT0, 'TYPE_INT32', [1, 4]) +
      io('output', OUT1, 'TYPE_INT32', [1, 4]);
    const errors = lint('unknown_input', config, 'openvino_fixed_batch');
    // The counts agree (2 and 2): the backend refuses the name, not the count (tritonserver 2.51, test/conformance/l0-real-server.test.ts).
    expect(brief(errors)).toEqual([{ ruleId: 'io-name', messageId: 'inputUnknown' }]);
    expect(errors[0]!.data).toMatchObject({ name: 'unknown_input', allowed: [IN0, 'input1'] });
  });

  it("unknown_output: unexpected inference output 'unknown_output', allowed outputs are: Func/PartitionedCall/output/_2:0, Func/PartitionedCall/output/_3:0", () => {
    const config = io('input', IN0, 'TYPE_INT32', [1, 4]) + io('input', 'input1', 'TYPE_INT32', [1, 4]) + io('output', 'unknown_output', 'TYPE_INT32', [1, 4]);
    const errors = lint('unknown_output', config, 'openvino_fixed_batch');
    expect(brief(errors)).toEqual([{ ruleId: 'io-name', messageId: 'outputUnknown' }]);
    expect(errors[0]!.data).toMatchObject({ name: 'unknown_output', allowed: [OUT0, OUT1] });
  });
});

describe('autofill_noplatform_success/openvino: clean', () => {
  it('empty_config and no_config (fixed_batch)', () => {
    expect(lint('empty_config', '', 'openvino_fixed_batch')).toEqual([]);
    expect(lint('no_config', undefined, 'openvino_fixed_batch')).toEqual([]);
  });
  it('dynamic_batch (layouts with N: batching)', () => {
    expect(lint('dynamic_batch', '', 'openvino_dynamic_batch')).toEqual([]);
  });
  it('partial_config: max_batch_size 8 on a model without layouts loads (a warning), outputs [16] against [8,16]', () => {
    const config =
      'max_batch_size: 8\noutput [\n  {\n    name: "OUTPUT0"\n    data_type: TYPE_INT8\n    dims: [ 16 ]\n    label_filename: "output0_labels.txt"\n   },\n  {\n    name: "OUTPUT1"\n    data_type: TYPE_INT8\n    dims: [ 16 ]\n  }\n]';
    const labels = Array.from({ length: 16 }, (_, i) => `label${i}\n`).join('');
    expect(lint('partial_config', config, 'openvino_int8_int8_int8', { 'partial_config/output0_labels.txt': labels })).toEqual([]);
  });
});

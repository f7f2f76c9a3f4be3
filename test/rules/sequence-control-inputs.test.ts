import { describe, expect, it } from 'vitest';
import { sequenceControlInputs } from '../../src/lint/rules/correctness/sequence-control-inputs.js';
import { findings, lintDir, writeRepo, type OnnxSpec } from '../lint/harness.js';

// onnxruntime_backend src/onnxruntime.cc ValidateBooleanSequenceControl / ValidateTypedSequenceControl.
const counter = (start: [string, (number | string)[]]): OnnxSpec => ({
  inputs: [['INPUT', 'INT32', ['b', 1]], ['START', start[0], start[1]]],
  outputs: [['OUTPUT', 'INT32', ['b', 1]]],
});
const config = (control: string) => `name: "counter"
platform: "onnxruntime_onnx"
max_batch_size: 8
input [ { name: "INPUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
output [ { name: "OUTPUT" data_type: TYPE_INT32 dims: [ 1 ] } ]
sequence_batching { control_input [ { name: "START" control [ { kind: CONTROL_SEQUENCE_START ${control} } ] } ] }
`;
async function lint(control: string, model: OnnxSpec): Promise<string[]> {
  const dir = await writeRepo({ 'counter/config.pbtxt': config(control), 'counter/1/model.onnx': model });
  return findings(lintDir(dir, ['.'], { rules: [sequenceControlInputs] }), 'sequence-control-inputs', dir).map((f) => f.message);
}

describe('sequence-control-inputs', () => {
  it('valid: each list with a model input of its type and dims [batch, 1]', async () => {
    expect(await lint('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 1]]))).toEqual([]);
    expect(await lint('fp32_false_true: [ 0, 1 ]', counter(['FLOAT', ['b', 1]]))).toEqual([]);
    expect(await lint('bool_false_true: [ false, true ]', counter(['BOOL', ['b', 1]]))).toEqual([]);
  });

  it('a control list of another type than the model input: the backend\'s message and the list to write', async () => {
    const [m, ...rest] = await lint('int32_false_true: [ 0, 1 ]', counter(['BOOL', ['b', 1]]));
    expect(rest).toEqual([]);
    expect(m).toContain(`("unable to load model 'counter', sequence control 'START', the model expects data-type BOOL but the model configuration specifies data-type TYPE_INT32")`);
    expect(m).toContain('write bool_false_true: [ false, true ] for a BOOL input');
  });

  it('a control tensor the model does not have', async () => {
    const model: OnnxSpec = { inputs: [['INPUT', 'INT32', ['b', 1]]], outputs: [['OUTPUT', 'INT32', ['b', 1]]] };
    expect((await lint('int32_false_true: [ 0, 1 ]', model))[0]).toContain(`("configuration specified sequence control 'START', but model does not provide that input")`);
  });

  it('a control input that is not [1] per item (a dynamic dim included)', async () => {
    expect((await lint('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 2]])))[0]).toContain("sequence control 'START' in model has dims [2] but dims [1] is expected");
    expect((await lint('int32_false_true: [ 0, 1 ]', counter(['INT32', ['b', 'n']])))[0]).toContain('has dims [-1] but dims [1] is expected');
  });
});

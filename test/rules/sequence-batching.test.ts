import { describe, expect, it } from 'vitest';
import { lintConfig, lintFiles } from './core-support.js';

const ID = 'sequence-batching';
const HEAD = 'backend: "onnxruntime"\nmax_batch_size: 8\n';
const seq = (body: string): string => `${HEAD}sequence_batching {\n${body}\n}\n`;

const CONTROLS = `  control_input [
    { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "READY" control [ { kind: CONTROL_SEQUENCE_READY fp32_false_true: [ 0, 1 ] } ] },
    { name: "END" control [ { kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true ] } ] },
    { name: "CORRID" control [ { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 } ] }
  ]`;

const STATE = (initial: string, stateDims = '[ -1, 4 ]'): string => `  state [ {
    input_name: "INPUT_STATE" output_name: "OUTPUT_STATE" data_type: TYPE_FP32 dims: ${stateDims}
    initial_state: [ ${initial} ]
  } ]`;

describe(ID, () => {
  describe('valid', () => {
    it('all four controls, each done right', async () => {
      expect(await lintConfig(ID, seq(CONTROLS))).toEqual([]);
    });
    it('a state with zero initial data, and a direct strategy', async () => {
      expect(await lintConfig(ID, seq(`${STATE('{ name: "init" data_type: TYPE_FP32 dims: [ 2, 4 ] zero_data: true }')}\n  direct { minimum_slot_utilization: 0.5 }`))).toEqual([]);
    });
    it('a state whose data file holds enough bytes', async () => {
      const config = seq(STATE('{ name: "init" data_type: TYPE_FP32 dims: [ 2, 4 ] data_file: "init.bin" }'));
      expect(await lintFiles(ID, { 'm/config.pbtxt': config, 'm/initial_state/init.bin': new Uint8Array(32) })).toEqual([]);
    });
  });

  describe('invalid: controls', () => {
    it('a control tensor without a name', async () => {
      const [f] = await lintConfig(ID, seq('  control_input [ { control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] } ]'));
      expect(f).toMatchObject({ severity: 'error', line: 4 });
      expect(f!.message).toContain('("sequence batching control tensor must have a name for m")');
    });
    it('the same tensor twice: points at the second name', async () => {
      const fs = await lintConfig(ID, seq(`  control_input [
    { name: "START" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "START" control [ { kind: CONTROL_SEQUENCE_END int32_false_true: [ 0, 1 ] } ] }
  ]`));
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ line: 6, token: '"START"' });
      expect(fs[0]!.message).toBe(
        `control tensor 'START' is listed twice, so Triton refuses the model ("sequence batching control tensor 'START' is specified for multiple control kinds for m"); give each control kind its own model input, or merge the entries`,
      );
    });
    it('the same kind twice (an unset kind is START)', async () => {
      const fs = await lintConfig(ID, seq(`  control_input [
    { name: "A" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] } ] },
    { name: "B" control [ { int32_false_true: [ 0, 1 ] } ] }
  ]`));
      expect(fs).toHaveLength(1);
      expect(fs[0]!.message).toContain('("sequence batching specifies multiple CONTROL_SEQUENCE_START tensors for m")');
      expect(fs[0]!.message).toContain('a control without kind is CONTROL_SEQUENCE_START');
    });
    it('START without, or with two, false/true lists; a list of 3', async () => {
      const none = await lintConfig(ID, seq('  control_input [ { name: "S" control [ { kind: CONTROL_SEQUENCE_START } ] } ]'));
      expect(none[0]).toMatchObject({ token: 'CONTROL_SEQUENCE_START' });
      expect(none[0]!.message).toContain(`("sequence batching must specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for CONTROL_SEQUENCE_START for m")`);
      const two = await lintConfig(ID, seq('  control_input [ { name: "S" control [ { kind: CONTROL_SEQUENCE_START int32_false_true: [ 0, 1 ] fp32_false_true: [ 0, 1 ] } ] } ]'));
      expect(two[0]!.message).toContain(`("sequence batching specifies more than one from 'int32_false_true', 'fp32_false_true' and 'bool_false_true' for CONTROL_SEQUENCE_START for m")`);
      const three = await lintConfig(ID, seq('  control_input [ { name: "S" control [ { kind: CONTROL_SEQUENCE_END bool_false_true: [ false, true, true ] } ] } ]'));
      expect(three[0]).toMatchObject({ token: 'true', column: 102 });
      expect(three[0]!.message).toContain(`("sequence batching control 'bool_false_true' must have exactly 2 entries for CONTROL_SEQUENCE_END for m")`);
    });
    it('CORRID with a false/true list, and with a wrong or missing data_type', async () => {
      const list = await lintConfig(ID, seq('  control_input [ { name: "C" control [ { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_UINT64 int32_false_true: [ 0, 1 ] } ] } ]'));
      expect(list[0]!.message).toContain(`("sequence batching must not specify either 'int32_false_true', 'fp32_false_true' or 'bool_false_true' for CONTROL_SEQUENCE_CORRID for m")`);
      const fp = await lintConfig(ID, seq('  control_input [ { name: "C" control [ { kind: CONTROL_SEQUENCE_CORRID data_type: TYPE_FP32 } ] } ]'));
      expect(fp[0]).toMatchObject({ token: 'TYPE_FP32' });
      expect(fp[0]!.message).toContain('("unexpected data type for control CONTROL_SEQUENCE_CORRID for m. Allowed data types are TYPE_UINT64, TYPE_INT64, TYPE_UINT32, TYPE_INT32 and TYPE_STRING")');
      const unset = await lintConfig(ID, seq('  control_input [ { name: "C" control [ { kind: CONTROL_SEQUENCE_CORRID } ] } ]'));
      expect(unset[0]).toMatchObject({ token: 'CONTROL_SEQUENCE_CORRID' });
    });
    it('direct minimum_slot_utilization above 1', async () => {
      const [f] = await lintConfig(ID, seq('  direct { minimum_slot_utilization: 1.5 }'));
      expect(f).toMatchObject({ token: '1.5' });
      expect(f!.message).toContain('("sequence batching minimum slot utilization must be in range (0.0, 1.0] for m")');
    });
    it('a custom batching strategy with the sequence batcher', async () => {
      const [f] = await lintConfig(ID, `${seq(CONTROLS)}parameters { key: "TRITON_BATCH_STRATEGY_PATH" value: { string_value: "libbatch.so" } }\n`);
      expect(f).toMatchObject({ token: '"TRITON_BATCH_STRATEGY_PATH"' });
    });
  });

  describe('invalid: states', () => {
    it('two initial states', async () => {
      const [f] = await lintConfig(ID, seq(STATE('{ name: "a" data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }, { name: "b" data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }')));
      expect(f!.message).toContain(`("initial_state field for state input 'INPUT_STATE' must contain exactly one or zero element. Found '2' elements.")`);
    });
    it('data type, name, rank, variable and mismatched dims, no data', async () => {
      const msgs = async (initial: string, stateDims?: string): Promise<string[]> => (await lintConfig(ID, seq(STATE(initial, stateDims)))).map((f) => f.message);
      expect((await msgs('{ name: "i" data_type: TYPE_INT32 dims: [ 1, 4 ] zero_data: true }'))[0]).toContain(`("The data type used for 'initial_state' field of state 'INPUT_STATE' does not match the state data type.")`);
      expect((await msgs('{ data_type: TYPE_FP32 dims: [ 1, 4 ] zero_data: true }'))[0]).toContain(`("Field 'name' must be set when using initial_state for state input 'INPUT_STATE'.")`);
      expect((await msgs('{ name: "i" data_type: TYPE_FP32 dims: [ 4 ] zero_data: true }'))[0]).toContain(`("Number of dimensions in 'initial_state' doesn't match the size of 'state' dimensions for state input 'INPUT_STATE'. 1 != 2")`);
      expect((await msgs('{ name: "i" data_type: TYPE_FP32 dims: [ -1, 4 ] zero_data: true }'))[0]).toContain(`("'initial_state' field for state input name 'INPUT_STATE' contains variable dimensions.")`);
      expect((await msgs('{ name: "i" data_type: TYPE_FP32 dims: [ 2, 5 ] zero_data: true }'))[0]).toContain(`("'initial_state' dim for input name 'INPUT_STATE' doesn't match 'state' dim description. 5 != 4")`);
      expect((await msgs('{ name: "i" data_type: TYPE_FP32 dims: [ 2, 4 ] }'))[0]).toContain(`("initial_state setting expects state'INPUT_STATE' to have state_data set")`);
    });
    it('the same state input twice with initial states', async () => {
      const one = '{ input_name: "S" output_name: "S_OUT" data_type: TYPE_FP32 dims: [ 4 ] initial_state: [ { name: "i" data_type: TYPE_FP32 dims: [ 4 ] zero_data: true } ] }';
      const fs = await lintConfig(ID, seq(`  state [ ${one}, ${one} ]`));
      expect(fs).toHaveLength(1);
      expect(fs[0]!.message).toContain(`("State input name 'S' specified more than once.")`);
    });
    it('a data file too short: error; missing: warning', async () => {
      const config = seq(STATE('{ name: "init" data_type: TYPE_FP32 dims: [ 2, 4 ] data_file: "init.bin" }'));
      const [short] = await lintFiles(ID, { 'm/config.pbtxt': config, 'm/initial_state/init.bin': new Uint8Array(16) });
      expect(short).toMatchObject({ severity: 'error', token: '"init.bin"' });
      expect(short!.message).toContain('("initial_state setting expects 32 bytes, but the data provided from init.binonly has 16 bytes.")');
      const [missing] = await lintConfig(ID, config);
      expect(missing).toMatchObject({ severity: 'warning', token: '"init.bin"' });
    });
  });
});

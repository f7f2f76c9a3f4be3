import { describe, expect, it } from 'vitest';
import { lintConfig } from './core-support.js';

const ID = 'batch-io';
const HEAD = `platform: "tensorrt_plan"
max_batch_size: 8
input [ { name: "INPUT" data_type: TYPE_FP32 dims: [ -1 ] allow_ragged_batch: true } ]
output [ { name: "OUTPUT" data_type: TYPE_FP32 dims: [ -1 ] } ]
`;

describe(ID, () => {
  describe('valid', () => {
    it('a ragged batch: element counts in, scatter out', async () => {
      const config = `${HEAD}batch_input [ { kind: BATCH_ACCUMULATED_ELEMENT_COUNT target_name: "INDEX" data_type: TYPE_INT32 source_input: "INPUT" } ]
batch_output [ { target_name: "OUTPUT" kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "INPUT" } ]
`;
      expect(await lintConfig(ID, config)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('no source input: points at the kind', async () => {
      const [f, ...rest] = await lintConfig(ID, `${HEAD}batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT32 } ]\n`);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 5, token: 'BATCH_ELEMENT_COUNT' });
      expect(f!.message).toBe(
        `BATCH_ELEMENT_COUNT is computed from one input, and this batch_input gives 0, so Triton refuses the model ("batch input kind 'BATCH_ELEMENT_COUNT' expects 1 source input, got 0 for m"); add source_input: "<the config input it describes>"`,
      );
    });
    it('two sources: points at the second', async () => {
      const [f] = await lintConfig(ID, `${HEAD}batch_input [ { kind: BATCH_ITEM_SHAPE target_name: "N" data_type: TYPE_INT32 source_input: [ "INPUT", "INPUT" ] } ]\n`);
      expect(f).toMatchObject({ token: '"INPUT"', column: 104 });
      expect(f!.message).toContain(`expects 1 source input, got 2 for m")`);
    });
    it('a batch input type other than INT32/FP32', async () => {
      const [f] = await lintConfig(ID, `${HEAD}batch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT64 source_input: "INPUT" } ]\n`);
      expect(f).toMatchObject({ token: 'TYPE_INT64' });
      expect(f!.message).toContain('("batch input data type must be TYPE_INT32 or TYPE_FP32 for m")');
    });
    it('an unknown target, a target twice, an unknown source (in the order they are written)', async () => {
      const config = `${HEAD}batch_output [ { target_name: [ "OUTPUT", "OUT", "OUTPUT" ] kind: BATCH_SCATTER_WITH_INPUT_SHAPE source_input: "IN" } ]\n`;
      const fs = await lintConfig(ID, config);
      expect(fs.map((f) => [f.token, f.message.match(/\("([^"]*)"\)/)?.[1]])).toEqual([
        ['"OUT"', "unknown target output name 'OUT' for m"],
        ['"OUTPUT"', "target output name 'OUTPUT' can only be specified once for m"],
        ['"IN"', "unknown source input name 'IN' for m"],
      ]);
    });
    it('with no inputs listed, an unknown source is only a warning (auto-complete may add it)', async () => {
      const [f] = await lintConfig(ID, 'platform: "tensorrt_plan"\nbatch_input [ { kind: BATCH_ELEMENT_COUNT target_name: "N" data_type: TYPE_INT32 source_input: "X" } ]\n');
      expect(f).toMatchObject({ severity: 'warning' });
    });
  });
});

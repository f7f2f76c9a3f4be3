import { describe, expect, it } from 'vitest';
import { check as checkWith } from '../lint/harness.js';
import { ensembleConfig } from '../../src/lint/rules/correctness/ensemble-config.js';

const RULE = 'ensemble-config';
const check = (rule: string, config: string) => checkWith(rule, config, undefined, { rules: [ensembleConfig] });

/** data -> preprocess -> classifier -> prob, the shape of most real ensembles. */
const PIPELINE = `name: "m"
platform: "ensemble"
max_batch_size: 8
input [ { name: "data" data_type: TYPE_UINT8 dims: [ -1 ] } ]
output [ { name: "prob" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling {
  step [
    {
      model_name: "preprocess"
      model_version: -1
      input_map { key: "raw" value: "data" }
      output_map { key: "image" value: "pixels" }
    },
    {
      model_name: "classifier"
      model_version: -1
      input_map { key: "input" value: "pixels" }
      output_map { key: "output" value: "prob" }
    }
  ]
}
`;

describe('ensemble-config', () => {
  describe('valid', () => {
    it('a two-step pipeline from the ensemble input to its output', async () => {
      expect(await check(RULE, PIPELINE)).toEqual([]);
    });

    it('a step reading two ensemble inputs and fanning out to two outputs', async () => {
      const config = `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] }, { name: "b" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "x" data_type: TYPE_FP32 dims: [1] }, { name: "y" data_type: TYPE_FP32 dims: [1] } ]
ensemble_scheduling { step [ { model_name: "add_sub" model_version: -1 input_map [ { key: "INPUT0" value: "a" }, { key: "INPUT1" value: "b" } ] output_map [ { key: "OUTPUT0" value: "x" }, { key: "OUTPUT1" value: "y" } ] } ] }
`;
      expect(await check(RULE, config)).toEqual([]);
    });

    it('a model that is not an ensemble', async () => {
      expect(await check(RULE, 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n')).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('ensemble_scheduling on another platform: error on the platform value', async () => {
      const config = PIPELINE.replace('platform: "ensemble"', 'platform: "onnxruntime_onnx"');
      const [f, ...rest] = await check(RULE, config);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', line: 2, token: '"onnxruntime_onnx"' });
      expect(f!.message).toBe(
        'ensemble_scheduling is set but platform is "onnxruntime_onnx": Triton refuses the model ("ensemble scheduling cannot be set for model \'m\' whose platform is not ensemble"); set platform: "ensemble" (and no backend), or remove ensemble_scheduling',
      );
    });

    it('ensemble_scheduling without a platform: on the ensemble_scheduling field name', async () => {
      const config = PIPELINE.replace('platform: "ensemble"\n', '');
      const [f] = await check(RULE, config);
      expect(f).toMatchObject({ token: 'ensemble_scheduling' });
      expect(f!.message).toContain('platform is not set');
    });

    it('platform "ensemble" without ensemble_scheduling, quoting the name as Triton does', async () => {
      const [f] = await check(RULE, 'name: "m"\nplatform: "ensemble"\n');
      expect(f).toMatchObject({ line: 2, token: '"ensemble"' });
      expect(f!.message).toContain('("ensemble scheduling must be set for ensemble m whose platform is ensemble")');
    });

    it('instance_group, optimization and model_warmup: one error each on the field name', async () => {
      const config = `${PIPELINE}instance_group [ { kind: KIND_CPU } ]
optimization { graph { level: 1 } }
model_warmup [ { name: "w" batch_size: 1 inputs { key: "data" value: { data_type: TYPE_UINT8 dims: [4] zero_data: true } } } ]
`;
      const f = await check(RULE, config);
      expect(f.map((x) => x.token)).toEqual(['instance_group', 'optimization', 'model_warmup']);
      expect(f[0]!.message).toContain(`("instance group should not be specified for ensemble 'm'")`);
      expect(f[1]!.message).toContain(`("optimization should not be specified for ensemble 'm'")`);
      expect(f[2]!.message).toContain(`("model_warmup can not be specified for ensemble 'm'")`);
    });

    it('an empty optimization block counts (has_optimization)', async () => {
      expect((await check(RULE, `${PIPELINE}optimization { }\n`)).map((f) => f.token)).toEqual(['optimization']);
    });

    it('no step', async () => {
      const f = await check(RULE, 'platform: "ensemble"\nensemble_scheduling { }\n');
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ token: 'ensemble_scheduling' });
      expect(f[0]!.message).toContain(`("must specify 'step' for ensemble 'm'")`);
    });

    it('a step without model_name / input_map / output_map, numbered from 0 as Triton does', async () => {
      const config = `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [1] } ]
ensemble_scheduling { step [
  { model_name: "first" input_map { key: "x" value: "a" } output_map { key: "y" value: "t" } },
  { input_map { key: "x" value: "t" } output_map { key: "y" value: "y" } },
  { model_name: "third" }
] }
`;
      const f = await check(RULE, config);
      expect(f.map((x) => x.message.match(/\("([^"]*)"\)/)?.[1])).toEqual([
        "must specify 'model_name' in step 1 of ensemble 'm'",
        "must specify 'input_map' in step 2 of ensemble 'm'",
        "must specify 'output_map' in step 2 of ensemble 'm'",
      ]);
      expect(f[0]).toMatchObject({ line: 6, column: 3, token: '{' });
      expect(f[1]).toMatchObject({ line: 7, token: '{' });
    });

    it('a tensor written by two output maps: on the second one', async () => {
      const config = PIPELINE.replace('output_map { key: "output" value: "prob" }', 'output_map { key: "output" value: "pixels" }');
      const f = await check(RULE, config);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 18, token: '"pixels"' });
      expect(f[0]!.message).toBe(
        "ensemble tensor 'pixels' is already written by step 0 (output 'image'): Triton refuses the ensemble (\"ensemble tensor 'pixels' can appear in an output map only once for ensemble 'm' step 1\"); give output 'output' of step 1 its own tensor name",
      );
    });

    it('an ensemble input no step reads (Triton\'s unbalanced quote kept)', async () => {
      const config = PIPELINE.replace('input [ { name: "data" data_type: TYPE_UINT8 dims: [ -1 ] } ]', 'input [ { name: "data" data_type: TYPE_UINT8 dims: [ -1 ] }, { name: "extra" data_type: TYPE_FP32 dims: [1] } ]');
      const [f, ...rest] = await check(RULE, config);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ line: 4, token: '"extra"' });
      expect(f!.message).toContain(`("ensemble input 'extra' for ensemble m' is not used")`);
    });

    it('an ensemble output no step writes', async () => {
      const config = PIPELINE.replace('output [ { name: "prob" data_type: TYPE_FP32 dims: [ 1000 ] } ]', 'output [ { name: "prob" data_type: TYPE_FP32 dims: [ 1000 ] }, { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]');
      const [f] = await check(RULE, config);
      expect(f).toMatchObject({ token: '"logits"' });
      expect(f!.message).toContain(`("ensemble output 'logits' for ensemble m' is not used")`);
    });

    it('an output that depends on a tensor nothing writes: the message names it', async () => {
      const config = PIPELINE.replace('input_map { key: "input" value: "pixels" }', 'input_map [ { key: "input" value: "pixels" }, { key: "mask" value: "attention_mask" } ]');
      const f = await check(RULE, config);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 5, token: '"prob"' });
      expect(f[0]!.message).toContain(`("output 'prob' for ensemble 'm' is not written: at least one of its depending tensors, 'attention_mask', is not connected")`);
    });

    it('an output only read, never written: "is not written" with no suffix', async () => {
      const config = `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [1] } ]
ensemble_scheduling { step [ { model_name: "s" input_map [ { key: "x" value: "a" }, { key: "z" value: "y" } ] output_map { key: "o" value: "t" } } ] }
`;
      const f = await check(RULE, config);
      expect(f.map((x) => x.message.match(/\("([^"]*)"\)/)?.[1])).toEqual(["output 'y' for ensemble 'm' is not written", "ensemble tensor 't' is unused in ensemble 'm'"]);
      expect(f[0]!.message).toContain('no step writes it (it only appears as an input_map value)');
    });

    it('a written tensor nobody reads', async () => {
      const config = PIPELINE.replace('output_map { key: "image" value: "pixels" }', 'output_map [ { key: "image" value: "pixels" }, { key: "debug" value: "debug_view" } ]');
      const [f, ...rest] = await check(RULE, config);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ token: '"debug_view"' });
      expect(f!.message).toContain(`("ensemble tensor 'debug_view' is unused in ensemble 'm'")`);
      expect(f!.message).toContain('is written but no step reads it');
    });

    it('a duplicated input_map key: the last entry wins, and the dropped tensor is unused', async () => {
      const config = `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [1] } ]
ensemble_scheduling { step [
  { model_name: "s1" input_map { key: "x" value: "a" } output_map { key: "o" value: "t1" } },
  { model_name: "s2" input_map { key: "x" value: "a" } output_map { key: "o" value: "t2" } },
  { model_name: "s3" input_map { key: "x" value: "t1" } input_map { key: "x" value: "t2" } output_map { key: "o" value: "y" } }
] }
`;
      const f = await check(RULE, config);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ line: 5, token: '"t1"' });
      expect(f[0]!.message).toContain(`("ensemble tensor 't1' is unused in ensemble 'm'")`);
    });
  });
});

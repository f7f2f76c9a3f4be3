// llm-streaming on the TensorRT-LLM ensemble's shapes (all_models/inflight_batcher_llm: ensemble,
// tensorrt_llm, tensorrt_llm_bls) and a vLLM model, filled as fill_template.py fills them.
import { describe, expect, it } from 'vitest';
import { lintFilesData } from './rule-data.js';

const ID = 'llm-streaming';
const policy = (d: boolean | undefined) => (d === undefined ? '' : `model_transaction_policy { decoupled: ${d} }\n`);
const TRTLLM = (d?: boolean) => `backend: "tensorrtllm"\nmax_batch_size: 64\n${policy(d)}input [ { name: "input_ids" data_type: TYPE_INT32 dims: [ -1 ] }, { name: "streaming" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\noutput [ { name: "output_ids" data_type: TYPE_INT32 dims: [ -1, -1 ] } ]\n`;
const BLS = (d?: boolean, target?: string) =>
  `backend: "python"\nmax_batch_size: 64\n${policy(d)}parameters { key: "accumulate_tokens" value: { string_value: "\${accumulate_tokens}" } }\n${target === undefined ? '' : `parameters { key: "tensorrt_llm_model_name" value: { string_value: "${target}" } }\n`}`;
const ENSEMBLE = (streaming: boolean) =>
  `platform: "ensemble"\nmax_batch_size: 64\ninput [ { name: "input_ids" data_type: TYPE_INT32 dims: [ -1 ] }, { name: "stream" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\noutput [ { name: "output_ids" data_type: TYPE_INT32 dims: [ -1, -1 ] } ]\nensemble_scheduling { step [ { model_name: "tensorrt_llm" model_version: -1 input_map { key: "input_ids" value: "input_ids" } ${streaming ? 'input_map { key: "streaming" value: "stream" } ' : ''}output_map { key: "output_ids" value: "output_ids" } } ] }\n`;
const lint = (files: Record<string, string>, paths: string[]) => lintFilesData(ID, files, paths);

describe(ID, () => {
  describe('valid', () => {
    it.each([
      ['a decoupled TensorRT-LLM model behind a streaming ensemble', { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'ensemble/config.pbtxt': ENSEMBLE(true) }, ['ensemble']],
      ['an ensemble that does not stream, in front of a model that is not decoupled', { 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'ensemble/config.pbtxt': ENSEMBLE(false) }, ['ensemble']],
      ['BLS and target both decoupled', { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(true) }, ['tensorrt_llm_bls']],
      ['BLS and target both not decoupled', { 'tensorrt_llm/config.pbtxt': TRTLLM(), 'tensorrt_llm_bls/config.pbtxt': BLS(false) }, ['tensorrt_llm_bls']],
      ['BLS calling a renamed target given by tensorrt_llm_model_name', { 'llama/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(true, 'llama') }, ['tensorrt_llm_bls']],
    ])('%s', async (_, files, paths) => {
      expect(await lint(files, paths)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('an ensemble streams into a TensorRT-LLM model that is not decoupled: on the map', async () => {
      const [f, ...rest] = await lint({ 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'ensemble/config.pbtxt': ENSEMBLE(true) }, ['ensemble']);
      expect(rest).toEqual([]);
      // Only the requests that ask to stream fail (NVIDIA's non-streaming setup maps the flag too): a warning.
      expect(f).toMatchObject({ file: 'ensemble/config.pbtxt', severity: 'warning', messageId: 'streamingNotDecoupled', token: '"stream"' });
    });

    it('a BLS model that is not decoupled in front of a decoupled target, with python_backend\'s message', async () => {
      const [f] = await lint({ 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(undefined, '${tensorrt_llm_model_name}') }, ['tensorrt_llm_bls']);
      // An unfilled name is the default, tensorrt_llm (model.py get_valid_param_value).
      expect(f).toMatchObject({ severity: 'error', messageId: 'blsNotDecoupled', data: { name: 'tensorrt_llm' } });
      expect(f!.message).toContain("(\"Model tensorrt_llm is using the decoupled. The current BLS request call doesn't support models using the decoupled transaction policy.\")");
    });

    it('a decoupled BLS model streaming into a target that is not decoupled; a target that is not there', async () => {
      const [f] = await lint({ 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'tensorrt_llm_bls/config.pbtxt': BLS(true) }, ['tensorrt_llm_bls']);
      expect(f).toMatchObject({ severity: 'warning', messageId: 'blsStreamsToNonDecoupled' });
      const [missing] = await lint({ 'tensorrt_llm_bls/config.pbtxt': BLS(true, 'llama') }, ['tensorrt_llm_bls']);
      expect(missing).toMatchObject({ severity: 'warning', messageId: 'blsTargetMissing', token: '"llama"' });
    });

    it('a vLLM target is decoupled by its auto-complete', async () => {
      const [f] = await lint({ 'tensorrt_llm/config.pbtxt': 'backend: "vllm"\n', 'tensorrt_llm/1/model.json': '{"model":"x"}', 'tensorrt_llm_bls/config.pbtxt': BLS(false) }, ['tensorrt_llm_bls']);
      expect(f).toMatchObject({ messageId: 'blsNotDecoupled' });
    });
  });
});

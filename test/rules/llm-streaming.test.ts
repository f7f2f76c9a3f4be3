// llm-streaming on the TensorRT-LLM ensemble's shapes (all_models/inflight_batcher_llm: ensemble,
// tensorrt_llm, tensorrt_llm_bls) and a vLLM model, filled as fill_template.py fills them.
import { testRule } from '../support/rule-tester.js';

const policy = (d: boolean | undefined) => (d === undefined ? '' : `model_transaction_policy { decoupled: ${d} }\n`);
const TRTLLM = (d?: boolean) =>
  `backend: "tensorrtllm"\nmax_batch_size: 64\n${policy(d)}input [ { name: "input_ids" data_type: TYPE_INT32 dims: [ -1 ] }, { name: "streaming" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\noutput [ { name: "output_ids" data_type: TYPE_INT32 dims: [ -1, -1 ] } ]\n`;
const BLS = (d?: boolean, target?: string, draft?: string) =>
  `backend: "python"\nmax_batch_size: 64\n${policy(d)}parameters { key: "accumulate_tokens" value: { string_value: "\${accumulate_tokens}" } }\n${target === undefined ? '' : `parameters { key: "tensorrt_llm_model_name" value: { string_value: "${target}" } }\n`}${draft === undefined ? '' : `parameters { key: "tensorrt_llm_draft_model_name" value: { string_value: "${draft}" } }\n`}`;
const ENSEMBLE = (streaming: boolean) =>
  `platform: "ensemble"\nmax_batch_size: 64\ninput [ { name: "input_ids" data_type: TYPE_INT32 dims: [ -1 ] }, { name: "stream" data_type: TYPE_BOOL dims: [ 1 ] optional: true } ]\noutput [ { name: "output_ids" data_type: TYPE_INT32 dims: [ -1, -1 ] } ]\nensemble_scheduling { step [ { model_name: "tensorrt_llm" model_version: -1 input_map { key: "input_ids" value: "input_ids" } ${streaming ? 'input_map { key: "streaming" value: "stream" } ' : ''}output_map { key: "output_ids" value: "output_ids" } } ] }\n`;
const ON_ENSEMBLE = ['ensemble'];
const ON_BLS = ['tensorrt_llm_bls'];

testRule('llm-streaming', {
  valid: [
    {
      name: 'a decoupled TensorRT-LLM model behind a streaming ensemble',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'ensemble/config.pbtxt': ENSEMBLE(true) },
      targets: ON_ENSEMBLE,
    },
    {
      name: 'an ensemble that does not stream, in front of a model that is not decoupled',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'ensemble/config.pbtxt': ENSEMBLE(false) },
      targets: ON_ENSEMBLE,
    },
    {
      name: 'BLS and target both decoupled',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(true) },
      targets: ON_BLS,
    },
    {
      name: 'BLS and target both not decoupled',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(), 'tensorrt_llm_bls/config.pbtxt': BLS(false) },
      targets: ON_BLS,
    },
    {
      name: 'BLS calling a renamed target given by tensorrt_llm_model_name',
      files: { 'llama/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(true, 'llama') },
      targets: ON_BLS,
    },
  ],
  invalid: [
    {
      // Only the requests that ask to stream fail (NVIDIA's non-streaming setup maps the flag too): a warning.
      name: 'an ensemble streams into a TensorRT-LLM model that is not decoupled: on the map',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'ensemble/config.pbtxt': ENSEMBLE(true) },
      targets: ON_ENSEMBLE,
      errors: [
        {
          messageId: 'streamingNotDecoupled',
          severity: 'warning',
          token: '"stream"',
          file: 'ensemble/config.pbtxt',
          data: { step: 0, tensor: "'stream'", model: "'tensorrt_llm'" },
        },
      ],
    },
    {
      // An unfilled name is the default, tensorrt_llm (model.py get_valid_param_value).
      name: "a BLS model that is not decoupled in front of a decoupled target, with python_backend's message",
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(undefined, '${tensorrt_llm_model_name}') },
      targets: ON_BLS,
      errors: [{ messageId: 'blsNotDecoupled', severity: 'error', data: { name: 'tensorrt_llm', target: "'tensorrt_llm'" } }],
    },
    {
      name: 'a decoupled BLS model streaming into a target that is not decoupled',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(false), 'tensorrt_llm_bls/config.pbtxt': BLS(true) },
      targets: ON_BLS,
      errors: [{ messageId: 'blsStreamsToNonDecoupled', severity: 'warning', path: ['model_transaction_policy'], data: { target: "'tensorrt_llm'" } }],
    },
    {
      name: 'a target named by tensorrt_llm_model_name that is not there',
      files: { 'tensorrt_llm_bls/config.pbtxt': BLS(true, 'llama') },
      targets: ON_BLS,
      errors: [{ messageId: 'blsTargetMissing', severity: 'warning', token: '"llama"', data: { target: "'llama'", parameter: 'tensorrt_llm_model_name' } }],
    },
    {
      name: 'a draft model named by tensorrt_llm_draft_model_name that is not there',
      files: { 'tensorrt_llm/config.pbtxt': TRTLLM(true), 'tensorrt_llm_bls/config.pbtxt': BLS(true, undefined, 'draft') },
      targets: ON_BLS,
      errors: [
        { messageId: 'blsTargetMissing', severity: 'warning', token: '"draft"', data: { target: "'draft'", parameter: 'tensorrt_llm_draft_model_name' } },
      ],
    },
    {
      name: 'the default target, tensorrt_llm, that is not there',
      files: { 'tensorrt_llm_bls/config.pbtxt': BLS(true) },
      targets: ON_BLS,
      errors: [{ messageId: 'blsDefaultTargetMissing', severity: 'warning', path: [], data: { target: "'tensorrt_llm'" } }],
    },
    {
      name: 'a vLLM target is decoupled by its auto-complete',
      files: { 'tensorrt_llm/config.pbtxt': 'backend: "vllm"\n', 'tensorrt_llm/1/model.json': '{"model":"x"}', 'tensorrt_llm_bls/config.pbtxt': BLS(false) },
      targets: ON_BLS,
      errors: [{ messageId: 'blsNotDecoupled', data: { target: "'tensorrt_llm'" } }],
    },
  ],
});

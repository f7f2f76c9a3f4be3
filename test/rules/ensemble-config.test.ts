import { testRule } from '../support/rule-tester.js';

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

const IO = `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [1] } ]
`;

testRule('ensemble-config', {
  valid: [
    { name: 'a two-step pipeline from the ensemble input to its output', config: PIPELINE },
    {
      name: 'a step reading two ensemble inputs and fanning out to two outputs',
      config: `platform: "ensemble"
input [ { name: "a" data_type: TYPE_FP32 dims: [1] }, { name: "b" data_type: TYPE_FP32 dims: [1] } ]
output [ { name: "x" data_type: TYPE_FP32 dims: [1] }, { name: "y" data_type: TYPE_FP32 dims: [1] } ]
ensemble_scheduling { step [ { model_name: "add_sub" model_version: -1 input_map [ { key: "INPUT0" value: "a" }, { key: "INPUT1" value: "b" } ] output_map [ { key: "OUTPUT0" value: "x" }, { key: "OUTPUT1" value: "y" } ] } ] }
`,
    },
    { name: 'a model that is not an ensemble', config: 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n' },
  ],
  invalid: [
    {
      name: 'ensemble_scheduling on another platform: error on the platform value, nothing else',
      config: PIPELINE.replace('platform: "ensemble"', 'platform: "onnxruntime_onnx"'),
      errors: [
        {
          messageId: 'schedulingOnOtherPlatform',
          data: { platform: 'onnxruntime_onnx', name: 'm' },
          severity: 'error',
          line: 2,
          token: '"onnxruntime_onnx"',
          path: ['platform'],
        },
      ],
      output: null,
    },
    {
      name: 'ensemble_scheduling without a platform: on the ensemble_scheduling field name',
      config: PIPELINE.replace('platform: "ensemble"\n', ''),
      errors: [{ messageId: 'schedulingWithoutPlatform', data: { name: 'm' }, token: 'ensemble_scheduling', path: ['ensemble_scheduling'] }],
    },
    {
      name: 'platform "ensemble" without ensemble_scheduling, quoting the name as Triton does',
      config: 'name: "m"\nplatform: "ensemble"\n',
      errors: [{ messageId: 'schedulingMissing', data: { name: 'm' }, line: 2, token: '"ensemble"' }],
    },
    {
      name: 'an empty name is the directory name, as core fills it',
      files: { 'ens/config.pbtxt': 'platform: "ensemble"\n' },
      targets: ['ens'],
      errors: [{ messageId: 'schedulingMissing', data: { name: 'ens' }, file: 'ens/config.pbtxt' }],
    },
    {
      name: 'instance_group, optimization and model_warmup: one error each on the field name',
      config: `${PIPELINE}instance_group [ { kind: KIND_CPU } ]
optimization { graph { level: 1 } }
model_warmup [ { name: "w" batch_size: 1 inputs { key: "data" value: { data_type: TYPE_UINT8 dims: [4] zero_data: true } } } ]
`,
      errors: [
        { messageId: 'instanceGroupInEnsemble', data: { field: 'instance_group', name: 'm' }, token: 'instance_group' },
        { messageId: 'optimizationInEnsemble', data: { field: 'optimization', name: 'm' }, token: 'optimization' },
        { messageId: 'warmupInEnsemble', data: { field: 'model_warmup', name: 'm' }, token: 'model_warmup' },
      ],
    },
    {
      name: 'an empty optimization block counts (has_optimization)',
      config: `${PIPELINE}optimization { }\n`,
      errors: [{ messageId: 'optimizationInEnsemble', token: 'optimization' }],
    },
    {
      name: 'no step',
      config: 'platform: "ensemble"\nensemble_scheduling { }\n',
      errors: [{ messageId: 'noSteps', data: { name: 'm' }, token: 'ensemble_scheduling' }],
    },
    {
      name: "a step without model_name / input_map / output_map, numbered from 0 as Triton does, on the step's `{`",
      config: `${IO}ensemble_scheduling { step [
  { model_name: "first" input_map { key: "x" value: "a" } output_map { key: "y" value: "t" } },
  { input_map { key: "x" value: "t" } output_map { key: "y" value: "y" } },
  { model_name: "third" }
] }
`,
      errors: [
        { messageId: 'stepWithoutModel', data: { step: 1, name: 'm' }, line: 6, token: '{', path: ['ensemble_scheduling', 'step', 1] },
        { messageId: 'stepWithoutInputMap', data: { step: 2, model: 'third', map: 'input_map', name: 'm' }, line: 7, token: '{' },
        { messageId: 'stepWithoutOutputMap', data: { step: 2, model: 'third', map: 'output_map', name: 'm' }, line: 7, token: '{' },
      ],
    },
    {
      name: 'a step with neither a model nor maps (findings at one place come in the order of their text)',
      config: `${IO}ensemble_scheduling { step [ { } ] }\n`,
      errors: [
        { messageId: 'unnamedStepWithoutInputMap', data: { step: 0, map: 'input_map', name: 'm' }, token: '{' },
        { messageId: 'unnamedStepWithoutOutputMap', data: { step: 0, map: 'output_map', name: 'm' }, token: '{' },
        { messageId: 'stepWithoutModel', data: { step: 0, name: 'm' }, token: '{' },
      ],
    },
    {
      name: 'a tensor written by two output maps: on the second one',
      config: PIPELINE.replace('output_map { key: "output" value: "prob" }', 'output_map { key: "output" value: "pixels" }'),
      errors: [
        {
          messageId: 'tensorWrittenTwice',
          data: { tensor: 'pixels', firstStep: 0, firstOutput: 'image', name: 'm', step: 1, key: 'output' },
          line: 18,
          token: '"pixels"',
        },
      ],
    },
    {
      name: "an ensemble input no step reads (Triton's unbalanced quote kept)",
      config: PIPELINE.replace(
        'input [ { name: "data" data_type: TYPE_UINT8 dims: [ -1 ] } ]',
        'input [ { name: "data" data_type: TYPE_UINT8 dims: [ -1 ] }, { name: "extra" data_type: TYPE_FP32 dims: [1] } ]',
      ),
      errors: [{ messageId: 'inputUnused', data: { name: 'extra', ensemble: 'm' }, line: 4, token: '"extra"' }],
    },
    {
      name: 'an ensemble output no step writes',
      config: PIPELINE.replace(
        'output [ { name: "prob" data_type: TYPE_FP32 dims: [ 1000 ] } ]',
        'output [ { name: "prob" data_type: TYPE_FP32 dims: [ 1000 ] }, { name: "logits" data_type: TYPE_FP32 dims: [ 1000 ] } ]',
      ),
      errors: [{ messageId: 'outputNotWritten', data: { out: 'logits', name: 'm' }, token: '"logits"' }],
    },
    {
      name: 'an output that depends on a tensor nothing writes: the message names it',
      config: PIPELINE.replace(
        'input_map { key: "input" value: "pixels" }',
        'input_map [ { key: "input" value: "pixels" }, { key: "mask" value: "attention_mask" } ]',
      ),
      errors: [{ messageId: 'outputWaitsForUnconnected', data: { out: 'prob', name: 'm', tensor: 'attention_mask' }, line: 5, token: '"prob"' }],
    },
    {
      name: 'an output only read, never written: "is not written" with no suffix',
      config: `${IO}ensemble_scheduling { step [ { model_name: "s" input_map [ { key: "x" value: "a" }, { key: "z" value: "y" } ] output_map { key: "o" value: "t" } } ] }\n`,
      errors: [
        { messageId: 'outputOnlyRead', data: { out: 'y', name: 'm' }, token: '"y"', line: 3 },
        { messageId: 'tensorNeverComputed', data: { tensor: 't', ensemble: 'm', waitsFor: 'y' }, token: '"t"' },
      ],
    },
    {
      name: 'an output whose step waits on the output itself: it never gets all of its inputs',
      config: `${IO}ensemble_scheduling { step [ { model_name: "s" input_map [ { key: "x" value: "a" }, { key: "z" value: "y" } ] output_map { key: "o" value: "y" } } ] }\n`,
      errors: [{ messageId: 'outputNeverComputed', data: { out: 'y', name: 'm' }, token: '"y"' }],
    },
    {
      name: 'a written tensor nobody reads',
      config: PIPELINE.replace(
        'output_map { key: "image" value: "pixels" }',
        'output_map [ { key: "image" value: "pixels" }, { key: "debug" value: "debug_view" } ]',
      ),
      errors: [{ messageId: 'tensorUnused', data: { tensor: 'debug_view', ensemble: 'm' }, token: '"debug_view"' }],
    },
    {
      name: 'a duplicated input_map key: the last entry wins, and the dropped tensor is unused',
      config: `${IO}ensemble_scheduling { step [
  { model_name: "s1" input_map { key: "x" value: "a" } output_map { key: "o" value: "t1" } },
  { model_name: "s2" input_map { key: "x" value: "a" } output_map { key: "o" value: "t2" } },
  { model_name: "s3" input_map { key: "x" value: "t1" } input_map { key: "x" value: "t2" } output_map { key: "o" value: "y" } }
] }
`,
      errors: [{ messageId: 'tensorUnused', data: { tensor: 't1', ensemble: 'm' }, line: 5, token: '"t1"' }],
    },
    {
      name: 'tensors that are never computed, or never get a value, beside the outputs',
      config: `${IO}ensemble_scheduling { step [
  { model_name: "s1" input_map { key: "x" value: "a" } output_map { key: "o" value: "y" } },
  { model_name: "s2" input_map { key: "x" value: "ghost" } output_map { key: "o" value: "side" } }
] }
`,
      errors: [
        { messageId: 'tensorNeverGetsValue', data: { tensor: 'ghost', ensemble: 'm' }, token: '"ghost"' },
        { messageId: 'tensorNeverComputed', data: { tensor: 'side', ensemble: 'm', waitsFor: 'ghost' }, token: '"side"' },
      ],
    },
  ],
});

import { testRule } from '../support/rule-tester.js';

const ENSEMBLE =
  'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\nensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n';
const server = (name: string, store: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  containers:\n    - name: server\n      image: nvcr.io/nvidia/tritonserver:24.10-py3\n      args: ["tritonserver", "--model-repository=${store}"]\n`;
const FILES = {
  'front/pipeline/config.pbtxt': ENSEMBLE,
  'gpu/classifier/config.pbtxt': 'backend: "onnxruntime"\n',
  'gpu/classifier/1/model.onnx': '',
};

testRule('deployment-ensemble-split', {
  valid: [
    {
      name: 'one server serves both repositories',
      files: { ...FILES, 'd.yaml': server('front', '/front').replace(']\n', ', "--model-repository=/gpu"]\n') },
      deployment: 'd.yaml',
      served: { '/front': 'front', '/gpu': 'gpu' },
    },
    {
      name: "a step no server serves is ensemble-models' finding, not this one",
      files: { 'front/pipeline/config.pbtxt': ENSEMBLE, 'd.yaml': `${server('front', '/front')}---\n${server('gpu', '/gpu')}` },
      deployment: 'd.yaml',
      served: { '/front': 'front', '/gpu': 'gpu' },
    },
  ],
  invalid: [
    {
      name: 'the ensemble on one server, its step on another',
      files: { ...FILES, 'd.yaml': `${server('front', '/front')}---\n${server('gpu', '/gpu')}` },
      deployment: 'd.yaml',
      served: { '/front': 'front', '/gpu': 'gpu' },
      errors: [
        {
          messageId: 'stepOnAnotherServer',
          token: '"--model-repository=/front"',
          data: { ensemble: 'pipeline', step: 'classifier', other: 'Pod gpu, container server', repository: '/gpu', named: '/front' },
        },
      ],
    },
  ],
});

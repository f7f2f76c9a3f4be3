import { testRule } from '../support/rule-tester.js';
import type { OnnxSpec } from '../lint/harness.js';
import { pod } from './deployment-support.js';

// 700 MiB of weights (external data sized by its length key: nothing is written).
const MODEL: OnnxSpec = { inputs: [['input', 'FLOAT', ['batch', 4]]], outputs: [['output', 'FLOAT', ['batch', 4]]], externalBytes: 700 * 2 ** 20 };
const repo = (groups: string) => ({
  'classifier/config.pbtxt': `backend: "onnxruntime"\nmax_batch_size: 8\ninstance_group [ ${groups} ]\n`,
  'classifier/1/model.onnx': MODEL,
});
const limits = (memory: string, gpus = 0) => `limits:\n  memory: ${memory}${gpus ? `\n  nvidia.com/gpu: ${gpus}` : ''}`;

testRule('deployment-memory', {
  valid: [
    { name: 'two CPU copies in 4 GiB', files: { ...repo('{ count: 2 kind: KIND_CPU }'), 'd.yaml': pod({ resources: limits('4Gi') }) }, deployment: 'd.yaml' },
    {
      name: 'GPU instances hold their weights on the GPU',
      files: { ...repo('{ count: 4 kind: KIND_GPU }'), 'd.yaml': pod({ resources: limits('1Gi', 1) }) },
      deployment: 'd.yaml',
    },
    { name: 'no limit, nothing to check', files: { ...repo('{ count: 2 kind: KIND_CPU }'), 'd.yaml': pod() }, deployment: 'd.yaml' },
    {
      name: 'explicit mode loads only the --load-model names: the large model is not loaded',
      files: {
        ...repo('{ count: 2 kind: KIND_CPU }'),
        'small/config.pbtxt': 'backend: "onnxruntime"\n',
        'small/1/model.onnx': '',
        'd.yaml': pod({ resources: limits('1Gi'), args: ['--model-control-mode=explicit', '--load-model=small'] }),
      },
      deployment: 'd.yaml',
    },
  ],
  invalid: [
    {
      name: 'two CPU copies of 700 MiB in 1 GiB',
      files: { ...repo('{ count: 2 kind: KIND_CPU }'), 'd.yaml': pod({ resources: limits('1Gi') }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'belowNeed', token: '1Gi', data: { limit: '1 GiB', need: '1.37 GiB', detail: 'classifier: 2 x 700 MiB', suggest: '2Gi' } }],
    },
    {
      name: "explicit mode with --load-model='*' loads every model",
      files: { ...repo('{ count: 2 kind: KIND_CPU }'), 'd.yaml': pod({ resources: limits('1Gi'), args: ['--model-control-mode=explicit', '--load-model=*'] }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'belowNeed', data: { need: '1.37 GiB' } }],
    },
    {
      name: 'with GPUs the pinned pool counts, as the command line sets it',
      files: { ...repo('{ count: 1 kind: KIND_CPU }'), 'd.yaml': pod({ resources: limits('1000Mi', 1), args: ['--pinned-memory-pool-byte-size=536870912'] }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'belowNeed', data: { need: '1.18 GiB', detail: 'classifier: 1 x 700 MiB, pinned pool 512 MiB' } }],
    },
  ],
});

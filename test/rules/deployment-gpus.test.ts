import { testRule } from '../support/rule-tester.js';
import { pod } from './deployment-support.js';

const model = (groups: string) => ({ 'classifier/config.pbtxt': `backend: "onnxruntime"\ninstance_group [ ${groups} ]\n`, 'classifier/1/model.onnx': '' });
const gpus = (n: number) => `limits:\n  nvidia.com/gpu: ${n}`;

testRule('deployment-gpus', {
  valid: [
    { name: 'KIND_GPU with a GPU', files: { ...model('{ kind: KIND_GPU }'), 'd.yaml': pod({ resources: gpus(1) }) }, deployment: 'd.yaml' },
    { name: 'KIND_CPU without one', files: { ...model('{ kind: KIND_CPU }'), 'd.yaml': pod() }, deployment: 'd.yaml' },
    { name: 'KIND_AUTO without one runs on the CPU', files: { ...model('{ count: 2 }'), 'd.yaml': pod() }, deployment: 'd.yaml' },
    { name: 'GPU 1 of two', files: { ...model('{ kind: KIND_GPU gpus: [ 1 ] }'), 'd.yaml': pod({ resources: gpus(2) }) }, deployment: 'd.yaml' },
    {
      name: 'a GPU request without a limit counts',
      files: { ...model('{ kind: KIND_GPU }'), 'd.yaml': pod({ resources: 'requests:\n  nvidia.com/gpu: "1"' }) },
      deployment: 'd.yaml',
    },
  ],
  invalid: [
    {
      name: 'KIND_GPU on a container with no GPU: at its resources, the GPUs it needs',
      files: { ...model('{ kind: KIND_GPU gpus: [ 0, 1 ] }'), 'd.yaml': pod({ resources: 'limits:\n  memory: 8Gi' }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'noGpus', line: 11, data: { models: 'classifier', model: 'classifier', group: 'classifier_0', needed: 2 } }],
    },
    {
      name: 'a container with no resources at all: at the container',
      files: { ...model('{ kind: KIND_GPU }'), 'd.yaml': pod() },
      deployment: 'd.yaml',
      errors: [{ messageId: 'noGpus', line: 7, data: { needed: 1 } }],
    },
    {
      name: 'GPU 1 listed, one GPU given',
      files: { ...model('{ kind: KIND_GPU gpus: [ 1 ] }'), 'd.yaml': pod({ resources: gpus(1) }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'tooFewGpus', token: '1', data: { model: 'classifier', id: 1, count: 1, ids: '0', needed: 2 } }],
    },
  ],
});

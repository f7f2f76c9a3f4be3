import { testRule } from '../support/rule-tester.js';
import { ORT_MODEL, pod } from './deployment-support.js';

const at = (image: string | null) => ({ files: { ...ORT_MODEL, 'd.yaml': pod({ image }) }, deployment: 'd.yaml' });

testRule('deployment-image', {
  valid: [
    { name: "NVIDIA's release tag", ...at('nvcr.io/nvidia/tritonserver:24.10-py3') },
    { name: 'a release tag with a digest after it', ...at('nvcr.io/nvidia/tritonserver:24.10-py3@sha256:0123456789abcdef') },
    {
      name: 'the TensorRT-LLM image serving no ONNX model',
      files: { 'd.yaml': pod({ image: 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3' }) },
      deployment: 'd.yaml',
    },
    { name: 'an ONNX model on the full image of another release', ...at('nvcr.io/nvidia/tritonserver:25.01-py3') },
  ],
  invalid: [
    { name: 'no image', ...at(null), errors: [{ messageId: 'noImage', line: 7, data: { judged: '26.08' } }] },
    { name: 'no tag', ...at('nvcr.io/nvidia/tritonserver'), errors: [{ messageId: 'noTag', token: 'nvcr.io/nvidia/tritonserver', data: { judged: '26.08' } }] },
    { name: 'a digest alone', ...at('nvcr.io/nvidia/tritonserver@sha256:0123'), errors: [{ messageId: 'digestOnly' }] },
    {
      name: "a team's own tag",
      ...at('registry.local/triton:v3'),
      errors: [{ messageId: 'notReleaseTag', data: { tag: 'v3', image: 'registry.local/triton:v3' } }],
    },
    {
      name: 'a release before the ones tritonc knows',
      ...at('nvcr.io/nvidia/tritonserver:23.05-py3'),
      errors: [{ messageId: 'unknownRelease', data: { release: '23.05' } }],
    },
    {
      name: 'a flavour NVIDIA never published for the release',
      ...at('nvcr.io/nvidia/tritonserver:26.01-tf2-python-py3'),
      errors: [{ messageId: 'unknownFlavour', severity: 'error', data: { tag: '26.01-tf2-python-py3', release: '26.01' } }],
    },
    {
      name: 'an ONNX model on the TensorRT-LLM image',
      ...at('nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3'),
      errors: [
        {
          messageId: 'backendMissing',
          severity: 'error',
          data: { backend: 'onnxruntime', models: 'classifier', others: 'nvcr.io/nvidia/tritonserver:24.11-py3' },
        },
      ],
    },
    {
      name: "KServe's own runtime runs 23.05 unless runtimeVersion says otherwise",
      files: {
        ...ORT_MODEL,
        'isvc.yaml':
          'apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: c\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: triton\n      storageUri: s3://b/m\n',
      },
      deployment: 'isvc.yaml',
      errors: [{ messageId: 'unknownRelease', line: 8, data: { image: 'nvcr.io/nvidia/tritonserver:23.05-py3', release: '23.05' } }],
    },
  ],
});

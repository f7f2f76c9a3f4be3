import { testRule } from '../support/rule-tester.js';
import { createModel, ORT_MODEL, pod } from './deployment-support.js';

const isvc = (uri: string) =>
  `apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: c\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: triton\n      runtimeVersion: 24.10-py3\n      storageUri: ${uri}\n`;

testRule('deployment-storage', {
  valid: [
    { name: 'a repository of models', files: { ...ORT_MODEL, 'deploy.yaml': isvc('s3://bucket/models') }, deployment: 'deploy.yaml' },
    { name: 'a mounted repository', files: { ...ORT_MODEL, 'deploy.yaml': pod() }, deployment: 'deploy.yaml' },
    {
      name: 'a model named by digits inside a repository is no version directory of the top',
      files: { 'classifier/config.pbtxt': 'backend: "onnxruntime"\n', 'deploy.yaml': pod() },
      deployment: 'deploy.yaml',
    },
  ],
  invalid: [
    {
      name: "KServe's storageUri at the model: Triton reads version 1 as a model",
      files: { 'config.pbtxt': 'backend: "onnxruntime"\n', '1/model.onnx': '', '3/model.onnx': '', 'deploy.yaml': isvc('s3://bucket/models/classifier/') },
      deployment: 'deploy.yaml',
      errors: [
        {
          messageId: 'modelNotRepository',
          token: 's3://bucket/models/classifier/',
          line: 11,
          data: { named: 's3://bucket/models/classifier/', model: 'classifier', version: '1', parent: 's3://bucket/models/' },
        },
      ],
    },
    {
      name: 'version directories alone at the top of a mounted volume',
      files: { '1/model.onnx': '', 'deploy.yaml': pod() },
      deployment: 'deploy.yaml',
      errors: [
        { messageId: 'modelNotRepository', token: '"--model-repository=/models"', data: { named: '/models', model: 'models', version: '1', parent: '/' } },
      ],
    },
    {
      name: "SageMaker's archive made inside the model directory: the serve script's own error",
      files: { 'config.pbtxt': 'backend: "onnxruntime"\n', '1/model.onnx': '', 'create-model.json': createModel({}) },
      deployment: 'create-model.json',
      errors: [{ messageId: 'archiveModelAtTop', token: '"s3://bucket/model.tar.gz"', data: { named: 's3://bucket/model.tar.gz', model: 'MODEL_NAME' } }],
    },
  ],
});

import { testRule } from '../support/rule-tester.js';

testRule('model-filename', {
  valid: [
    { name: 'a plain file name', config: 'backend: "onnxruntime"\ndefault_model_filename: "resnet50.onnx"\n' },
    { name: 'a DALI pipeline file', config: 'backend: "dali"\ndefault_model_filename: "pipeline-v2.dali"\n' },
    { name: 'a sub-directory of the version directory', config: 'backend: "onnxruntime"\ndefault_model_filename: "onnx/model.onnx"\n' },
    { name: 'a cc_model_filenames entry', config: 'platform: "tensorrt_plan"\ncc_model_filenames { key: "8.6" value: "model_sm86.plan" }\n' },
  ],
  invalid: [
    {
      name: 'DALI refuses any character outside [A-Za-z0-9_.-], and names the first one',
      config: 'backend: "dali"\ndefault_model_filename: "../pipelines/model.dali"\n',
      errors: [
        {
          messageId: 'daliRefusedCharacter',
          severity: 'error',
          line: 2,
          token: '"../pipelines/model.dali"',
          data: { field: 'default_model_filename', shown: '"../pipelines/model.dali"', file: '../pipelines/model.dali', bad: '/', character: '/' },
        },
      ],
    },
    {
      name: 'other backends: a path out of the version directory is a warning',
      config: 'backend: "onnxruntime"\ndefault_model_filename: "../../common/model.onnx"\n',
      errors: [
        {
          messageId: 'escapesVersionDirectory',
          severity: 'warning',
          line: 2,
          data: { field: 'default_model_filename', shown: '"../../common/model.onnx"', file: '../../common/model.onnx' },
        },
      ],
    },
    {
      name: 'quotes or white space in a file name are a warning',
      config: `backend: "onnxruntime"\ndefault_model_filename: "model.onnx'"\n`,
      errors: [{ messageId: 'unsafeCharacters', severity: 'warning', data: { field: 'default_model_filename', file: "model.onnx'", example: 'model.onnx' } }],
    },
    {
      name: 'a cc_model_filenames value out of the version directory',
      config: 'platform: "tensorrt_plan"\ncc_model_filenames { key: "8.6" value: "../model.plan" }\n',
      errors: [{ messageId: 'escapesVersionDirectory', severity: 'warning', data: { field: 'cc_model_filenames["8.6"]', file: '../model.plan' } }],
    },
    {
      name: 'a cc_model_filenames key that is not a compute capability: points at the key',
      config: 'platform: "tensorrt_plan"\ncc_model_filenames { key: "sm86" value: "model.plan" }\n',
      errors: [{ messageId: 'ccKeyNotComputeCapability', severity: 'warning', token: '"sm86"', data: { key: 'sm86', cc: '"sm86"' } }],
    },
  ],
});

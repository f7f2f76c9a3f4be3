import { testRule } from '../support/rule-tester.js';

const trt = (mode: string) => `name: "m"
optimization { execution_accelerators { gpu_execution_accelerator : [ {
  name : "tensorrt"
  parameters { key: "precision_mode" value: "${mode}" }
  parameters { key: "max_workspace_size_bytes" value: "1073741824" }
} ] } }
`;
const AT = ['optimization', 'execution_accelerators', 'gpu_execution_accelerator', 0, 'parameters', 'precision_mode'];

testRule('fp16-accuracy', {
  valid: [
    { name: 'FP32 TensorRT', config: trt('FP32') },
    { name: 'no accelerator', config: 'name: "m"\n' },
    { name: 'a precision_mode on a non-TensorRT accelerator is not ours to judge', config: trt('FP16').replace('"tensorrt"', '"cuda"') },
  ],
  invalid: [
    ...['FP16', 'BF16'].map((mode) => ({
      name: `${mode}: info on the precision_mode value`,
      config: trt(mode),
      errors: [{ messageId: 'reducedPrecision', severity: 'info' as const, token: `"${mode}"`, line: 4, path: AT, data: { mode, precisionMode: mode } }],
      output: null,
    })),
    {
      name: 'INT8: info on the precision_mode value, with the calibration table',
      config: trt('INT8'),
      errors: [{ messageId: 'reducedPrecisionInt8', severity: 'info', token: '"INT8"', line: 4, path: AT, data: { mode: 'INT8', precisionMode: 'INT8' } }],
      output: null,
    },
  ],
});

// python-parameters: FORCE_CPU_ONLY_INPUT_TENSORS as python_backend src/python_be.cc ModelState reads it
// (r24.10, r26.07): "yes" or "no", else "Incorrect value for FORCE_CPU_ONLY_INPUT_TENSORS: <value>'"
// (the real 2.51 answers so for the key without a value and for string_value "").
import { testRule } from '../support/rule-tester.js';

const PY =
  'backend: "python"\nmax_batch_size: 8\ninput [ { name: "INPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUTPUT0" data_type: TYPE_FP32 dims: [ 4 ] } ]\n';
const param = (value?: string) =>
  `parameters { key: "FORCE_CPU_ONLY_INPUT_TENSORS"${value === undefined ? '' : ` value: { string_value: ${JSON.stringify(value)} }`} }\n`;
const files = (config: string) => ({ 'm/config.pbtxt': config, 'm/1/model.py': 'class TritonPythonModel:\n    pass\n' });

testRule('python-parameters', {
  valid: [
    { name: 'yes', files: files(PY + param('yes')) },
    { name: 'no', files: files(PY + param('no')) },
    { name: 'not there', files: files(PY) },
    { name: 'a placeholder: unfilled-placeholder says what it does', files: files(PY + param('${force_cpu}')) },
    { name: 'another backend does not read it', files: { 'm/config.pbtxt': 'backend: "onnxruntime"\n' + param(''), 'm/1/model.onnx': '' } },
  ],
  invalid: [
    {
      name: 'the key without a value',
      files: files(PY + param()),
      errors: [{ messageId: 'noValue', severity: 'error', line: 5, data: { key: 'FORCE_CPU_ONLY_INPUT_TENSORS' } }],
    },
    {
      name: 'an empty value',
      files: files(PY + param('')),
      errors: [{ messageId: 'noValue', token: '""', data: { key: 'FORCE_CPU_ONLY_INPUT_TENSORS' } }],
    },
    {
      name: 'the same word in another case: fixed',
      files: files(PY + param('Yes')),
      errors: [{ messageId: 'badValueSuggest', data: { key: 'FORCE_CPU_ONLY_INPUT_TENSORS', value: 'Yes', suggestion: 'yes' } }],
      output: PY + param('yes'),
    },
    {
      name: 'a boolean: suggested, never applied by --fix',
      files: files(PY + param('true')),
      errors: [{ messageId: 'badValueSuggest', data: { value: 'true', suggestion: 'yes' } }],
      suggestions: [PY + param('yes')],
      output: null,
    },
    {
      name: 'anything else',
      files: files(PY + param('cpu')),
      errors: [{ messageId: 'badValue', data: { key: 'FORCE_CPU_ONLY_INPUT_TENSORS', value: 'cpu' } }],
    },
    {
      name: 'a vLLM model runs on the Python backend: the same',
      files: { 'm/config.pbtxt': 'backend: "vllm"\ninstance_group [ { kind: KIND_MODEL } ]\n' + param('false'), 'm/1/model.json': '{"model": "x"}' },
      errors: [{ messageId: 'badValueSuggest', data: { value: 'false', suggestion: 'no' } }],
      suggestions: ['backend: "vllm"\ninstance_group [ { kind: KIND_MODEL } ]\n' + param('no')],
      output: null,
    },
  ],
});

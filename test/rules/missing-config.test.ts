// A model directory without config.pbtxt: fine while Triton auto-completes (the default), a failed load
// on a server started with --disable-auto-complete-config.
import { CLASSIFIER, CLASSIFIER_CONFIG } from '../lint/harness.js';
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const NO_AUTO_COMPLETE = { server: { autoCompleteConfig: false } };
const CONFIG_FILE = `${MEMORY_ROOT}/m/config.pbtxt`;

testRule('missing-config', {
  valid: [
    { name: "no config on Triton's default server, which auto-completes it", files: { 'm/1/model.onnx': CLASSIFIER } },
    {
      name: 'a config on a server that does not auto-complete',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG.replace('name: "classifier"\n', ''), 'm/1/model.onnx': CLASSIFIER },
      options: NO_AUTO_COMPLETE,
    },
  ],
  invalid: [
    {
      name: 'an ONNX model without a config, with --disable-auto-complete-config: tritonc generate writes it',
      files: { 'm/1/model.onnx': CLASSIFIER },
      options: NO_AUTO_COMPLETE,
      errors: [{ messageId: 'missingOnnxModel', severity: 'error', line: 1, data: { model: 'm', file: CONFIG_FILE } }],
    },
    {
      name: 'the server setting of tritonc.config.json',
      files: { 'm/1/model.onnx': CLASSIFIER },
      settings: { server: { disableAutoCompleteConfig: true } },
      errors: [{ messageId: 'missingOnnxModel', data: { model: 'm', file: CONFIG_FILE } }],
    },
    {
      name: 'another model file without a config: the config is written by hand',
      files: { 'm/1/model.plan': 'engine' },
      options: NO_AUTO_COMPLETE,
      errors: [{ messageId: 'missing', severity: 'error', data: { model: 'm', file: CONFIG_FILE } }],
    },
  ],
});

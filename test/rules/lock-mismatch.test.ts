import { readSignatureOfBytes } from '../../src/onnx/reader.js';
import { lockedSignature, type LockedVersion } from '../../src/workspace/lock.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, onnxBytes, type OnnxSpec } from '../lint/harness.js';
import { MEMORY_ROOT, testRule } from '../support/rule-tester.js';

const PLAN_CONFIG = `platform: "tensorrt_plan"
max_batch_size: 8
input [ { name: "images" data_type: TYPE_FP16 dims: [ 3, 640, 640 ] } ]
output [ { name: "boxes" data_type: TYPE_FP16 dims: [ 100, 4 ] } ]
`;

const lock = (versions: Record<string, LockedVersion>, model = 'm'): string => JSON.stringify({ lockfileVersion: 1, models: { [model]: { versions } } });

/** What tritonc lock records for an ONNX model of this spec at m/1/model.onnx. */
function onnxLocked(spec: OnnxSpec): LockedVersion {
  const bytes = onnxBytes(spec);
  const sig = readSignatureOfBytes('model.onnx', bytes);
  return { file: '1/model.onnx', size: bytes.length, weightBytes: sig.initializers.bytes, signature: lockedSignature(sig) };
}

const WEIGHTED: OnnxSpec = { ...CLASSIFIER, initializers: [{ name: 'w', floats: 4 }] };

testRule('lock-mismatch', {
  valid: [
    { name: 'no lock: nothing to compare', files: { 'm/config.pbtxt': PLAN_CONFIG, 'm/1/model.plan': 'engine\n' } },
    {
      name: 'a lock that matches the plan file',
      files: {
        'm/config.pbtxt': PLAN_CONFIG,
        'm/1/model.plan': 'engine\n',
        'tritonc.lock.json': lock({ 1: { file: '1/model.plan', size: 7, weightBytes: 7 } }),
      },
    },
    {
      name: 'a lock that matches the ONNX model, signature and all',
      files: { 'm/config.pbtxt': CLASSIFIER_CONFIG, 'm/1/model.onnx': CLASSIFIER, 'tritonc.lock.json': lock({ 1: onnxLocked(CLASSIFIER) }) },
    },
    {
      name: 'no model file: version-dirs says so',
      files: { 'm/config.pbtxt': PLAN_CONFIG, 'tritonc.lock.json': lock({ 1: { file: '1/model.plan', size: 7, weightBytes: 7 } }) },
    },
    {
      name: 'an ensemble has no model file to lock',
      files: { 'm/config.pbtxt': 'platform: "ensemble"\n', 'tritonc.lock.json': lock({}) },
    },
  ],
  invalid: [
    {
      name: 'an engine rebuilt after the lock was written: its size',
      files: {
        'm/config.pbtxt': PLAN_CONFIG,
        'm/1/model.plan': 'engine, rebuilt\n',
        'tritonc.lock.json': lock({ 1: { file: '1/model.plan', size: 6, weightBytes: 6 } }),
      },
      errors: [
        {
          messageId: 'staleSize',
          data: { version: '1', model: 'm', repository: MEMORY_ROOT, file: '1/model.plan', size: 16, lockedSize: 6 },
          severity: 'warning',
          line: 1,
          path: ['name'],
        },
      ],
      output: null,
    },
    {
      name: 'a version the lock does not record',
      files: {
        'm/config.pbtxt': PLAN_CONFIG,
        'm/2/model.plan': 'engine\n',
        'tritonc.lock.json': lock({ 1: { file: '1/model.plan', size: 7, weightBytes: 7 } }),
      },
      errors: [{ messageId: 'notLocked', data: { version: '2', model: 'm', repository: MEMORY_ROOT, file: '2/model.plan' }, severity: 'warning' }],
    },
    {
      name: 'another model file than the lock records',
      files: {
        'm/config.pbtxt': PLAN_CONFIG,
        'm/1/model.plan': 'engine\n',
        'tritonc.lock.json': lock({ 1: { file: '1/model.onnx', size: 7, weightBytes: 7 } }),
      },
      errors: [{ messageId: 'staleFile', data: { version: '1', model: 'm', file: '1/model.plan', lockedFile: '1/model.onnx' }, severity: 'warning' }],
    },
    {
      name: 'an ONNX model whose output was renamed',
      files: {
        'm/config.pbtxt': CLASSIFIER_CONFIG,
        'm/1/model.onnx': { ...CLASSIFIER, outputs: [['logits', 'FLOAT', ['batch', 1000]]] },
        'tritonc.lock.json': lock({ 1: onnxLocked(CLASSIFIER) }),
      },
      errors: [{ messageId: 'staleIo', data: { version: '1', model: 'm', file: '1/model.onnx' }, severity: 'warning' }],
    },
    {
      name: 'an ONNX model with other weights, the same inputs and outputs',
      files: {
        'm/config.pbtxt': CLASSIFIER_CONFIG,
        'm/1/model.onnx': { ...WEIGHTED, initializers: [{ name: 'w', floats: 8 }] },
        'tritonc.lock.json': lock({ 1: onnxLocked(WEIGHTED) }),
      },
      errors: [{ messageId: 'staleWeights', data: { version: '1', model: 'm', file: '1/model.onnx' }, severity: 'warning' }],
    },
  ],
});

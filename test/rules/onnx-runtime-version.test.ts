// The ONNX Runtime each release bundles refuses models newer than it knows (triton/backends/onnxruntime/releases.ts):
// each limit at the release before and the release after it changed.
import { encodeModel, model, T, tensorInfo, node } from '../../fixtures/onnx/model-builder.js';
import { testRule } from '../support/rule-tester.js';

const MODEL = 'm/1/model.onnx';
const CONFIG = `backend: "onnxruntime"
max_batch_size: 8
input [ { name: "x" data_type: TYPE_FP32 dims: [ 4 ] } ]
output [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]
`;
/** x -> Identity -> y, stamped with `irVersion` and the opsets given. */
const onnx = (o: { irVersion?: number; opset?: number; extraOpsets?: { domain: string; version: number }[]; noOpset?: true }) =>
  encodeModel(
    model({ name: 'g', node: [node('Identity', ['x'], ['y'])], input: [tensorInfo('x', T.FLOAT, [-1, 4])], output: [tensorInfo('y', T.FLOAT, [-1, 4])] }, o),
  );
const files = (o: Parameters<typeof onnx>[0]) => ({ 'm/config.pbtxt': CONFIG, 'm/1/model.onnx': onnx(o) });

testRule('onnx-runtime-version', {
  valid: [
    { name: 'IR 10, opset 21: every release loads it', files: files({ irVersion: 10, opset: 21 }), settings: { triton: '24.05' } },
    // 25.07's ONNX Runtime 1.22.0 stops at IR 10; 25.08's 1.23.0 reads IR 11.
    { name: 'IR 11 from 25.08 (ONNX Runtime 1.23.0)', files: files({ irVersion: 11, opset: 13 }), settings: { triton: '25.08' } },
    { name: 'IR 13 from 26.02 (ONNX Runtime 1.24.1)', files: files({ irVersion: 13, opset: 13 }), settings: { triton: '26.02' } },
    { name: 'opset 22 from 25.03 (ONNX Runtime 1.21.0)', files: files({ opset: 22 }), settings: { triton: '25.03' } },
    { name: 'opset 26 in 26.07 (ONNX Runtime 1.27.0)', files: files({ opset: 26 }), settings: { triton: '26.07' } },
    { name: 'ai.onnx.ml 5 in 24.05', files: files({ extraOpsets: [{ domain: 'ai.onnx.ml', version: 5 }] }), settings: { triton: '24.05' } },
    {
      name: 'a domain ONNX Runtime does not check (com.microsoft, or "ai.onnx" spelled out), at any opset',
      files: files({
        extraOpsets: [
          { domain: 'com.microsoft', version: 99 },
          { domain: 'ai.onnx', version: 99 },
          { domain: 'constructor', version: 99 },
        ],
      }),
      settings: { triton: '24.10' },
    },
  ],
  invalid: [
    ...(['24.05', '26.08'] as const).map((triton) => ({
      name: `no opset_import at all, in ${triton}: every ONNX Runtime refuses it, before its IR version`,
      files: files({ noOpset: true, irVersion: 14 }),
      settings: { triton },
      errors: [{ messageId: 'noOpset', data: {}, file: MODEL }],
    })),
    {
      name: 'IR 11 in 24.10 (ONNX Runtime 1.19.2): its own words, and the release that loads it',
      files: files({ irVersion: 11, opset: 13 }),
      settings: { triton: '24.10' },
      errors: [
        {
          messageId: 'irVersionTooNew',
          data: { irVersion: 11, maxIr: 10, release: '24.10', ort: '1.19.2', loadsFrom: '25.08' },
          file: MODEL,
        },
      ],
    },
    {
      name: 'IR 11 in 25.07 (ONNX Runtime 1.22.0), the release before it loads',
      files: files({ irVersion: 11, opset: 13 }),
      settings: { triton: '25.07' },
      errors: [{ messageId: 'irVersionTooNew', data: { maxIr: 10, ort: '1.22.0', loadsFrom: '25.08' }, file: MODEL }],
    },
    {
      name: 'IR 12 in 26.01 (ONNX Runtime 1.23.2, IR 11)',
      files: files({ irVersion: 12, opset: 13 }),
      settings: { triton: '26.01' },
      errors: [{ messageId: 'irVersionTooNew', data: { maxIr: 11, ort: '1.23.2', loadsFrom: '26.02' }, file: MODEL }],
    },
    {
      name: 'IR 14: no release tritonc knows loads it',
      files: files({ irVersion: 14, opset: 13 }),
      settings: { triton: '26.08' },
      errors: [{ messageId: 'irVersionTooNewEverywhere', data: { irVersion: 14, maxIr: 13, ort: '1.28.0' }, file: MODEL }],
    },
    {
      name: 'opset 22 in 25.02 (ONNX Runtime 1.20.1 stops at 21); 25.03 loads it',
      files: files({ opset: 22 }),
      settings: { triton: '25.02' },
      errors: [{ messageId: 'opsetTooNew', data: { version: 22, domain: 'ai.onnx', max: 21, ort: '1.20.1', loadsFrom: '25.03' }, file: MODEL }],
    },
    {
      name: 'opset 26 in 26.06 (ONNX Runtime 1.24.4 stops at 25)',
      files: files({ opset: 26 }),
      settings: { triton: '26.06' },
      errors: [{ messageId: 'opsetTooNew', data: { version: 26, max: 25, ort: '1.24.4', loadsFrom: '26.07' }, file: MODEL }],
    },
    {
      name: 'ai.onnx.ml 6: no release loads it',
      files: files({ extraOpsets: [{ domain: 'ai.onnx.ml', version: 6 }] }),
      settings: { triton: '24.10' },
      errors: [{ messageId: 'opsetTooNewEverywhere', data: { version: 6, domain: 'ai.onnx.ml', max: 5 }, file: MODEL }],
    },
    {
      name: 'the IR version is checked first: one finding, as ONNX Runtime throws once',
      files: files({ irVersion: 11, opset: 23 }),
      settings: { triton: '24.10' },
      errors: [{ messageId: 'irVersionTooNew', file: MODEL }],
    },
    {
      name: 'the default target is the newest release',
      files: files({ opset: 27 }),
      errors: [{ messageId: 'opsetTooNewEverywhere', data: { release: '26.08', max: 26 }, file: MODEL }],
    },
  ],
});

// TRITON_BATCH_STRATEGY_PATH as core reads it (src/backend_model.cc TritonModel::Create): the release
// before and after 26.06, where core began refusing a library outside the model directory.
import { CLASSIFIER } from '../lint/harness.js';
import { testRule, type CaseFile } from '../support/rule-tester.js';

const config = (path: string, more = 'dynamic_batching { }\n') =>
  `name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n${more}parameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: ${JSON.stringify(path)} } }\n`;
const repo = (path: string, more: Record<string, CaseFile> = {}, extra?: string): Record<string, CaseFile> => ({
  'classifier/config.pbtxt': config(path, extra),
  'classifier/1/model.onnx': CLASSIFIER,
  ...more,
});
const LIBRARY = { 'classifier/lib/libbatch.so': 'stands in for the library' };

testRule('batch-strategy-path', {
  valid: [
    {
      name: 'an absolute path through the model directory to a library there',
      files: repo('/models/classifier/lib/libbatch.so', LIBRARY),
      targets: ['classifier'],
    },
    {
      name: 'the same path with ./ and // in it (core compares canonical paths)',
      files: repo('/models//classifier/./lib/libbatch.so', LIBRARY),
      targets: ['classifier'],
    },
    {
      name: 'an absolute path elsewhere, for 26.05: core reads it where it lies, which only the server knows',
      files: repo('/opt/batching/libbatch.so'),
      targets: ['classifier'],
      settings: { triton: '26.05' },
    },
    {
      name: 'with sequence batching: sequence-batching refuses the parameter itself',
      files: repo('libbatch.so', {}, 'sequence_batching { }\n'),
      targets: ['classifier'],
    },
    {
      name: 'no parameter: core looks for batchstrategy.so itself',
      files: { 'classifier/config.pbtxt': 'name: "classifier"\nplatform: "onnxruntime_onnx"\nmax_batch_size: 8\n', 'classifier/1/model.onnx': CLASSIFIER },
      targets: ['classifier'],
    },
  ],
  invalid: [
    {
      name: 'a path relative to the config, for 26.05: core looks in its working directory',
      files: repo('lib/libbatch.so', LIBRARY),
      targets: ['classifier'],
      settings: { triton: '26.05' },
      errors: [{ messageId: 'relativeNotFound', data: { path: 'lib/libbatch.so', release: '26.05', model: 'classifier', file: 'libbatch.so' } }],
    },
    {
      name: 'the same for 26.06: refused as outside the model directory',
      files: repo('lib/libbatch.so', LIBRARY),
      targets: ['classifier'],
      settings: { triton: '26.06' },
      errors: [{ messageId: 'relativeEscapes', data: { path: 'lib/libbatch.so', release: '26.06' } }],
    },
    {
      name: 'an absolute path elsewhere, for 26.06',
      files: repo('/opt/batching/libbatch.so'),
      targets: ['classifier'],
      settings: { triton: '26.06' },
      errors: [{ messageId: 'outsideModelDirectory', data: { path: '/opt/batching/libbatch.so', release: '26.06', model: 'classifier' } }],
    },
    {
      name: 'an absolute path that leaves the model directory by ..',
      files: repo('/models/classifier/../libbatch.so', { 'libbatch.so': 'x' }),
      targets: ['classifier'],
      settings: { triton: '26.06' },
      errors: [{ messageId: 'outsideModelDirectory' }],
    },
    ...(['24.05', '26.08'] as const).map((triton) => ({
      name: `a path through the model directory to a library that is not there, in ${triton}`,
      files: repo('/models/classifier/lib/libbatch.so'),
      targets: ['classifier'],
      settings: { triton },
      errors: [{ messageId: 'missing', data: { path: '/models/classifier/lib/libbatch.so', local: 'classifier/lib/libbatch.so' } }],
    })),
    {
      name: 'an empty value, for 26.05',
      files: repo(''),
      targets: ['classifier'],
      settings: { triton: '26.05' },
      errors: [{ messageId: 'emptyNotFound', data: { release: '26.05' } }],
    },
    {
      name: 'an empty value, for 26.06',
      files: repo(''),
      targets: ['classifier'],
      settings: { triton: '26.06' },
      errors: [{ messageId: 'emptyRefused', data: { release: '26.06' } }],
    },
  ],
});

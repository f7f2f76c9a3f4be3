// unchecked-model names the checks against the model that did not run, read from the active rules
// that need the model (ctx.modelChecks). The rule tester runs the rule under test alone, so here every
// run also gets those rules with their checks emptied: they are active, and say nothing.
import { vi } from 'vitest';
import type { OnnxSpec } from '../lint/harness.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZip } from '../pytorch/zip-builder.js';
import { savedModelPb } from '../savedmodel/helpers.js';
import { testRule } from '../support/rule-tester.js';
import { ROOT } from '../support/snapshot.js';

vi.mock('../../src/lint/engine.js', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/lint/engine.js')>();
  const { RULES } = await import('../../src/lint/rules/index.js');
  const silent = RULES.filter((r) => r.meta.requiresModel).map((r) => ({ ...r, check: () => {} }));
  type Options = NonNullable<Parameters<typeof engine.lintSync>[1]>;
  return {
    ...engine,
    lintSync: (targets: string[], options: Options) =>
      engine.lintSync(targets, { ...options, rules: [...(options.rules ?? []), ...silent] as Options['rules'] }),
  };
});

const CHECKS = 'missing-dynamic-axis, batch-dim-in-dims, io-name, io-datatype, io-shape, sequence-control-inputs';
const TRT = 'platform: "tensorrt_plan"\nmax_batch_size: 8\n';
const ONNX = 'backend: "onnxruntime"\nmax_batch_size: 8\n';
const CLASSIFIER: OnnxSpec = { inputs: [['input', 'FLOAT', ['batch', 3, 224, 224]]], outputs: [['output', 'FLOAT', ['batch', 1000]]] };
const CONFIGS_ONLY = { configsOnly: true };
const TORCHSCRIPT = readFileSync(join(ROOT, 'fixtures/models/pytorch/libtorch_float32_float32_float32/1/model.pt'));
// torch 2.5.1 (the pinned exporter) has no aoti_compile_and_package: the layout torch >= 2.6 writes.
const AOTI = buildZip([
  { name: 'model/archive_format', data: 'pt2' },
  { name: 'model/data/aotinductor/model/c1.wrapper.so', data: Buffer.alloc(64) },
  { name: 'model/data/aotinductor/model/c1_metadata.json', data: '{"AOTI_DEVICE_KEY": "cpu"}' },
]);

testRule('unchecked-model', {
  valid: [
    {
      name: 'a Python model whose auto_complete_config is read to its end: python-autocomplete checks it',
      files: {
        'p/config.pbtxt': 'backend: "python"\n',
        'p/1/model.py': 'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        c.set_max_batch_size(8)\n        return c\n',
      },
      targets: ['p'],
    },
    {
      name: 'a Python model without auto_complete_config',
      files: { 'p/config.pbtxt': 'backend: "python"\n', 'p/1/model.py': 'class TritonPythonModel:\n    pass\n' },
      targets: ['p'],
    },
    { name: 'an ONNX model, read and checked', files: { 'm/config.pbtxt': ONNX, 'm/1/model.onnx': CLASSIFIER } },
    { name: 'an ONNX model missing outside --configs-only: version-dirs says so', config: ONNX },
    { name: 'an ensemble has no model file', files: { 'm/config.pbtxt': 'platform: "ensemble"\nmax_batch_size: 8\n', 'm/1/': '' } },
    { name: 'no backend, no model file, outside --configs-only: platform-backend says why', files: { 'm/config.pbtxt': 'max_batch_size: 8\n', 'm/1/': '' } },
  ],
  invalid: [
    {
      name: 'a TensorRT engine: its backend auto-completes at load',
      files: { 'detector/config.pbtxt': TRT, 'detector/1/model.plan': 'engine' },
      targets: ['detector'],
      errors: [
        {
          messageId: 'notRead',
          severity: 'info',
          line: 1,
          token: '"tensorrt_plan"',
          path: ['platform'],
          data: { model: 'detector', what: 'TensorRT engines (model.plan)', checks: CHECKS, backend: 'tensorrt' },
        },
      ],
    },
    {
      name: 'a TensorRT engine on a server with --disable-auto-complete-config',
      files: { 'detector/config.pbtxt': TRT, 'detector/1/model.plan': 'engine' },
      targets: ['detector'],
      settings: { server: { disableAutoCompleteConfig: true } },
      errors: [
        {
          messageId: 'notReadComplete',
          severity: 'info',
          token: '"tensorrt_plan"',
          data: { model: 'detector', what: 'TensorRT engines (model.plan)', checks: CHECKS, backend: 'tensorrt' },
        },
      ],
    },
    {
      name: 'a Python model, pointed at by backend (a TorchScript model is read: no note)',
      files: {
        'm/config.pbtxt': 'backend: "pytorch"\nmax_batch_size: 8\n',
        'm/1/model.pt': TORCHSCRIPT,
        'p/config.pbtxt': 'backend: "python"\nmax_batch_size: 8\n',
      },
      targets: ['m', 'p'],
      errors: [{ messageId: 'notRead', token: '"python"', file: 'p/config.pbtxt', data: { model: 'p', what: 'Python models (model.py)', backend: 'python' } }],
    },
    {
      name: "an AOTInductor package: read for its weights' size, its inputs and outputs in no stable record (an archive laid out as aoti_compile_and_package writes one)",
      files: { 'm/config.pbtxt': 'platform: "torch_aoti"\nmax_batch_size: 8\n', 'm/1/model.pt2': AOTI },
      errors: [
        {
          messageId: 'aotiNotRead',
          token: '"torch_aoti"',
          path: ['platform'],
          data: { model: 'm', file: 'model.pt2', checks: CHECKS, backend: 'pytorch' },
        },
      ],
    },
    {
      name: 'a Python model whose auto_complete_config is read only up to a line: said once, with that line',
      files: {
        'p/config.pbtxt': 'backend: "python"\n',
        'p/1/model.py':
          'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        c.set_max_batch_size(8)\n        for spec in load_specs():\n            c.add_input(spec)\n        return c\n',
      },
      targets: ['p'],
      errors: [{ messageId: 'scriptNotFollowed', token: '"python"', path: ['backend'], data: { model: 'p', line: 5, source: '`for spec in load_specs():`' } }],
    },
    {
      name: 'a SavedModel whose config names another signature (TF_SIGNATURE_DEF) than the one read',
      files: {
        's/config.pbtxt': 'platform: "tensorflow_savedmodel"\nparameters { key: "TF_SIGNATURE_DEF" value: { string_value: "predict" } }\n',
        's/1/model.savedmodel/saved_model.pb': savedModelPb('savedmodel_int32_int8_int8'),
      },
      targets: ['s'],
      errors: [{ messageId: 'otherSignature', path: ['parameters'], data: { model: 's', parameter: 'TF_SIGNATURE_DEF "predict"' } }],
    },
    {
      name: 'a TensorFlow GraphDef: not read (a SavedModel is)',
      files: { 'g/config.pbtxt': 'platform: "tensorflow_graphdef"\nmax_batch_size: 8\n', 'g/1/model.graphdef': 'graph' },
      targets: ['g'],
      errors: [{ messageId: 'notRead', token: '"tensorflow_graphdef"', data: { model: 'g', what: 'GraphDefs (model.graphdef)', backend: 'tensorflow' } }],
    },
    {
      name: 'another backend, with its model file named',
      config: 'backend: "dali"\ndefault_model_filename: "model.dali"\nmax_batch_size: 8\n',
      errors: [{ messageId: 'notRead', token: '"dali"', data: { what: 'dali models (model.dali)', backend: 'dali' } }],
    },
    {
      name: '--configs-only, with neither the ONNX model nor a lock',
      files: { 'classifier/config.pbtxt': ONNX },
      targets: ['classifier'],
      settings: CONFIGS_ONLY,
      errors: [
        {
          messageId: 'notHere',
          severity: 'info',
          line: 1,
          token: '"onnxruntime"',
          data: { model: 'classifier', checks: CHECKS, expected: 'classifier/1/model.onnx' },
        },
      ],
    },
    {
      name: '--configs-only, a TorchScript model neither here nor locked: its own file named',
      files: { 'torch/config.pbtxt': 'platform: "pytorch_libtorch"\nmax_batch_size: 8\n' },
      targets: ['torch'],
      settings: CONFIGS_ONLY,
      errors: [{ messageId: 'notHere', token: '"pytorch_libtorch"', data: { model: 'torch', checks: CHECKS, expected: 'torch/1/model.pt' } }],
    },
    {
      name: '--configs-only, no backend nor platform: the model file at deploy decides the backend',
      files: { 'engine/config.pbtxt': 'name: "engine"\nmax_batch_size: 8\n', 'engine/1/.gitkeep': '' },
      targets: ['engine'],
      settings: CONFIGS_ONLY,
      errors: [{ messageId: 'backendElsewhere', severity: 'info', path: [], data: { model: 'engine', checks: CHECKS } }],
    },
  ],
});

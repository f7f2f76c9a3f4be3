import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintText } from '../../src/lint/engine.js';
import { ensembleModels } from '../../src/lint/rules/correctness/ensemble-models.js';
import { writeRepo, type OnnxSpec } from '../lint/harness.js';
import { MEMORY_ROOT, testRule, type CaseFile } from '../support/rule-tester.js';

interface Io {
  name: string;
  type?: string;
  dims: number[];
  optional?: boolean;
}

const io = (list: Io[]): string =>
  list.map((t) => `{ name: "${t.name}" data_type: ${t.type ?? 'TYPE_FP32'} dims: [${t.dims.join(', ')}]${t.optional ? ' optional: true' : ''} }`).join(', ');

/** An ONNX Runtime model config with its inputs and outputs listed. */
function model(name: string, mbs: number, inputs: Io[], outputs: Io[], extra = ''): string {
  return `name: "${name}"\nplatform: "onnxruntime_onnx"\nmax_batch_size: ${mbs}\ninput [ ${io(inputs)} ]\noutput [ ${io(outputs)} ]\n${extra}`;
}

interface Step {
  model: string;
  version?: number;
  inputs: Record<string, string>;
  outputs: Record<string, string>;
}

function ensemble(name: string, mbs: number, inputs: Io[], outputs: Io[], steps: Step[], extra = ''): string {
  const step = (s: Step): string => {
    const version = s.version === undefined ? '' : ` model_version: ${s.version}`;
    const maps = [
      ...Object.entries(s.inputs).map(([k, v]) => `input_map { key: "${k}" value: "${v}" }`),
      ...Object.entries(s.outputs).map(([k, v]) => `output_map { key: "${k}" value: "${v}" }`),
    ];
    return `    { model_name: "${s.model}"${version}\n      ${maps.join('\n      ')} }`;
  };
  return `name: "${name}"\nplatform: "ensemble"\nmax_batch_size: ${mbs}\ninput [ ${io(inputs)} ]\noutput [ ${io(outputs)} ]\nensemble_scheduling {\n  step [\n${steps.map(step).join(',\n')}\n  ]\n}\n${extra}`;
}

const PRE = model('pre', 8, [{ name: 'RAW', type: 'TYPE_UINT8', dims: [-1] }], [{ name: 'IMAGE', dims: [3, 224, 224] }]);
const CLS = model('cls', 8, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', dims: [1000] }]);
const STEPS: Step[] = [
  { model: 'pre', version: -1, inputs: { RAW: 'data' }, outputs: { IMAGE: 'pixels' } },
  { model: 'cls', version: -1, inputs: { input: 'pixels' }, outputs: { output: 'prob' } },
];
const ENS_IN: Io[] = [{ name: 'data', type: 'TYPE_UINT8', dims: [-1] }];
const ENS_OUT: Io[] = [{ name: 'prob', dims: [1000] }];

/** A repository: each model's config plus a version directory 1 (unless `extra` has files of the model, or versionDirs is false). */
function repo(configs: Record<string, string>, extra: Record<string, CaseFile> = {}, versionDirs = true): Record<string, CaseFile> {
  const files: Record<string, CaseFile> = { ...extra };
  for (const [name, config] of Object.entries(configs)) {
    files[`${name}/config.pbtxt`] = config;
    if (versionDirs && !Object.keys(extra).some((f) => f.startsWith(`${name}/`))) files[`${name}/1/.keep`] = '';
  }
  return files;
}

/** The classifier's ONNX file: a batch axis, so auto-complete gives max_batch_size 4 (Triton's default). */
const CLS_ONNX: OnnxSpec = { inputs: [['input', 'FLOAT', ['batch', 3, 224, 224]]], outputs: [['output', 'FLOAT', ['batch', 1000]]] };

const gen = (name: string): string =>
  model(name, 0, [{ name: 'IN', dims: [1] }], [{ name: 'OUT', dims: [1] }], 'model_transaction_policy { decoupled: true }\n');

/** Two repositories of one server (tritonserver --model-repository twice). */
const twoRepositories = { server: { modelRepositories: [`${MEMORY_ROOT}/a`, `${MEMORY_ROOT}/b`] } };
const REPOSITORIES = `${MEMORY_ROOT}/a, ${MEMORY_ROOT}/b`;

testRule('ensemble-models', {
  valid: [
    {
      name: 'a pipeline whose steps match the composing configs',
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: CLS }),
    },
    {
      name: 'a composing ONNX model with no I/O in its config is completed from the model file',
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 4, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: 'platform: "onnxruntime_onnx"\n' }, { 'cls/1/model.onnx': CLS_ONNX }),
    },
    {
      // ONNX Runtime without a model file to complete from, and a Python model whose auto_complete_config
      // adds what tritonc cannot read (its inputs come from a function).
      name: 'nothing is blamed on a composing model whose I/O tritonc cannot know',
      targets: ['ens'],
      files: repo(
        {
          ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
          pre: 'backend: "python"\nmax_batch_size: 8\n',
          cls: 'platform: "onnxruntime_onnx"\nmax_batch_size: 8\n',
        },
        {
          'pre/1/model.py':
            'class TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n        for spec in load_specs():\n            c.add_input(spec)\n        return c\n',
        },
      ),
    },
    {
      name: 'an optional composing input may stay unmapped',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: PRE,
        cls: model(
          'cls',
          8,
          [
            { name: 'input', dims: [3, 224, 224] },
            { name: 'mask', dims: [1], optional: true },
          ],
          [{ name: 'output', dims: [1000] }],
        ),
      }),
    },
    {
      // pre batches ([-1] + [3,-1,-1]); cls does not batch but takes the full shape [-1,3,224,224].
      name: 'shapes agree through -1 wildcards and between batching and non-batching models',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: model('pre', 8, [{ name: 'RAW', type: 'TYPE_UINT8', dims: [-1] }], [{ name: 'IMAGE', dims: [3, -1, -1] }]),
        cls: model('cls', 0, [{ name: 'input', dims: [-1, 3, 224, 224] }], [{ name: 'output', dims: [-1, 1000] }]),
      }),
    },
    {
      name: 'the ensemble compares its own I/O by reshape.shape when a reshape is given',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, [{ name: 'prob', dims: [1, 1000] }], STEPS).replace('dims: [1, 1000] }', 'dims: [1, 1000] reshape { shape: [1000] } }'),
        pre: PRE,
        cls: CLS,
      }),
    },
    {
      name: 'model_version -1, or one the model loads',
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          8,
          ENS_IN,
          ENS_OUT,
          STEPS.map((s) => ({ ...s, version: s.model === 'cls' ? 1 : -1 })),
        ),
        pre: PRE,
        cls: CLS,
      }),
    },
    {
      name: "a model in another of the server's repositories is found there",
      targets: ['a/ens'],
      options: twoRepositories,
      files: { ...repo({ 'a/ens': ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), 'a/pre': PRE, 'b/cls': CLS }) },
    },
  ],
  invalid: [
    {
      name: 'a completed ONNX model, mapped with a name it does not have: known only because it was completed',
      targets: ['ens'],
      files: repo(
        {
          ens: ensemble(
            'ens',
            4,
            ENS_IN,
            ENS_OUT,
            STEPS.map((s) => (s.model === 'cls' ? { ...s, inputs: { images: 'pixels' } } : s)),
          ),
          pre: PRE,
          cls: 'platform: "onnxruntime_onnx"\n',
        },
        { 'cls/1/model.onnx': CLS_ONNX },
      ),
      errors: [
        { messageId: 'stepInputUnmapped', data: { step: 1, name: 'input', model: 'cls', ensemble: 'ens' }, token: '"cls"', file: 'ens/config.pbtxt' },
        {
          messageId: 'inputMapUnknownInput',
          data: { key: 'images', model: 'cls', inputs: "'input'", ensemble: 'ens', tensor: 'pixels' },
          token: '"images"',
          file: 'ens/config.pbtxt',
        },
      ],
      output: null,
    },
    {
      name: "auto-complete raised a composing ONNX model to max_batch_size 4 (Triton's default): an ensemble asking for 8 is refused",
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: 'platform: "onnxruntime_onnx"\n' }, { 'cls/1/model.onnx': CLS_ONNX }),
      errors: [{ messageId: 'maxBatchSizeAboveStep', data: { ensembleMbs: 8, step: 1, model: 'cls', depMbs: 4, ensemble: 'ens' }, file: 'ens/config.pbtxt' }],
    },
    {
      name: "step models missing from the repository: every name in Triton's sorted list, on each step, with a near name",
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, [
          { model: 'tokenizer', version: -1, inputs: { RAW: 'data' }, outputs: { IMAGE: 'pixels' } },
          { model: 'Cls', version: -1, inputs: { input: 'pixels' }, outputs: { output: 'prob' } },
        ]),
        cls: CLS,
      }),
      errors: [
        {
          messageId: 'stepModelMissing',
          data: { step: 0, model: 'tokenizer', repository: MEMORY_ROOT, ensemble: 'ens', missing: 'Cls, tokenizer' },
          severity: 'error',
          token: '"tokenizer"',
          path: ['ensemble_scheduling', 'step', 0, 'model_name'],
          file: 'ens/config.pbtxt',
        },
        {
          messageId: 'stepModelMissingNear',
          data: { step: 1, model: 'Cls', repository: MEMORY_ROOT, ensemble: 'ens', missing: 'Cls, tokenizer', near: 'cls' },
          token: '"Cls"',
          file: 'ens/config.pbtxt',
        },
      ],
      output: null,
    },
    {
      name: "a step model in none of the server's repositories, with and without a near name",
      targets: ['a/ens'],
      options: twoRepositories,
      files: repo({
        'a/ens': ensemble('ens', 8, ENS_IN, ENS_OUT, [
          { model: 'tokenizer', version: -1, inputs: { RAW: 'data' }, outputs: { IMAGE: 'pixels' } },
          { model: 'Cls', version: -1, inputs: { input: 'pixels' }, outputs: { output: 'prob' } },
        ]),
        'b/cls': CLS,
      }),
      errors: [
        {
          messageId: 'stepModelMissingAnyRepository',
          data: { step: 0, model: 'tokenizer', repositories: REPOSITORIES, ensemble: 'ens', missing: 'Cls, tokenizer' },
          token: '"tokenizer"',
          file: 'a/ens/config.pbtxt',
        },
        {
          messageId: 'stepModelMissingAnyRepositoryNear',
          data: { step: 1, model: 'Cls', repositories: REPOSITORIES, ensemble: 'ens', missing: 'Cls, tokenizer', near: 'cls' },
          token: '"Cls"',
          file: 'a/ens/config.pbtxt',
        },
      ],
    },
    {
      name: "a model name in two of the server's repositories is loaded from neither",
      targets: ['a/ens'],
      options: twoRepositories,
      files: repo({ 'a/ens': ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), 'a/pre': PRE, 'a/cls': CLS, 'b/cls': CLS }),
      errors: [
        {
          messageId: 'stepModelAmbiguous',
          data: { step: 1, model: 'cls', repositories: REPOSITORIES, ensemble: 'ens', missing: 'cls' },
          token: '"cls"',
          file: 'a/ens/config.pbtxt',
        },
      ],
    },
    {
      name: "a model name in two of the server's repositories, with a near name that is unique",
      targets: ['a/ens'],
      options: twoRepositories,
      files: repo({ 'a/ens': ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), 'a/pre': PRE, 'a/cls': CLS, 'b/cls': CLS, 'b/Cls': CLS }),
      errors: [
        {
          messageId: 'stepModelAmbiguousNear',
          data: { step: 1, model: 'cls', repositories: REPOSITORIES, ensemble: 'ens', missing: 'cls', near: 'Cls' },
          token: '"cls"',
          file: 'a/ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'externalModels: models from another repository are not reported, the present ones still checked',
      targets: ['ens'],
      settings: { rules: { 'ensemble-models': ['error', { externalModels: true }] } },
      files: repo({
        ens: ensemble(
          'ens',
          8,
          ENS_IN,
          ENS_OUT,
          STEPS.map((s) => (s.model === 'cls' ? { ...s, outputs: { logits: 'prob' } } : s)),
        ),
        cls: CLS,
      }),
      errors: [
        {
          messageId: 'outputMapUnknownOutput',
          data: { key: 'logits', model: 'cls', outputs: "'output'", ensemble: 'ens', tensor: 'prob' },
          token: '"logits"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: "ensembles that run each other: each gets Triton's cycle message",
      targets: ['a', 'b'],
      files: repo({
        a: ensemble('a', 8, ENS_IN, ENS_OUT, [{ model: 'b', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]),
        b: ensemble('b', 8, ENS_IN, ENS_OUT, [{ model: 'a', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]),
      }),
      errors: [
        { messageId: 'circularDependency', data: { step: 0, model: 'b', ensemble: 'a', last: 'b' }, token: '"b"', file: 'a/config.pbtxt' },
        { messageId: 'circularDependency', data: { step: 0, model: 'a', ensemble: 'b', last: 'a' }, token: '"a"', file: 'b/config.pbtxt' },
      ],
    },
    {
      name: 'an ensemble that runs itself',
      targets: ['self'],
      files: repo({ self: ensemble('self', 8, ENS_IN, ENS_OUT, [{ model: 'self', version: -1, inputs: { data: 'data' }, outputs: { prob: 'prob' } }]) }),
      errors: [{ messageId: 'circularDependency', data: { step: 0, model: 'self', ensemble: 'self', last: 'self' }, file: 'self/config.pbtxt' }],
    },
    {
      name: 'a pinned model_version the model does not load: on the model_version value',
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          8,
          ENS_IN,
          ENS_OUT,
          STEPS.map((s) => ({ ...s, version: s.model === 'cls' ? 2 : -1 })),
        ),
        pre: PRE,
        cls: CLS,
      }),
      errors: [
        {
          messageId: 'stepVersionNotLoaded',
          data: { step: 1, required: 2, name: 'cls', loaded: '1', ensemble: 'ens' },
          severity: 'error',
          token: '2',
          path: ['ensemble_scheduling', 'step', 1, 'model_version'],
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'an omitted model_version is 0 (proto3), not the latest',
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          8,
          ENS_IN,
          ENS_OUT,
          STEPS.map(({ version: _v, ...s }) => s),
        ),
        pre: PRE,
        cls: CLS,
      }),
      errors: [
        {
          messageId: 'stepVersionUnset',
          data: { step: 0, required: 0, name: 'pre', loaded: '1', ensemble: 'ens' },
          severity: 'error',
          token: '"pre"',
          file: 'ens/config.pbtxt',
        },
        { messageId: 'stepVersionUnset', data: { step: 1, required: 0, name: 'cls', loaded: '1', ensemble: 'ens' }, token: '"cls"', file: 'ens/config.pbtxt' },
      ],
    },
    {
      name: 'an omitted model_version without version directories in the checkout is still worth a warning',
      targets: ['ens'],
      files: repo(
        {
          ens: ensemble(
            'ens',
            8,
            ENS_IN,
            ENS_OUT,
            STEPS.map(({ version: _v, ...s }) => s),
          ),
          pre: PRE,
          cls: CLS,
        },
        {},
        false,
      ),
      errors: [
        { messageId: 'stepVersionUnsetZero', data: { step: 0, name: 'pre', ensemble: 'ens' }, severity: 'warning', token: '"pre"', file: 'ens/config.pbtxt' },
        { messageId: 'stepVersionUnsetZero', data: { step: 1, name: 'cls', ensemble: 'ens' }, severity: 'warning', token: '"cls"', file: 'ens/config.pbtxt' },
      ],
    },
    {
      name: 'a composing model without a version directory, when the ensemble has one',
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE }, { 'cls/config.pbtxt': CLS }),
      errors: [{ messageId: 'stepModelNoVersion', data: { step: 1, name: 'cls', ensemble: 'ens' }, token: '"cls"', file: 'ens/config.pbtxt' }],
    },
    {
      name: 'a composing model whose version_policy selects none of its version directories',
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), pre: PRE, cls: `${CLS}version_policy { specific { versions: [ 2 ] } }\n` }),
      errors: [{ messageId: 'stepModelNoVersionSelected', data: { step: 1, name: 'cls', ensemble: 'ens' }, token: '"cls"', file: 'ens/config.pbtxt' }],
    },
    {
      name: "a composing max_batch_size below the ensemble's: on the ensemble's max_batch_size",
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: PRE,
        cls: model('cls', 4, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', dims: [1000] }]),
      }),
      errors: [
        {
          messageId: 'maxBatchSizeAboveStep',
          data: { ensembleMbs: 8, step: 1, model: 'cls', depMbs: 4, ensemble: 'ens' },
          line: 3,
          token: '8',
          path: ['max_batch_size'],
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      // A map is read by its own keys only: no step maps "constructor", whatever Object.prototype holds.
      name: "a composing model's input named like an Object.prototype key, left unmapped",
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: model(
          'pre',
          8,
          [
            { name: 'RAW', type: 'TYPE_UINT8', dims: [-1] },
            { name: 'constructor', dims: [1] },
          ],
          [{ name: 'IMAGE', dims: [3, 224, 224] }],
        ),
        cls: CLS,
      }),
      errors: [
        { messageId: 'stepInputUnmapped', data: { step: 0, name: 'constructor', model: 'pre', ensemble: 'ens' }, token: '"pre"', file: 'ens/config.pbtxt' },
      ],
    },
    {
      name: 'input_map and output_map keys that are not I/O of the model: on the key',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, [
          { model: 'pre', version: -1, inputs: { raw: 'data' }, outputs: { IMAGE: 'pixels' } },
          { model: 'cls', version: -1, inputs: { input: 'pixels' }, outputs: { logits: 'prob' } },
        ]),
        pre: PRE,
        cls: CLS,
      }),
      errors: [
        { messageId: 'stepInputUnmapped', data: { step: 0, name: 'RAW', model: 'pre', ensemble: 'ens' }, token: '"pre"', file: 'ens/config.pbtxt' },
        {
          messageId: 'inputMapUnknownInput',
          data: { key: 'raw', model: 'pre', inputs: "'RAW'", ensemble: 'ens', tensor: 'data' },
          token: '"raw"',
          file: 'ens/config.pbtxt',
        },
        {
          messageId: 'outputMapUnknownOutput',
          data: { key: 'logits', model: 'cls', outputs: "'output'", ensemble: 'ens', tensor: 'prob' },
          token: '"logits"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      // Without auto-complete the config is run as written: a model that lists no inputs or outputs has none.
      name: 'map keys of a model that has no inputs or outputs (the server does not auto-complete)',
      targets: ['ens'],
      options: { server: { autoCompleteConfig: false } },
      files: repo({
        ens: ensemble(
          'ens',
          0,
          [{ name: 'x', dims: [1] }],
          [{ name: 'y', dims: [1] }],
          [
            { model: 'src', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'y' } },
            { model: 'sink', version: -1, inputs: { IN: 'y' }, outputs: { OUT: 'z' } },
          ],
        ),
        src: 'name: "src"\nbackend: "python"\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
        sink: 'name: "sink"\nbackend: "python"\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
      }),
      errors: [
        { messageId: 'inputMapModelHasNoInputs', data: { key: 'IN', model: 'src', ensemble: 'ens', tensor: 'x' }, token: '"IN"', file: 'ens/config.pbtxt' },
        {
          messageId: 'outputMapModelHasNoOutputs',
          data: { key: 'OUT', model: 'sink', ensemble: 'ens', tensor: 'z' },
          token: '"OUT"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'inconsistent data types: first against the ensemble input, then between steps',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: model('pre', 8, [{ name: 'RAW', type: 'TYPE_INT32', dims: [-1] }], [{ name: 'IMAGE', type: 'TYPE_FP16', dims: [3, 224, 224] }]),
        cls: CLS,
      }),
      errors: [
        {
          messageId: 'tensorDataTypeMismatchInput',
          data: {
            tensor: 'data',
            ensemble: 'ens',
            seenType: 'TYPE_INT32',
            seenModel: 'pre',
            seenStep: 0,
            seenMap: 'input_map',
            seenKey: 'RAW',
            firstType: 'TYPE_UINT8',
            firstModel: 'ens',
          },
          token: '"data"',
          path: ['ensemble_scheduling', 'step', 0, 'input_map', 'RAW'],
          file: 'ens/config.pbtxt',
        },
        {
          messageId: 'tensorDataTypeMismatch',
          data: {
            tensor: 'pixels',
            ensemble: 'ens',
            seenType: 'TYPE_FP32',
            seenModel: 'cls',
            seenStep: 1,
            seenMap: 'input_map',
            seenKey: 'input',
            firstType: 'TYPE_FP16',
            firstModel: 'pre',
            firstStep: 0,
            firstMap: 'output_map',
            firstKey: 'IMAGE',
          },
          token: '"pixels"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'an inconsistent data type against the ensemble output',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: PRE,
        cls: model('cls', 8, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', type: 'TYPE_FP16', dims: [1000] }]),
      }),
      errors: [
        {
          messageId: 'tensorDataTypeMismatchOutput',
          data: {
            tensor: 'prob',
            ensemble: 'ens',
            seenType: 'TYPE_FP16',
            seenModel: 'cls',
            seenStep: 1,
            seenMap: 'output_map',
            seenKey: 'output',
            firstType: 'TYPE_FP32',
            firstModel: 'ens',
          },
          token: '"prob"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'inconsistent shapes between steps, as full shapes with the batch axis',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS),
        pre: PRE,
        cls: model('cls', 8, [{ name: 'input', dims: [3, 256, 256] }], [{ name: 'output', dims: [1000] }]),
      }),
      errors: [
        {
          messageId: 'tensorShapeMismatch',
          data: {
            tensor: 'pixels',
            ensemble: 'ens',
            seenShape: '[-1,3,256,256]',
            seenModel: 'cls',
            seenStep: 1,
            seenMap: 'input_map',
            seenKey: 'input',
            firstShape: '[-1,3,224,224]',
            firstModel: 'pre',
            firstStep: 0,
            firstMap: 'output_map',
            firstKey: 'IMAGE',
          },
          token: '"pixels"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'inconsistent shapes against the ensemble input and output',
      targets: ['ens'],
      files: repo({
        ens: ensemble('ens', 8, [{ name: 'data', type: 'TYPE_UINT8', dims: [4] }], ENS_OUT, STEPS),
        pre: model('pre', 8, [{ name: 'RAW', type: 'TYPE_UINT8', dims: [5] }], [{ name: 'IMAGE', dims: [3, 224, 224] }]),
        cls: model('cls', 8, [{ name: 'input', dims: [3, 224, 224] }], [{ name: 'output', dims: [10] }]),
      }),
      errors: [
        {
          messageId: 'tensorShapeMismatchInput',
          data: {
            tensor: 'data',
            ensemble: 'ens',
            seenShape: '[-1,5]',
            seenModel: 'pre',
            seenStep: 0,
            seenMap: 'input_map',
            seenKey: 'RAW',
            firstShape: '[-1,4]',
            firstModel: 'ens',
          },
          token: '"data"',
          file: 'ens/config.pbtxt',
        },
        {
          messageId: 'tensorShapeMismatchOutput',
          data: {
            tensor: 'prob',
            ensemble: 'ens',
            seenShape: '[-1,10]',
            seenModel: 'cls',
            seenStep: 1,
            seenMap: 'output_map',
            seenKey: 'output',
            firstShape: '[-1,1000]',
            firstModel: 'ens',
          },
          token: '"prob"',
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: 'decoupled branching: a step fed from two decoupled models',
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          0,
          [{ name: 'x', dims: [1] }],
          [{ name: 'y', dims: [1] }],
          [
            { model: 'gen1', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'a' } },
            { model: 'gen2', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'b' } },
            { model: 'join', version: -1, inputs: { A: 'a', B: 'b' }, outputs: { OUT: 'y' } },
          ],
        ),
        gen1: gen('gen1'),
        gen2: gen('gen2'),
        join: model(
          'join',
          0,
          [
            { name: 'A', dims: [1] },
            { name: 'B', dims: [1] },
          ],
          [{ name: 'OUT', dims: [1] }],
        ),
      }),
      errors: [{ messageId: 'mixedDecoupledBranches', data: { tensor: 'y', ensemble: 'ens', model: 'ens' }, token: '"y"', file: 'ens/config.pbtxt' }],
    },
    {
      name: "decoupled branching: the ensemble's outputs come from two decoupled models",
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          0,
          [{ name: 'x', dims: [1] }],
          [
            { name: 'a', dims: [1] },
            { name: 'b', dims: [1] },
          ],
          [
            { model: 'gen1', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'a' } },
            { model: 'gen2', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'b' } },
          ],
        ),
        gen1: gen('gen1'),
        gen2: gen('gen2'),
      }),
      errors: [
        {
          messageId: 'mixedDecoupledOutputs',
          data: { ensemble: 'ens', model: 'ens' },
          token: 'ensemble_scheduling',
          path: ['ensemble_scheduling'],
          file: 'ens/config.pbtxt',
        },
      ],
    },
    {
      name: "warns when the ensemble's decoupled: false is overwritten by a decoupled step",
      targets: ['ens'],
      files: repo({
        ens: ensemble(
          'ens',
          0,
          [{ name: 'x', dims: [1] }],
          [{ name: 'y', dims: [1] }],
          [{ model: 'gen', version: -1, inputs: { IN: 'x' }, outputs: { OUT: 'y' } }],
          'model_transaction_policy { decoupled: false }\n',
        ),
        gen: gen('gen'),
      }),
      errors: [{ messageId: 'decoupledFalseOverwritten', data: { models: "'gen'" }, severity: 'warning', token: 'false', file: 'ens/config.pbtxt' }],
    },
    {
      name: "warns when the ensemble's decoupled: true is overwritten: no step is decoupled",
      targets: ['ens'],
      files: repo({ ens: ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS, 'model_transaction_policy { decoupled: true }\n'), pre: PRE, cls: CLS }),
      errors: [
        {
          messageId: 'decoupledTrueOverwritten',
          severity: 'warning',
          token: 'true',
          path: ['model_transaction_policy', 'decoupled'],
          file: 'ens/config.pbtxt',
        },
      ],
    },
  ],
});

// The engine's overlay of an editor's text on the repository on disk: this needs the disk.
describe('ensemble-models on a config linted from memory', () => {
  it('is laid over the repository on disk: its steps resolve there', async () => {
    const dir = await writeRepo({ 'pre/config.pbtxt': PRE, 'cls/config.pbtxt': CLS });
    const result = lintText(ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), { file: join(dir, 'ens', 'config.pbtxt'), rules: [ensembleModels] });
    expect(result.results.flatMap((r) => r.diagnostics)).toEqual([]);
    const alone = lintText(ensemble('ens', 8, ENS_IN, ENS_OUT, STEPS), { file: '/nowhere/ens/config.pbtxt', rules: [ensembleModels] });
    expect(alone.results.flatMap((r) => r.diagnostics).map((d) => d.path[0])).toContain('ensemble_scheduling');
  });
});

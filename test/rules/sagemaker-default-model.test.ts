import { testRule } from '../support/rule-tester.js';
import { createModel, ORT_MODEL } from './deployment-support.js';

const ENSEMBLE = {
  ...ORT_MODEL,
  'pipeline/config.pbtxt':
    'platform: "ensemble"\nmax_batch_size: 8\ninput [ { name: "IN" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "OUT" data_type: TYPE_FP32 dims: [ 4 ] } ]\nensemble_scheduling { step [ { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IN" } output_map { key: "output" value: "OUT" } } ] }\n',
};
const run = (files: Record<string, string>, env: Record<string, string>) => ({ files: { ...files, 'cm.json': createModel(env) }, deployment: 'cm.json' });

testRule('sagemaker-default-model', {
  valid: [
    { name: 'the ensemble named', ...run(ENSEMBLE, { SAGEMAKER_TRITON_DEFAULT_MODEL_NAME: 'pipeline' }) },
    { name: 'one model and no name: the script serves it', ...run(ORT_MODEL, {}) },
    { name: 'a multi-model endpoint loads through the API', ...run(ENSEMBLE, { SAGEMAKER_MULTI_MODEL: 'true' }) },
  ],
  invalid: [
    {
      name: 'a name with no directory',
      ...run(ORT_MODEL, { SAGEMAKER_TRITON_DEFAULT_MODEL_NAME: 'clasifier' }),
      errors: [{ messageId: 'defaultMissing', token: '"clasifier"', data: { name: 'clasifier', models: 'classifier' } }],
    },
    { name: 'no model at all', ...run({}, {}), errors: [{ messageId: 'noModel', line: 3 }] },
    {
      name: 'several models, no ensemble to propose',
      ...run({ ...ORT_MODEL, 'other/config.pbtxt': 'backend: "onnxruntime"\n' }, {}),
      errors: [{ messageId: 'severalModels', data: { count: 2, models: 'classifier, other' } }],
    },
    {
      name: 'several models and one ensemble: it is proposed',
      ...run(ENSEMBLE, {}),
      errors: [{ messageId: 'severalModelsEntry', data: { entry: 'pipeline' } }],
    },
    {
      name: 'a step of the ensemble named: only it is loaded',
      ...run(ENSEMBLE, { SAGEMAKER_TRITON_DEFAULT_MODEL_NAME: 'classifier' }),
      errors: [{ messageId: 'stepOfEnsemble', severity: 'warning', data: { name: 'classifier', ensemble: 'pipeline' } }],
    },
  ],
});

// NVIDIA's SageMaker image serves one model of the repository: SAGEMAKER_TRITON_DEFAULT_MODEL_NAME,
// loaded in explicit mode (an ensemble loads the models it runs), or the only model directory when the
// variable is unset (server docker/sagemaker/serve:145-166, triton/sagemaker-serve.ts). The script
// stops before Triton starts when the name is no directory, or is unset with no or several models; and
// a name that is a step of an ensemble serves that step alone, the ensemble never loaded.
import { defineDeploymentRule } from '../../rule.js';
import { DEFAULT_MODEL_VARIABLE, SERVE_SCRIPT_MESSAGES, isMultiModel } from '../../../triton/sagemaker-serve.js';

const messages = {
  defaultMissing:
    'SAGEMAKER_TRITON_DEFAULT_MODEL_NAME is {{name}}, and the repository has no model directory of that name, so the serve script stops before Triton starts ("ERROR: Directory with provided SAGEMAKER_TRITON_DEFAULT_MODEL_NAME {{name}} does not exist"); set it to one of {{models}}',
  noModel:
    'the repository has no model directory, so the serve script stops before Triton starts ("ERROR: No model found in model repository"); put each model in a directory of its own at the top of the archive',
  severalModels:
    'SAGEMAKER_TRITON_DEFAULT_MODEL_NAME is not set, and the repository has {{count}} model directories ({{models}}), so the serve script stops before Triton starts ("ERROR: More than 1 model directory found in model repository. Either provide a single directory or set SAGEMAKER_TRITON_DEFAULT_MODEL_NAME to run the ensemble backend."); set it to the model clients call',
  severalModelsEntry:
    'SAGEMAKER_TRITON_DEFAULT_MODEL_NAME is not set, and the repository has {{count}} model directories ({{models}}), so the serve script stops before Triton starts ("ERROR: More than 1 model directory found in model repository. Either provide a single directory or set SAGEMAKER_TRITON_DEFAULT_MODEL_NAME to run the ensemble backend."); set it to the ensemble clients call: SAGEMAKER_TRITON_DEFAULT_MODEL_NAME={{entry}}',
  stepOfEnsemble:
    'SAGEMAKER_TRITON_DEFAULT_MODEL_NAME is {{name}}, a step of the ensemble {{ensemble}}: SageMaker loads only {{name}} (--model-control-mode=explicit --load-model={{name}}), so {{ensemble}} is never served and requests skip its other steps; set it to {{ensemble}}',
} as const;

export const sagemakerDefaultModel = defineDeploymentRule({
  meta: {
    id: 'sagemaker-default-model',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "SageMaker's default model must be a model of the repository, and the one clients call",
    prevents: [SERVE_SCRIPT_MESSAGES.defaultMissing, SERVE_SCRIPT_MESSAGES.noModel, SERVE_SCRIPT_MESSAGES.severalModels],
    messages,
  },
  check(ctx) {
    const server = ctx.deployment.server;
    if (server.platform !== 'sagemaker') return;
    const env = (k: string) => server.env.get(k)?.value;
    if (isMultiModel(env)) return;
    const variable = server.env.get(DEFAULT_MODEL_VARIABLE);
    const names = ctx.models.map((m) => m.name).sort();
    if (!variable) {
      if (!names.length) ctx.report({ at: server.at, messageId: 'noModel' });
      else if (names.length > 1) {
        // Where one ensemble is run by no other, it is the entry clients call.
        const ensembles = ctx.models.filter((m) => m.config?.ensemble_scheduling);
        const entries = ensembles.filter((e) => !ctx.repository.ensemblesUsing(new Set([e.name])).length);
        const data = { count: names.length, models: names.join(', ') };
        if (entries.length === 1) ctx.report({ at: server.at, messageId: 'severalModelsEntry', data: { ...data, entry: entries[0]!.name } });
        else ctx.report({ at: server.at, messageId: 'severalModels', data });
      }
      return;
    }
    const name = variable.value;
    if (!names.includes(name)) {
      ctx.report({ at: variable.at, messageId: 'defaultMissing', data: { name, models: names.join(', ') || '(none)' } });
      return;
    }
    const using = ctx.repository.ensemblesUsing(new Set([name]));
    const ensemble = ctx.models.find((m) => using.includes(m.dir));
    if (ensemble) ctx.report({ at: variable.at, severity: 'warning', messageId: 'stepOfEnsemble', data: { name, ensemble: ensemble.name } });
  },
});

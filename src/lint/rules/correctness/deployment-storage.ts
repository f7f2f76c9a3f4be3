// The storage a deployment points its server at must be the repository, not one model in it: KServe's
// storageUri and SageMaker's model.tar.gz are the most common place for it to go wrong (the model's
// own directory uploaded, or the archive made inside it). Triton then takes each version directory for
// a model of that name (real 2.51 on a repository holding config.pbtxt and 1/model.onnx: "Poll failed
// for model directory '1': Invalid model name: ..."), and SageMaker's serve script refuses a
// config.pbtxt at the top (server docker/sagemaker/serve:137-140).
import { defineDeploymentRule } from '../../rule.js';
import { SERVE_SCRIPT_MESSAGES } from '../../../triton/sagemaker-serve.js';

const messages = {
  modelNotRepository:
    "{{named}} is the directory of the model {{model}} (version {{version}} is at its top), not a repository of models: Triton reads version {{version}} as a model named '{{version}}' and refuses it (\"Poll failed for model directory '{{version}}': Invalid model name: Could not determine backend for model '{{version}}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.\"); point it at {{parent}}, the directory above, which holds {{model}}/",
  archiveModelAtTop:
    '{{named}} holds config.pbtxt at its top, so SageMaker\'s serve script stops before Triton starts ("ERROR: Incorrect directory structure. Model directory needs to contain the top level folder"); make the archive from the repository, with the model in a directory of its own: {{model}}/config.pbtxt, {{model}}/1/',
} as const;

const VERSION = /^\d+$/;

export const deploymentStorage = defineDeploymentRule({
  meta: {
    id: 'deployment-storage',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "A deployment's storage must hold the repository, not one model's directory",
    prevents: [
      "Poll failed for model directory '<version>': Invalid model name: Could not determine backend for model '<version>' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.",
      SERVE_SCRIPT_MESSAGES.modelAtTop,
    ],
    messages,
  },
  check(ctx) {
    const sagemaker = ctx.deployment.server.platform === 'sagemaker';
    for (const repo of ctx.deployment.repositories) {
      const names = ctx.files.names(repo.path);
      const hasConfig = names.includes('config.pbtxt');
      const version = names.filter((n) => VERSION.test(n) && ctx.files.kind(`${repo.path}/${n}`) === 'dir').sort((a, b) => Number(a) - Number(b))[0];
      if (!hasConfig && version === undefined) continue;
      const trimmed = repo.named.replace(/\/+$/, '');
      const slash = trimmed.lastIndexOf('/');
      const model = trimmed.slice(slash + 1).replace(/\.(tar\.gz|tgz)$/, '');
      if (sagemaker && hasConfig) {
        ctx.report({ at: repo.at, messageId: 'archiveModelAtTop', data: { named: repo.named, model: model === 'model' ? 'MODEL_NAME' : model } });
      } else if (version !== undefined) {
        const parent = slash >= 0 ? trimmed.slice(0, slash + 1) : '.';
        ctx.report({ at: repo.at, messageId: 'modelNotRepository', data: { named: repo.named, model, version, parent } });
      }
    }
  },
});

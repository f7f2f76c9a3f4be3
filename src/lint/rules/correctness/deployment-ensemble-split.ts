// An ensemble runs its steps on the server that serves it: every step must be a model of that
// server's repositories (core ensemble_utils.cc ValidateEnsembleConfig: "ensemble <name> contains
// models that are not available or ambiguous"). Deployments that split a pipeline across servers
// (preprocessing on a CPU pool, the model on GPUs) leave each server's ensemble without its steps.
import { defineDeploymentRule } from '../../rule.js';

const messages = {
  stepOnAnotherServer:
    'ensemble {{ensemble}} runs {{step}}, which is served only by "{{other}}" (from {{repository}}), and an ensemble runs its steps on its own server, so Triton refuses it ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{step}}"); serve {{repository}} from this server too (another --model-repository), or move {{step}} into {{named}}',
} as const;

export const deploymentEnsembleSplit = defineDeploymentRule({
  meta: {
    id: 'deployment-ensemble-split',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "An ensemble's steps must be served by the server that serves the ensemble",
    prevents: ['ensemble <name> contains models that are not available or ambiguous: <m1>, <m2>'],
    messages,
  },
  check(ctx) {
    const here = ctx.deployment.repositories[0];
    if (!here || !ctx.deployment.others.length) return;
    const names = new Set(ctx.models.map((m) => m.name));
    for (const model of ctx.loaded) {
      const steps = model.config?.ensemble_scheduling?.step ?? [];
      for (const step of new Set(steps.map((s) => s.model_name ?? ''))) {
        if (!step || names.has(step)) continue;
        for (const other of ctx.deployment.others) {
          const repo = other.repositories.find((r) => ctx.files.kind(`${r.path}/${step}`) === 'dir');
          if (!repo) continue;
          ctx.report({
            at: here.at,
            messageId: 'stepOnAnotherServer',
            data: { ensemble: model.name, step, other: other.server.name, repository: repo.named, named: here.named },
          });
          break;
        }
      }
    }
  },
});

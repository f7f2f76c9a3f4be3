// `tritonc deploy REPO --target docker|kubernetes|kserve|helm [--out DIR] [--name NAME]
//   [--storage-uri URL] [--gpus N] [server flags]`
// Writes what runs the repository past one machine, from its effective configs (src/deploy/): a
// `docker run` line, a Kubernetes Deployment and Service, a KServe InferenceService, or values for
// NVIDIA's Helm chart. Printed without --out. Exit 0 written or printed; 1 a model Triton would refuse
// (nothing written); 2 bad flags or unreadable input.
import { defineCommand } from './command.js';
import { deployFlags } from './deploy-flags.js';

export const deployCommand = defineCommand({
  command: 'deploy <repo>',
  describe:
    "Write a deployment of a repository (docker run, Kubernetes, KServe, Helm values): the release image, the flags, GPUs and memory from the models' configs",
  builder: deployFlags,
  // The writers (and the YAML library) load only when deploy runs.
  run: async (a, io) => (await import('./deploy-run.js')).runDeploy(a, io),
});

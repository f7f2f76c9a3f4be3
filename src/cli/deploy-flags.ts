// `tritonc deploy`'s flags: declared once, read by the command (deploy.ts) and its run (deploy-run.ts).
import type { Argv } from 'yargs';
import type { FlagsOf } from './command.js';
import { withServerFlags } from './server-flags.js';

export const TARGETS = ['docker', 'kubernetes', 'kserve', 'helm'] as const;
export type Target = (typeof TARGETS)[number];

/** Each target's file, its name fixed by tritonc. */
export const TARGET_FILE_NAMES: Readonly<Record<Target, string>> = {
  docker: 'docker-run.sh',
  kubernetes: 'kubernetes.yaml',
  kserve: 'inferenceservice.yaml',
  helm: 'values.yaml',
};

export const deployFlags = (y: Argv) =>
  withServerFlags(y)
    .positional('repo', { type: 'string', demandOption: true, describe: 'The model repository (or its URL: s3://, gs://, as://, which the server then reads)' })
    .option('target', {
      choices: TARGETS,
      demandOption: true,
      describe:
        "What to write: docker (a docker run line), kubernetes (a Deployment and a Service), kserve (an InferenceService; needs --storage-uri), helm (values for NVIDIA's deploy/k8s-onprem chart)",
    })
    .option('out', {
      type: 'string',
      describe: `A directory to write the target's file into (${TARGETS.map((t) => TARGET_FILE_NAMES[t]).join(', ')}); never over a file there; default: print`,
    })
    .option('name', { type: 'string', describe: "The resources' name, a DNS-1035 label (default: from the repository's directory name)" })
    .option('storage-uri', {
      type: 'string',
      describe: 'Where the server reads the repository (s3://, gs://, as://; kserve: s3:// or gs://) instead of a volume at /models',
    })
    .option('gpus', { type: 'number', describe: 'GPUs per server (default: as many as the instance groups need; never fewer)' })
    // A path on this machine, which a deployment's image does not have: refused (runDeploy), so not offered.
    .hide('backend-directory');

export type DeployArgs = FlagsOf<typeof deployFlags>;

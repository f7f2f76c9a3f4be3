// `tritonc deploy --target docker`: one `docker run` line (after comment lines saying what it was
// made from), every value one shell word (util/shell.ts): the release image, the GPUs the instance
// groups need, the repository bind-mounted read-only at /models (or the URL the server reads), Triton's
// three ports published, and tritonserver in explicit mode loading every model.
import { csvField, gpuArgs } from '../verify/docker-args.js';
import { shellComment, shellLine } from '../util/shell.js';
import { append } from '../util/arrays.js';
import { CONTAINER_REPOSITORY, PORTS, headerLines, repositoryOf, serverArgs, type DeployPlan } from './plan.js';

/** `repoDir`: the repository's absolute path on the Docker host (unused with a storage URI). */
export function dockerText(plan: DeployPlan, repoDir: string): string {
  const gpus = plan.gpus.count ? Array.from({ length: plan.gpus.count }, (_, i) => i).join(',') : undefined;
  const argv = ['docker', 'run', '--rm', '--name', plan.name, ...gpuArgs('docker', gpus)];
  // --mount, not -v: -v splits at every ':' of the path. Its value is CSV (docker's own reader).
  if (!plan.storageUri) argv.push('--mount', ['type=bind', csvField(`source=${repoDir}`), `target=${CONTAINER_REPOSITORY}`, 'readonly'].join(','));
  for (const port of [PORTS.http, PORTS.grpc, PORTS.metrics]) argv.push('-p', `${port}:${port}`);
  append(argv, [plan.image, 'tritonserver', ...serverArgs(plan, repositoryOf(plan))]);
  const notes = headerLines(plan, 'docker');
  if (plan.storageUri)
    notes.push(`The server reads ${plan.storageUri} itself: give it the store's credentials with -e (AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_*)`);
  return `${notes.map(shellComment).join('\n')}\n${shellLine(argv)}\n`;
}

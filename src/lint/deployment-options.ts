// What a deployed server makes of a lint run: the server's options (its image's release, its flags,
// the repositories it serves), the GPUs its container gets, and its facts for the deployment rules.
// The CLI (lint --deployment) and the rule tests make their runs with it.
import type { LintOptions } from './engine.js';
import { serverOptionsOf } from '../triton/command-line.js';
import { imageTarget } from '../triton/releases/image-target.js';
import { DEFAULT_TARGET, type TritonTarget } from '../triton/releases/target.js';
import { displayPath } from '../util/display-path.js';
import { quoted } from '../util/terminal-text.js';
import type { DeployedServer, DeploymentFacts, Location, ServedRepository } from '../deployment/server.js';

/** "file:line:column" of a location, the file shown relative to `cwd`. */
export const describeLocation = (at: Location, cwd: string): string => `${displayPath(at.file, cwd)}:${at.range.start.line}:${at.range.start.column}`;

export interface DeploymentRun {
  /** A release named on the command line, over the image's. */
  target?: TritonTarget;
  /** --gpus given: it wins over the container's. */
  gpusGiven?: boolean;
  cwd: string;
  /** The other servers of the deployments, with what each serves. */
  others?: DeploymentFacts['others'];
}

/** The lint options of one server over `repositories` (in its --model-repository order). */
export function deploymentLintOptions(
  server: DeployedServer,
  repositories: readonly ServedRepository[],
  run: DeploymentRun,
): Required<Pick<LintOptions, 'server' | 'deployment'>> & Pick<LintOptions, 'gpuCount' | 'gpuCountSource'> {
  const target = run.target ?? imageTarget(server.image?.value) ?? DEFAULT_TARGET;
  const gpus = run.gpusGiven ? undefined : server.gpus;
  return {
    server: { ...serverOptionsOf(server.commandLine), target, modelRepositories: repositories.map((r) => r.path) },
    ...(gpus ? { gpuCount: gpus.count, gpuCountSource: `nvidia.com/gpu of ${quoted(server.name)} at ${describeLocation(gpus.at, run.cwd)}` } : {}),
    deployment: { server, repositories, others: run.others ?? [] },
  };
}

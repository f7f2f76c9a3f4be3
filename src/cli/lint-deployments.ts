// `tritonc lint --deployment FILE [DIR...]`: each tritonserver the deployments start, linted as it
// runs: the release and flavour its image names, its flags, the GPUs its container gets, the
// repositories it serves (URLs it names, or the directories given for the volumes it mounts), and the
// deployment rules on its manifest. Several servers are several runs, merged.
import { displayPath } from '../util/display-path.js';
import { DeploymentInputError } from '../deployment/errors.js';
import { readDeployments } from '../deployment/read.js';
import { MAX_MANIFEST_BYTES } from '../deployment/manifest-text.js';
import type { DeployedServer, Location, ServedRepository } from '../deployment/server.js';
import { deploymentLintOptions, describeLocation } from '../lint/deployment-options.js';
import { serverStores, type ServerStore } from '../deployment/stores.js';
import { mergeAcrossReleases } from '../lint/across-releases.js';
import type { TritonTarget } from '../triton/releases/target.js';
import { UsageError } from './errors.js';
import type { CliIO } from './io.js';
import type { LintCliOptions } from './lint-flags.js';
import { lintOnce, report, type LintSetup } from './lint-run.js';
import { withRepositories } from './remote.js';
import type { ReportFormat } from '../report/index.js';
import type { LintResult } from '../lint/results.js';

const where = (s: { at: Location }, cwd: string) => describeLocation(s.at, cwd);

const MAX_SERVERS = 256;

export async function lintDeployments(opts: LintCliOptions, io: CliIO, setup: LintSetup, format: ReportFormat): Promise<number> {
  let servers: DeployedServer[];
  let documents: number;
  try {
    ({ servers, documents } = await readDeployments(opts.deployment ?? [], {
      cwd: io.cwd,
      env: io.env,
      stdin: () => io.readStdin(MAX_MANIFEST_BYTES),
      helm: { ...(opts.values ? { values: opts.values } : {}), ...(opts.set ? { set: opts.set } : {}) },
    }));
  } catch (e) {
    if (e instanceof DeploymentInputError)
      throw new UsageError(`${e.file ? `${displayPath(e.file, io.cwd)}${e.line ? `:${e.line}:${e.column ?? 1}` : ''}: ` : ''}${e.message}`);
    throw e;
  }
  const inputs = (opts.deployment ?? []).join(', ');
  if (!servers.length)
    throw new UsageError(
      `no container in ${inputs} runs tritonserver (${documents} document${documents === 1 ? '' : 's'} read): tritonc looks for a command or args naming tritonserver in Pods, Deployments, StatefulSets, DaemonSets, Jobs and CronJobs, an InferenceService on a Triton runtime, or a SageMaker CreateModel request with a tritonserver image`,
    );

  // Each server is a lint run of what it serves: a bound on them, so a manifest of thousands of
  // workloads is refused rather than linted for hours.
  if (servers.length > MAX_SERVERS)
    throw new UsageError(
      `${inputs} start${opts.deployment?.length === 1 ? 's' : ''} ${servers.length} tritonservers, more than the ${MAX_SERVERS} tritonc lints in one run; give the manifests of one application at a time`,
    );
  // Each server's repositories: the URLs it names, and the directories given for its volumes, in order.
  const dirs = opts.paths ?? [];
  const plans = servers.map((server) => ({ server, stores: serverStores(server) }));
  // The directories given stand in for the server's local stores, in order; given one per store,
  // for every store, URLs included (a checkout linted before it is uploaded).
  const mapped: string[][] = [];
  for (const { server, stores } of plans) {
    if (!stores.length)
      throw new UsageError(`${where(server, io.cwd)}: ${server.name} starts tritonserver without --model-repository, which it needs to start`);
    const local = stores.filter((s) => !s.url);
    if (dirs.length === stores.length) mapped.push([...dirs]);
    else if (dirs.length === local.length) {
      let next = 0;
      mapped.push(stores.map((s) => s.url ?? dirs[next++]!));
    } else if (!local.length)
      throw new UsageError(
        `${server.name} serves ${stores.map((s) => s.named).join(', ')}, which tritonc reads itself; give no directory, or one for each to lint a checkout in its place`,
      );
    else
      throw new UsageError(
        `${local.map((s) => `${where(s, io.cwd)}: ${s.why ?? s.named}`).join('\n')}\n${server.name} serves ${local.length === 1 ? 'a repository' : `${local.length} repositories`} tritonc cannot read from the deployment; give ${local.length === 1 ? 'the directory' : 'the directories, in that order'} on the command line: tritonc lint --deployment ${inputs} ${local.map(() => 'DIR').join(' ')}`,
      );
  }

  const given = mapped;
  return withRepositories('lint', given.flat(), io, { quiet: opts.quiet === true }, async (remote) => {
    // Each server's repositories, as this run reads them (the stand-ins of URLs).
    let offset = 0;
    const served = plans.map(({ server, stores }) => {
      const paths = remote.paths.slice(offset, offset + stores.length);
      offset += stores.length;
      return { server, paths, repositories: stores.map((s: ServerStore, j): ServedRepository => ({ path: paths[j]!, named: s.named, at: s.at })) };
    });
    const runs: { target: TritonTarget; result: LintResult }[] = [];
    for (const { server, paths, repositories } of served) {
      const run = deploymentLintOptions(server, repositories, {
        ...(setup.server.target ? { target: setup.server.target } : {}),
        gpusGiven: opts.gpus !== undefined,
        cwd: io.cwd,
        others: served.filter((o) => o.server !== server).map((o) => ({ server: o.server, repositories: o.repositories })),
      });
      const { server: serverOptions, ...extra } = run;
      const target = serverOptions.target!;
      const result = await lintOnce(paths, { ...setup, server: { ...setup.server, ...serverOptions } }, opts, remote, extra);
      runs.push({ target, result });
    }
    const merged = runs.length > 1 ? mergeAcrossReleases(runs) : runs[0]!.result;
    return report(remote.repos.renameDeep(merged), opts, format, remote.io);
  });
}

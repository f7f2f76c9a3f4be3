// `tritonc lint [PATH...] [--format stylish|json|sarif|github|gitlab] [--config FILE] [--gpu-memory 24GiB]
//   [--gpus N] [--configs-only] [--max-warnings N] [--quiet] [--rule id=off|info|warn|error] [-o FILE]
//   [--no-color]`, and tritonserver's flags that change its verdict (--disable-auto-complete-config,
//   --strict-model-config, --backend-config, --model-repository), and --deployment FILE [--values F]
//   [--set k=v]: the repositories a deployment serves, as its server runs them (lint-deployments.ts).
// Exit 0 clean (warnings within --max-warnings), 1 lint errors or too many warnings, 2 usage,
// settings or unreadable input.
import { pythonAutoCompleteRunner } from './python-run.js';
import type { RuleLevel } from '../lint/rule.js';
import { RULES } from '../lint/rules/index.js';
import { parseGpuMemoryFlag, parseRuleFlag } from '../lint/settings.js';
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import type { ReportFormat } from '../report/index.js';
import { describeFsError } from '../util/read-text.js';
import { UsageError } from './errors.js';
import { userCacheFile } from '../util/user-cache.js';
import type { CliIO } from './io.js';
import { withRepositories } from './remote.js';
import { defineCommand } from './command.js';
import { lintFlags, type LintCliOptions } from './lint-flags.js';
import { serverFlagsFromArgs, targetsFromArgs } from './server-flags.js';
import { quoted } from '../util/terminal-text.js';
import { mergeAcrossReleases, type ReleaseRun } from '../lint/across-releases.js';
import { lintOnce, report } from './lint-run.js';

export const lintCommand = defineCommand({
  command: 'lint [paths..]',
  describe: "Check configs against Triton's rules and their models, before Triton refuses them",
  builder: lintFlags,
  run: runLint,
});

/** --user-cache: the cache file in the user's cache directory; a directory that cannot be made is exit 2. */
function userCache(io: CliIO): string {
  try {
    return userCacheFile('lint', io.cwd, io.env);
  } catch (e) {
    throw new UsageError(`--user-cache: cannot make the cache directory: ${describeFsError(e)}; give --cache-location FILE instead`);
  }
}

export async function runLint(opts: LintCliOptions, io: CliIO): Promise<number> {
  const given = opts.paths ?? [];
  // Several releases are several runs (merged below); each run's server is told its own.
  const targets = targetsFromArgs(opts) ?? [];
  const server = serverFlagsFromArgs({ ...opts, tritonVersion: undefined }, io.cwd);
  if (targets.length > 1 && (opts.fix || opts.fixDryRun))
    throw new UsageError(
      `--fix judges against one Triton release; --triton-version ${quoted(opts.tritonVersion ?? '')} names ${targets.length}: fix for one, then lint for all`,
    );
  const cacheFile =
    opts.userCache === true ? userCache(io) : opts.cache === true || opts.cacheLocation !== undefined ? (opts.cacheLocation ?? '.tritonc-cache') : undefined;
  const format: ReportFormat = opts.format ?? (io.env.GITHUB_ACTIONS === 'true' ? 'github' : 'stylish');
  if (opts.maxWarnings !== undefined && !(Number.isInteger(opts.maxWarnings) && opts.maxWarnings >= -1)) {
    throw new UsageError('--max-warnings needs a whole number (-1 for no limit)');
  }
  let gpuMemory: { bytes: number; source: string } | undefined;
  if (opts.gpuMemory !== undefined) {
    gpuMemory = parseGpuMemoryFlag(opts.gpuMemory);
    if (!gpuMemory) throw new UsageError(`--gpu-memory ${opts.gpuMemory}: expected a size such as 24GiB or 80GB, or one of ${GPU_PRESET_NAMES.join(', ')}`);
  }
  if (opts.gpus !== undefined && !(Number.isSafeInteger(opts.gpus) && opts.gpus >= 0))
    throw new UsageError(`--gpus takes a whole number of GPUs (0 for a CPU-only server); got "${opts.gpus}"`);
  const ruleLevels: Record<string, RuleLevel> = {};
  for (const flag of opts.rule ?? []) {
    try {
      const { id, level } = parseRuleFlag(flag, RULES);
      ruleLevels[id] = level;
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }

  const runScript = await pythonAutoCompleteRunner(opts.runPythonAutocomplete === true, opts.python, io.stderr);
  if (opts.deployment?.length) {
    if (opts.fix || opts.fixDryRun) throw new UsageError('--fix with --deployment: fix the repository (tritonc lint --fix DIR), then lint the deployment');
    if (server.modelRepositories?.length) throw new UsageError('--model-repository with --deployment: the deployment names the repositories its server serves');
    if (targets.length > 1)
      throw new UsageError(
        `--triton-version ${quoted(opts.tritonVersion ?? '')} names ${targets.length} releases, and a deployment's server runs one: its image's, or the one --triton-version names`,
      );
    // The deployment readers (and the YAML library) load only with --deployment.
    const { lintDeployments } = await import('./lint-deployments.js');
    return lintDeployments(
      opts,
      io,
      { server: { ...server, ...(targets[0] ? { target: targets[0] } : {}) }, gpuMemory, ruleLevels, cacheFile, runScript },
      format,
    );
  }
  if (opts.values?.length || opts.set?.length) throw new UsageError('--values and --set render a Helm chart given with --deployment');

  // Repository URLs (paths and --model-repository) are mounted: listed, their configs fetched.
  const served = server.modelRepositories ?? [];
  return withRepositories('lint', [...given, ...served], io, { quiet: opts.quiet === true }, async (remote) => {
    const paths = remote.paths.slice(0, given.length);
    const mounted = served.length ? { ...server, modelRepositories: remote.paths.slice(given.length) } : server;
    if (remote.remote && (opts.fix || opts.fixDryRun))
      throw new UsageError('--fix and --fix-dry-run change files, and tritonc never writes to object storage: fix a checkout of the configs, then upload it');
    const setup = { gpuMemory, ruleLevels, cacheFile, runScript };
    const runs: ReleaseRun[] = [];
    for (const target of targets) runs.push({ target, result: await lintOnce(paths, { ...setup, server: { ...mounted, target } }, opts, remote) });
    const linted = runs.length > 1 ? mergeAcrossReleases(runs) : (runs[0]?.result ?? (await lintOnce(paths, { ...setup, server: mounted }, opts, remote)));
    // Findings on a repository in object storage name its objects' URLs.
    const result = remote.repos.renameDeep(linted);
    return report(result, opts, format, remote.io);
  });
}

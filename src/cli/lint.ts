// `tritonc lint [PATH...] [--format stylish|json|sarif|github|gitlab] [--config FILE] [--gpu-memory 24GiB]
//   [--gpus N] [--configs-only] [--max-warnings N] [--quiet] [--rule id=off|info|warn|error] [-o FILE]
//   [--no-color]`, and tritonserver's flags that change its verdict (--disable-auto-complete-config,
//   --strict-model-config, --backend-config, --model-repository).
// Exit 0 clean (warnings within --max-warnings), 1 lint errors or too many warnings, 2 usage,
// settings or unreadable input.
import { pythonAutoCompleteRunner, RUN_PYTHON_AUTOCOMPLETE_HELP } from './python-run.js';
import type { RuleLevel } from '../lint/rule.js';
import { RULES } from '../lint/rules/index.js';
import { parseGpuMemoryFlag, parseRuleFlag } from '../lint/settings.js';
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import { REPORT_FORMATS, type ReportFormat } from '../report/index.js';
import { describeFsError } from '../util/read-text.js';
import { UsageError } from './errors.js';
import { userCacheFile } from '../util/user-cache.js';
import type { CliIO } from './io.js';
import { withRepositories } from './remote.js';
import type { Argv } from 'yargs';
import { defineCommand, repeatable, type FlagsOf } from './command.js';
import { serverFlagsFromArgs, targetsFromArgs, withModelRepositories, withServerFlags } from './server-flags.js';
import { quoted } from '../util/terminal-text.js';
import { mergeAcrossReleases, type ReleaseRun } from '../lint/across-releases.js';
import { lintDeployments } from './lint-deployments.js';
import { lintOnce, report } from './lint-run.js';

const lintFlags = (y: Argv) =>
  withModelRepositories(withServerFlags(y))
    .positional('paths', {
      type: 'string',
      array: true,
      describe: 'Repositories, model directories, config.pbtxt or model files (default: .); a repository may be a URL: s3://, gs://, as://',
    })
    .option('format', { alias: 'f', type: 'string', choices: REPORT_FORMATS, describe: 'Output format (default: github under GitHub Actions, else stylish)' })
    .option('config', { alias: 'c', type: 'string', describe: 'Settings file to use instead of the nearest tritonc.config.json' })
    .option('gpu-memory', { type: 'string', describe: `Memory of one GPU for instance-memory: a size (24GiB) or ${GPU_PRESET_NAMES.join(', ')}` })
    .option('gpus', { type: 'number', describe: 'GPUs on each server (default 1; 0 for a CPU-only server)' })
    .option('configs-only', {
      type: 'boolean',
      describe: 'The model files are provisioned separately: missing versions and model files are not errors (tritonc.lock.json stands in for them)',
    })
    .option('fix', {
      type: 'boolean',
      describe: 'Apply the fixes to the files (atomically, each checked to change only what its finding is about), then report what remains',
    })
    .option('fix-dry-run', {
      type: 'boolean',
      describe: 'Write nothing: report the files as they are, say what --fix would apply and leave (the json format carries each fixed text as output)',
    })
    .conflicts('fix', 'fix-dry-run')
    .option('max-warnings', { type: 'number', describe: 'Exit 1 when there are more warnings than this' })
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Report errors only' })
    .option('rule', { ...repeatable("Set a rule's level: id=off|info|warn|error (repeatable)") })
    .option('output-file', { alias: 'o', type: 'string', describe: 'Write the report to a file instead of stdout' })
    .option('run-python-autocomplete', { type: 'boolean', describe: RUN_PYTHON_AUTOCOMPLETE_HELP })
    .option('python', { type: 'string', describe: 'The Python --run-python-autocomplete runs (default: python3 on PATH)' })
    .option('cache', { type: 'boolean', describe: "Keep model signatures in a file between runs (re-read when a model changes), as ESLint's --cache" })
    .option('cache-location', { type: 'string', describe: 'The cache file (default: .tritonc-cache in the current directory)' })
    .option('user-cache', {
      type: 'boolean',
      describe:
        'Keep the cache in your cache directory (~/.cache/tritonc), one file per working directory, where no checkout can plant one: what the pre-commit hook does',
    })
    .conflicts('user-cache', 'cache-location')
    .option('color', { type: 'boolean', describe: 'Colour the stylish output (default: on a terminal; NO_COLOR / FORCE_COLOR honoured)' })
    .option('deployment', {
      ...repeatable(
        'Lint the repositories a deployment serves as its tritonserver runs them (repeatable): a Kubernetes manifest, a directory of them, a Helm chart, a KServe InferenceService, a SageMaker CreateModel JSON, or - for standard input; the paths are then the directories it mounts',
      ),
    })
    .option('values', { ...repeatable('With a Helm chart: a values file for helm template (repeatable)') })
    .option('set', { ...repeatable('With a Helm chart: a value for helm template, name=value (repeatable)') });

/** lint's flags, parsed. */
export type LintCliOptions = FlagsOf<typeof lintFlags>;

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

  const runScript = pythonAutoCompleteRunner(opts.runPythonAutocomplete === true, opts.python, io.stderr);
  if (opts.deployment?.length) {
    if (opts.fix || opts.fixDryRun) throw new UsageError('--fix with --deployment: fix the repository (tritonc lint --fix DIR), then lint the deployment');
    if (server.modelRepositories?.length) throw new UsageError('--model-repository with --deployment: the deployment names the repositories its server serves');
    return lintDeployments(opts, io, { server: { ...server, ...(targets[0] ? { target: targets[0] } : {}) }, gpuMemory, ruleLevels, cacheFile, runScript }, format);
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


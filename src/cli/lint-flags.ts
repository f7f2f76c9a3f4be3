// \`tritonc lint\`'s flags: declared once, read by the command (lint.ts), its runs (lint-run.ts) and
// its deployments (lint-deployments.ts).
import type { Argv } from 'yargs';
import { repeatable, type FlagsOf } from './command.js';
import { RUN_PYTHON_AUTOCOMPLETE_HELP } from './python-run.js';
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import { REPORT_FORMATS } from '../report/index.js';
import { withModelRepositories, withServerFlags } from './server-flags.js';

export const lintFlags = (y: Argv) =>
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
/** lint's flags, parsed. */
export type LintCliOptions = FlagsOf<typeof lintFlags>;

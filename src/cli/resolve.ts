// `tritonc resolve MODEL_DIR [--gpus N] [--format pbtxt|json] [--config-name NAME]
//   [--default-max-batch-size N] [--explain] [--run-python-autocomplete [--python PATH]]`, and tritonserver's --disable-auto-complete-config,
//   --strict-model-config, --backend-config. The nearest tritonc.config.json's `server` and `gpu.count`
//   apply unless a flag says otherwise.
// Prints the effective config Triton would load. Exit 0 printed; 1 Triton would refuse the model
// (its message and the fix on stderr, nothing on stdout); 2 bad flags or unreadable input.
import { resolve } from 'node:path';
import type { Diagnostic, PathSegment } from '../diagnostics.js';
import type { ResolveStep } from '../triton/changes.js';
import { printConfig } from '../config/print.js';
import { formatDiagnosticLine } from '../report/plain.js';
import type { ResolveResult } from '../triton/effective-config.js';
import { resolveModelDir } from '../workspace/index.js';
import { stringifyTritonJson, tritonConfigJson, type TritonJson } from '../triton/triton-json.js';
import type { Argv } from 'yargs';
import { defineCommand, type FlagsOf } from './command.js';
import { serverFlagsFromArgs, withServerFlags } from './server-flags.js';
import { applyServerFlags } from '../triton/server-options.js';
import type { TritonRelease } from '../triton/releases/catalog.js';
import { DEFAULT_SETTINGS, SettingsError, findSettingsFile, loadSettingsFile, resolveOptionsOf, type LintSettings } from '../lint/settings.js';
import { RULES } from '../lint/rules/index.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { displayPath } from '../util/display-path.js';
import { withRepositories } from './remote.js';
import { pythonAutoCompleteRunner, RUN_PYTHON_AUTOCOMPLETE_HELP } from './python-run.js';

const resolveFlags = (y: Argv) =>
  withServerFlags(y)
    .positional('dir', {
      type: 'string',
      describe: 'The model directory (holding config.pbtxt, if any, and the version directories), or its URL (s3://, gs://, as://)',
    })
    .option('gpus', {
      type: 'number',
      describe:
        'GPUs on the host Triton runs on (default: 1, or as many as the highest GPU id the config lists needs, up to 16, as lint assumes; 0 for a CPU-only host)',
    })
    .option('format', {
      choices: ['pbtxt', 'json'] as const,
      default: 'pbtxt' as const,
      describe: "pbtxt, or the JSON of Triton's GET /v2/models/<name>/config",
    })
    .option('config-name', { type: 'string', describe: 'Read configs/<name>.pbtxt, as tritonserver --model-config-name=<name>' })
    .option('default-max-batch-size', {
      type: 'number',
      describe: "The backend's default-max-batch-size (Triton's default: 4); the same as --backend-config=onnxruntime,default-max-batch-size=N",
    })
    .option('explain', { type: 'boolean', describe: 'List every change Triton makes, and why, on stderr' })
    .option('configs-only', {
      type: 'boolean',
      describe: 'The model files are provisioned separately: what needs them is unknown, not missing (tritonc.lock.json stands in for what it records)',
    })
    .option('run-python-autocomplete', { type: 'boolean', describe: RUN_PYTHON_AUTOCOMPLETE_HELP })
    .option('python', { type: 'string', describe: 'The Python --run-python-autocomplete runs (default: python3 on PATH)' });

/** resolve's flags, parsed. */
export type ResolveArgs = FlagsOf<typeof resolveFlags>;

export const resolveCommand = defineCommand({
  command: 'resolve <dir>',
  describe: 'Print the effective config Triton would load for a model directory (autofill, ONNX Runtime auto-complete, normalization)',
  builder: resolveFlags,
  run: runResolve,
});

/** The nearest settings file's view of the server; exit 2 when it cannot be used. */
export function settingsNear(modelDir: string): LintSettings {
  const file = findSettingsFile(modelDir);
  if (!file) return DEFAULT_SETTINGS;
  try {
    return loadSettingsFile(file, RULES);
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(`settings: ${e.message}`);
    throw e;
  }
}

function wholeNumber(flag: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 0) throw new UsageError(`--${flag} takes a whole number (0 or more); got "${v}"`);
  return v;
}

export async function runResolve(a: ResolveArgs, io: CliIO): Promise<number> {
  const dir = a.dir ?? '';
  if (!dir) throw new UsageError('give a model directory, e.g. tritonc resolve model_repository/classifier');
  const gpus = wholeNumber('gpus', a.gpus);
  const defaultMaxBatchSize = wholeNumber('default-max-batch-size', a.defaultMaxBatchSize);
  const configName = a.configName;
  if (configName !== undefined && (configName === '' || /\s|\//.test(configName))) {
    throw new UsageError(`--config-name takes a config name without spaces or slashes (it reads configs/<name>.pbtxt); got "${configName}"`);
  }

  const runScript = await pythonAutoCompleteRunner(a.runPythonAutocomplete === true, a.python, io.stderr);

  // A model directory in object storage (s3://bucket/repo/model) is read from there.
  return withRepositories('resolve', [dir], io, {}, async (remote) => {
    const modelDir = resolve(io.cwd, remote.paths[0]!);
    const settings = settingsNear(modelDir);
    const server = applyServerFlags(settings.server, serverFlagsFromArgs(a, io.cwd));
    const options = {
      ...resolveOptionsOf({ ...settings, server }),
      ...(gpus !== undefined ? { gpus } : {}),
      ...(defaultMaxBatchSize !== undefined ? { defaultMaxBatchSize } : {}),
      ...(configName !== undefined ? { configName } : {}),
      ...(runScript ? { runScript } : {}),
    };
    const configsOnly = a.configsOnly === undefined ? settings.configsOnly : a.configsOnly === true;
    const result = await remote.complete((files) => resolveModelDir(modelDir, options, files, { configsOnly }));
    return printResolved(result, a, remote.io, server.target.release);
  });
}

function printResolved(result: ResolveResult, a: ResolveArgs, io: CliIO, release: TritonRelease): number {
  const shown = (file: string): string => displayPath(file, io.cwd);

  const line = (d: Diagnostic): string => `${formatDiagnosticLine({ ...d, file: shown(d.file) })}\n`;
  for (const d of result.diagnostics) if (d.severity !== 'error') io.stderr(line(d));
  if (a.explain) io.stderr(explain(result));

  switch (result.status) {
    case 'unreadable': {
      const f = result.failure!;
      if (f.kind === 'syntax') {
        for (const d of f.diagnostics) io.stderr(line(d));
        io.stderr(`tritonc resolve: ${shown(f.file)} does not parse, and Triton would refuse it too ("failed to read text proto"); fix the errors above\n`);
      } else if (f.kind === 'onnx') {
        io.stderr(`tritonc resolve: cannot read the ONNX model: ${shown(f.file)}${f.offset === null ? '' : `: byte ${f.offset}`}: ${f.reason}\n`);
      } else {
        io.stderr(`tritonc resolve: ${shown(f.file)}: ${f.message}\n`);
      }
      return EXIT.usage;
    }
    case 'refused': {
      const p = result.problems[0]!;
      io.stderr(`tritonc resolve: Triton would not load model '${result.modelName}':\n  ${p.message}\n  fix: ${p.fix}\n`);
      return EXIT.problems;
    }
    case 'ok': {
      const config = result.config!;
      // What the backend fills in at load that tritonc could not: the config below is before it.
      for (const p of result.pending) io.stderr(`tritonc resolve: not known here: ${p}\n`);
      io.stdout(a.format === 'json' ? `${stringifyTritonJson(tritonConfigJson(config, release))}\n` : printConfig(config));
      return EXIT.ok;
    }
  }
}

function pathText(path: readonly PathSegment[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');
}

function valueText(v: unknown): string {
  const text = stringifyTritonJson(v as TritonJson, 0);
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** One line per step: `stage: action path = value (reason)`, or `stage: reason` for notes. */
export function explain(result: ResolveResult): string {
  return result.steps
    .map((s: ResolveStep) =>
      s.action === 'note'
        ? `${s.stage}: ${s.reason}\n`
        : `${s.stage}: ${s.action} ${pathText(s.path)}${s.value === undefined ? '' : ` = ${valueText(s.value)}`} (${s.reason})\n`,
    )
    .join('');
}

// One lint run of the CLI and its report: shared by \`tritonc lint\` over paths and over the
// repositories a deployment serves (lint-deployments.ts).
import { resolve } from 'node:path';
import { LintInputError } from '../lint/errors.js';
import { lintSync, type LintOptions } from '../lint/engine.js';
import { fixSync } from '../lint/fix.js';
import { errorsOnly, type LintResult } from '../lint/results.js';
import type { RuleLevel } from '../lint/rule.js';
import { SettingsError } from '../lint/settings.js';
import { formatReport, type ReportFormat } from '../report/index.js';
import { shouldColor } from '../report/color.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { displayPath } from '../util/display-path.js';
import { describeFsError } from '../util/read-text.js';
import { EXIT, UsageError } from './errors.js';
import type { CliIO } from './io.js';
import { terminalProgress } from './progress.js';
import type { RepositoriesRun } from './remote.js';
import type { ServerOptions } from '../triton/server-options.js';
import type { LintCliOptions } from './lint-flags.js';

/** --fix / --fix-dry-run: the fixes applied (written only with --fix), the refused ones said, what remains reported. */
function applyFixes(paths: string[], options: LintOptions, write: boolean, io: CliIO): LintResult {
  const run = fixSync(paths, options);
  for (const r of run.refused) {
    const d = r.diagnostic;
    io.stderr(`tritonc lint: ${displayPath(d.file, io.cwd)}:${d.range.start.line}:${d.range.start.column} ${d.ruleId}: fix not applied: ${r.reason}\n`);
  }
  const outputs = new Map(run.files.map((f) => [f.file, f.after]));
  if (write) {
    for (const f of run.files) {
      try {
        // Through no link below the paths given (a model directory linked out of the repository).
        writeFileAtomic(f.file, f.after, { within: paths.map((p) => resolve(io.cwd, p)) });
      } catch (e) {
        throw new UsageError(`lint --fix: cannot write ${displayPath(f.file, io.cwd)}: ${describeFsError(e)} (the file is unchanged)`);
      }
    }
  }
  // A dry run writes nothing, so the files keep every finding: reported as they are (the exit code
  // says what is on disk), with what --fix would do said apart. --fix reports what remains.
  const shown = write ? run.result : run.initial;
  if (!write && run.files.length) {
    const fixed = run.files.reduce((n, f) => n + f.applied.length, 0);
    io.stderr(
      `tritonc lint: --fix would apply ${fixed} fix${fixed === 1 ? '' : 'es'} in ${run.files.length} file${run.files.length === 1 ? '' : 's'} (${run.files.map((f) => displayPath(f.file, io.cwd)).join(', ')}), leaving ${run.result.errorCount} error${run.result.errorCount === 1 ? '' : 's'} and ${run.result.warningCount} warning${run.result.warningCount === 1 ? '' : 's'}; nothing was written\n`,
    );
  }
  // The fixed files carry their text (ESLint's output), also those left with no finding.
  const results = shown.results.map((r) => (outputs.has(r.filePath) ? { ...r, output: outputs.get(r.filePath)! } : r));
  for (const [file, output] of outputs)
    if (!results.some((r) => r.filePath === file)) results.push({ filePath: file, diagnostics: [], errorCount: 0, warningCount: 0, infoCount: 0, output });
  return { ...shown, results };
}

/** What runLint made of the flags: the server's options, the GPU budget, the rules' levels, the cache file. */
export interface LintSetup {
  server: Partial<ServerOptions>;
  gpuMemory: LintOptions['gpuMemory'];
  ruleLevels: Record<string, RuleLevel>;
  cacheFile: string | undefined;
  runScript: LintOptions['runScript'];
}

/** One lint run over `paths` (`extra`: what a deployment adds: its GPUs, its facts). */
export async function lintOnce(
  paths: string[],
  { server, gpuMemory, ruleLevels, cacheFile, runScript }: LintSetup,
  opts: LintCliOptions,
  remote: RepositoriesRun,
  extra: Pick<LintOptions, 'gpuCount' | 'gpuCountSource' | 'deployment'> = {},
): Promise<LintResult> {
  const io = remote.io;
  const progress = terminalProgress(io, 'tritonc lint: configs', { quiet: opts.quiet === true });
  try {
    const options: LintOptions = {
      cwd: io.cwd,
      settingsFile: opts.config,
      ruleLevels,
      gpuMemory,
      ...(progress ? { onProgress: (done: number, total: number) => progress.update(done, total) } : {}),
      ...(opts.gpus !== undefined ? { gpuCount: opts.gpus } : {}),
      ...(opts.configsOnly !== undefined ? { configsOnly: opts.configsOnly } : {}),
      server,
      ...(cacheFile ? { cacheFile } : {}),
      ...(runScript ? { runScript } : {}),
      ...extra,
    };
    return opts.fix || opts.fixDryRun
      ? applyFixes(paths, options, opts.fix === true, io)
      : await remote.complete((files) => lintSync(paths, { ...options, files }));
  } catch (e) {
    if (e instanceof LintInputError) throw new UsageError(`${e.message}`);
    if (e instanceof SettingsError) throw new UsageError(`settings: ${e.message}`);
    throw e;
  } finally {
    progress?.end();
  }
}

export function report(result: LintResult, opts: LintCliOptions, format: ReportFormat, io: CliIO): number {
  for (const p of result.problems) io.stderr(`tritonc lint: ${p.level === 'warning' ? 'warning: ' : ''}${displayPath(p.file, io.cwd)}: ${p.message}\n`);

  const shown = opts.quiet ? errorsOnly(result) : result;
  const color = opts.outputFile && opts.color !== true ? false : shouldColor({ flag: opts.color, env: io.env, isTTY: io.stdoutIsTTY });
  const text = formatReport(format, shown, { cwd: io.cwd, color, workspace: io.env.GITHUB_WORKSPACE, projectDir: io.env.CI_PROJECT_DIR });
  if (opts.outputFile) {
    try {
      writeFileAtomic(resolve(io.cwd, opts.outputFile), text);
    } catch (e) {
      throw new UsageError(`cannot write ${opts.outputFile}: ${describeFsError(e)}`);
    }
  } else {
    io.stdout(text);
  }

  const maxWarnings = opts.maxWarnings ?? -1;
  const tooManyWarnings = maxWarnings >= 0 && result.warningCount > maxWarnings;
  if (tooManyWarnings) io.stderr(`tritonc found too many warnings (maximum: ${maxWarnings}).\n`);
  if (result.problems.some((p) => p.level !== 'warning')) return EXIT.usage;
  if (result.errorCount > 0 || tooManyWarnings) return EXIT.problems;
  return EXIT.ok;
}

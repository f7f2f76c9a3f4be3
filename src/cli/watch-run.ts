// The watch command's implementation: start the watcher, print each run's report, stop on Ctrl-C.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import { parseGpuMemoryFlag } from '../lint/settings.js';
import { formatStylish, toJsonResults } from '../report/index.js';
import { shouldColor } from '../report/color.js';
import type { RunReport } from '../watch/session.js';
import { startWatch } from '../watch/watch.js';
import { EXIT, UsageError } from './errors.js';
import { displayPath } from '../util/display-path.js';
import type { CliIO } from './io.js';
import type { WatchCliOptions } from './watch-flags.js';
import { serverFlagsFromArgs } from './server-flags.js';

/** One run as the --format json line: { event, changed, results, notes, waiting, problems }. */
export function reportJsonLine(report: RunReport): string {
  const problems = report.result.problems.map((p) => ({ filePath: p.file, message: p.message }));
  return `${JSON.stringify({ event: report.event, changed: report.changed, results: toJsonResults(report.result), notes: report.notes, waiting: report.waiting, problems })}\n`;
}

export async function runWatch(opts: WatchCliOptions, io: CliIO, stop?: Promise<void>): Promise<number> {
  const given = opts.repo ?? '.';
  const repo = resolve(io.cwd, given);
  if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new UsageError(`${given}: not a directory`);
  let gpuMemory: { bytes: number; source: string } | undefined;
  if (opts.gpuMemory !== undefined) {
    gpuMemory = parseGpuMemoryFlag(opts.gpuMemory);
    if (!gpuMemory) throw new UsageError(`--gpu-memory ${opts.gpuMemory}: expected a size such as 24GiB, or one of ${GPU_PRESET_NAMES.join(', ')}`);
  }
  const color = shouldColor({ flag: opts.color, env: io.env, isTTY: io.stdoutIsTTY });
  const print = (report: RunReport): void => {
    if (opts.format === 'json') {
      io.stdout(reportJsonLine(report));
      return;
    }
    const time = new Date().toTimeString().slice(0, 8);
    const what = report.event === 'initial' ? 'watching' : `changed: ${report.changed.join(', ')}`;
    io.stdout(`\n[${time}] ${what}\n`);
    for (const n of report.notes) io.stdout(`  ${n}\n`);
    for (const w of report.waiting) io.stdout(`  waiting for ${w} to finish writing\n`);
    for (const p of report.result.problems) io.stdout(`  ${p.file ? `${displayPath(p.file, io.cwd)}: ` : ''}${p.message}\n`);
    const text = formatStylish(report.result, { cwd: io.cwd, color });
    io.stdout(text || (report.result.problems.length ? '' : '  no problems\n'));
  };
  const handle = startWatch({
    repo,
    cwd: io.cwd,
    generate: opts.generate === true,
    lint: {
      ...(opts.config ? { settingsFile: opts.config } : {}),
      ...(gpuMemory ? { gpuMemory } : {}),
      ...(opts.configsOnly !== undefined ? { configsOnly: opts.configsOnly } : {}),
      // --triton-version over the settings file's `triton`.
      ...(opts.tritonVersion !== undefined ? { server: serverFlagsFromArgs({ tritonVersion: opts.tritonVersion }, io.cwd) } : {}),
    },
    onReport: print,
    onError: (e) => io.stderr(`tritonc watch: ${e.message}\n`),
  });
  await handle.ready;
  await (stop ?? untilInterrupted());
  await handle.close();
  return EXIT.ok;
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

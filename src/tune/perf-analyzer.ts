// perf_analyzer run by tritonc (`tune run`): found (--perf-analyzer, else PATH), given an argument
// array (never a shell), one load level per run so that a level perf_analyzer finds no stable
// measurement for is marked and the others still count (2.51 stops at the first unstable level and
// writes no CSV: perf-log.ts), each run bounded in time and stopped with its whole process group on a
// timeout or Ctrl-C. Its CSV goes to a private temporary directory and is read back with perf-csv.ts.
import { accessSync, constants, lstatSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { ProcessRunner } from '../verify/process-runner.js';
import { readText } from '../util/read-text.js';
import { CsvError } from './csv.js';
import { parsePerfCsv, type PerfRow } from './perf-csv.js';
import { stoppedUnstable, unstableLoads } from './perf-log.js';

/** perf_analyzer's default --max-trials (src/command_line_parser.h: max_trials = 10). */
export const DEFAULT_MAX_TRIALS = 10;

const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return !lstatSync(file).isDirectory();
  } catch {
    return false;
  }
};

/** The perf_analyzer to run, or why there is none. */
export function findPerfAnalyzer(
  given: string | undefined,
  cwd: string,
  path = process.env.PATH ?? '',
): { ok: true; file: string } | { ok: false; why: string } {
  if (given !== undefined) {
    const file = resolve(cwd, given);
    return isExecutable(file) ? { ok: true, file } : { ok: false, why: `--perf-analyzer ${given}: not an executable file` };
  }
  const found = path
    .split(delimiter)
    .filter((d) => d && isAbsolute(d))
    .map((d) => join(d, 'perf_analyzer'))
    .find(isExecutable);
  if (found) return { ok: true, file: found };
  return {
    ok: false,
    why: "no perf_analyzer on PATH: give --perf-analyzer PATH (it comes with NVIDIA's Triton SDK container, and as bin/perf_analyzer in PyPI's tritonclient wheel)",
  };
}

export interface LevelRequest {
  perfAnalyzer: string;
  model: string;
  /** host:port of the server's HTTP endpoint (checked by the caller). */
  url: string;
  concurrency: number;
  measurementIntervalMs: number;
  percentile: number;
  stabilityPercentage?: number;
  maxTrials?: number;
  /** --shared-memory (absent: none); a server of 26.04 on must allow it (tune/client-shm.ts). */
  sharedMemory?: 'system' | 'cuda';
  /** Where the CSV is written: a file in a directory only tritonc writes. */
  csvFile: string;
  runner: ProcessRunner;
  signal: AbortSignal;
}

export type LevelResult =
  { kind: 'measured'; row: PerfRow } | { kind: 'unstable'; windows: number } | { kind: 'failed'; why: string } | { kind: 'timeout'; ms: number };

/** perf_analyzer's arguments for one concurrency level over HTTP. */
export function levelArgs(r: Omit<LevelRequest, 'perfAnalyzer' | 'runner' | 'signal'>): string[] {
  return [
    '-m',
    r.model,
    '-u',
    r.url,
    '-i',
    'http',
    `--concurrency-range=${r.concurrency}:${r.concurrency}`,
    `--measurement-interval=${r.measurementIntervalMs}`,
    `--percentile=${r.percentile}`,
    ...(r.stabilityPercentage !== undefined ? [`--stability-percentage=${r.stabilityPercentage}`] : []),
    ...(r.maxTrials !== undefined ? [`--max-trials=${r.maxTrials}`] : []),
    ...(r.sharedMemory !== undefined ? [`--shared-memory=${r.sharedMemory}`] : []),
    '-f',
    r.csvFile,
  ];
}

/** How long one level may take: every window it may try, plus a minute to start, warm up and write. */
export const levelTimeoutMs = (intervalMs: number, maxTrials = DEFAULT_MAX_TRIALS): number => intervalMs * (maxTrials + 2) + 60_000;

/** Runs perf_analyzer at one concurrency level. */
export async function measureLevel(r: LevelRequest): Promise<LevelResult> {
  const limitMs = levelTimeoutMs(r.measurementIntervalMs, r.maxTrials);
  const proc = r.runner.start(r.perfAnalyzer, levelArgs(r), { group: true });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<'timeout' | 'aborted'>((done) => {
    timer = setTimeout(() => done('timeout'), limitMs);
    if (r.signal.aborted) done('aborted');
    onAbort = () => done('aborted');
    r.signal.addEventListener('abort', onAbort, { once: true });
  });
  const outcome = await Promise.race([proc.exited, stopped]);
  clearTimeout(timer);
  // The signal lives for the whole run: one listener per level would pile up (Node warns past 10).
  r.signal.removeEventListener('abort', onAbort!);
  if (outcome === 'timeout' || outcome === 'aborted') {
    proc.kill('SIGTERM');
    const gone = await Promise.race([proc.exited.then(() => true), new Promise<boolean>((d) => setTimeout(() => d(false), 5000).unref())]);
    if (!gone) proc.kill('SIGKILL');
    await proc.exited;
    return outcome === 'timeout' ? { kind: 'timeout', ms: limitMs } : { kind: 'failed', why: 'interrupted' };
  }
  const output = proc.lines.join('\n');
  if (outcome.notFound) return { kind: 'failed', why: `${r.perfAnalyzer}: not found` };
  const unstable = unstableLoads(output).find((u) => u.load === r.concurrency);
  if (outcome.exitCode !== 0) {
    if (unstable || stoppedUnstable(output)) return { kind: 'unstable', windows: unstable?.windows ?? r.maxTrials ?? DEFAULT_MAX_TRIALS };
    return { kind: 'failed', why: `perf_analyzer exited with ${outcome.exitCode ?? 'a signal'}: ${proc.lines.slice(-5).join(' | ').slice(0, 2000)}` };
  }
  const read = readText(r.csvFile, 64 * 1024 * 1024);
  if (read.kind !== 'text') return { kind: 'failed', why: `perf_analyzer wrote no CSV (${read.kind === 'missing' ? 'no file' : read.reason})` };
  try {
    const table = parsePerfCsv(read.text, r.csvFile);
    const row = table.rows.find((x) => x.load === r.concurrency);
    if (!row) return { kind: 'failed', why: `perf_analyzer's CSV has no row for concurrency ${r.concurrency}` };
    // A level it called unstable but still reported (later versions go on): marked, never picked.
    return unstable ? { kind: 'unstable', windows: unstable.windows } : { kind: 'measured', row };
  } catch (e) {
    if (e instanceof CsvError) return { kind: 'failed', why: e.message };
    throw e;
  }
}

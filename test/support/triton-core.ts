// Triton's own core library (libtritonserver.so) of several releases, laid out by
// scripts/triton-cores/setup.sh in .triton-cores/ (TRITON_CORES puts it elsewhere): its driver loads a
// model repository in-process with the chosen core and prints core's verdict on each model (loaded,
// or refused with core's words and its log lines), one JSON object a line. Without the folder a suite
// that needs it is skipped with one line; with CI=true it must run (and fails where it is missing).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './snapshot.js';

/** The cores setup.sh lays out: r24.10 (2.51.0), r26.06 (2.70.0) and core main at 73aad7c (2.71.0dev). */
export type CoreName = 'r24.10' | 'r26.06' | 'main-73aad7c';

export const CORES_DIR = process.env.TRITON_CORES ?? join(ROOT, '.triton-cores');
const DRIVER = join(CORES_DIR, 'driver');
/** The backends setup.sh lays out: Triton's ONNX Runtime backend, and the stub. */
export const CORE_BACKENDS = join(CORES_DIR, 'backends');
const STUB = join(CORE_BACKENDS, 'stub', 'libtriton_stub.so');

export const haveCore = (core: CoreName): boolean => existsSync(DRIVER) && existsSync(join(CORES_DIR, 'cores', core, 'libtritonserver.so'));

/** Whether `suite`, which needs `cores`, runs here; says why not in one line. With CI=true it always runs. */
export function coresRun(suite: string, cores: readonly CoreName[]): boolean {
  const missing = cores.filter((c) => !haveCore(c));
  if (missing.length === 0 || process.env.CI === 'true') return true;
  console.log(`tritonc: ${suite} skipped: no Triton core ${missing.join(', ')} in ${CORES_DIR} (bash scripts/triton-cores/setup.sh lays them out)`);
  return false;
}

/** Core's verdict on one model, as the driver prints it. */
export interface CoreVerdict {
  model: string;
  loaded: boolean;
  /** The effective (auto-completed) config of a model that loaded, as GET /v2/models/<m>/config answers it. */
  config?: Record<string, unknown>;
  /** Core's status code of a refusal ("Invalid argument", "Internal", ...). */
  code?: string;
  /** Core's answer to the load; a poll-time refusal's reason is in `log` (see `reason`). */
  error?: string;
  /** Core's ERROR and WARNING lines written while the model loaded (consecutive repeats collapsed). */
  log: string[];
}

/**
 * Why core refused a model, in core's words: the load's error, or for a refusal made when the
 * repository was polled (the load answers only "failed to poll from model repository"), the reason of
 * its "Poll failed for model directory" log line; a version's refusal without the words around it
 * (as the live server's answer is read, test/conformance/live.ts).
 */
export function reason(v: CoreVerdict): string {
  if (v.loaded) return '';
  const error = v.error ?? '';
  if (/failed to poll from model repository/.test(error)) {
    for (const [i, line] of v.log.entries()) {
      const m = /Poll failed for model directory '[^']*': (.*?)"?$/.exec(line);
      if (!m) continue;
      const why = m[1]!.replace(/\\"/g, '"').replace(/\\n/g, '\n');
      // A config core's proto cannot read: protobuf says why just before.
      const parse = /failed to read text proto/.test(why)
        ? v.log
            .slice(0, i)
            .map((l) => /Error parsing text-format .*/.exec(l)?.[0])
            .filter(Boolean)
            .pop()
        : undefined;
      return parse ? `${why} (${parse})` : why;
    }
    return error;
  }
  // A refusal while loading a version: "load failed for model 'm': version 1 is at UNAVAILABLE state: <code>: <reason>;".
  const unavailable = /version \d+ is at UNAVAILABLE state: ([\s\S]*?);\n?$/.exec(error);
  return (unavailable?.[1] ?? error.replace(/^load failed for model '[^']*': /, '')).replace(STATUS_PREFIX, '');
}

const STATUS_PREFIX = /^(Invalid argument|Internal|Not found|Unavailable|Unknown|Already exists|Unsupported): /;

/**
 * A backend directory for the cores: Triton's ONNX Runtime backend (unless `stubOnnxRuntime`), and the
 * stub under each other backend name given (core then runs every check it makes after finding a
 * backend library; the stub completes nothing). `stub`: another stub library (the shared one answers
 * every request with an error, so a warmup sample fails).
 */
export function coreBackendDirectory(dir: string, backends: Iterable<string>, options: { stubOnnxRuntime?: boolean; stub?: string } = {}): string {
  mkdirSync(dir, { recursive: true });
  if (!options.stubOnnxRuntime) symlinkSync(join(CORE_BACKENDS, 'onnxruntime'), join(dir, 'onnxruntime'));
  for (const b of backends) {
    if ((b === 'onnxruntime' && !options.stubOnnxRuntime) || !/^[A-Za-z0-9_]+$/.test(b)) continue;
    mkdirSync(join(dir, b), { recursive: true });
    symlinkSync(options.stub ?? STUB, join(dir, b, `libtriton_${b}.so`));
  }
  return dir;
}

export interface CoreRun {
  /** The models to load, in order (explicit model control); default every subdirectory, sorted. */
  models?: readonly string[];
  /** --disable-auto-complete-config. */
  strict?: boolean;
  /** The backend directory (default: .triton-cores/backends, ONNX Runtime and the stub by its own name). */
  backends?: string;
  /** How often a model whose load crashes the process is tried again, each time in a process of its own (default 12). */
  retries?: number;
}

interface DriverAnswer {
  verdicts: CoreVerdict[];
  /** The index line came: every model was answered. */
  complete: boolean;
  status: number | null;
  stderr: string;
}

async function driver(core: CoreName, repo: string, models: readonly string[], options: CoreRun): Promise<DriverAnswer> {
  // Core's log file and ONNX Runtime's leftovers go to a temporary directory of the run's own.
  const tmp = mkdtempSync(join(tmpdir(), 'triton-core-'));
  try {
    const args = [...(options.strict ? ['-s'] : []), '-r', repo, '-b', options.backends ?? CORE_BACKENDS, '--', ...models];
    const child = spawn(DRIVER, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LD_LIBRARY_PATH: join(CORES_DIR, 'cores', core), TMPDIR: tmp },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-20_000)));
    // A bound on a hang only: a batch of models loads in seconds.
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    clearTimeout(timer);
    const verdicts: CoreVerdict[] = [];
    let complete = false;
    for (const line of out.split('\n')) {
      if (!line.startsWith('{')) continue;
      const json = JSON.parse(line) as Record<string, unknown>;
      if ('index' in json) complete = true;
      else if (typeof json.model === 'string') verdicts.push(json as unknown as CoreVerdict);
    }
    return { verdicts, complete, status, stderr: err };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Core's verdict on each model of `repo`, loaded one by one in one process. A load that kills the
 * process (core r26.06 and main segfault tearing down a model refused in SetConfiguredScheduler after
 * its instances were made: a race, about half the runs) is retried in a process of its own until its
 * line appears; the models after it go on in a new process.
 */
export async function coreVerdicts(core: CoreName, repo: string, options: CoreRun = {}): Promise<CoreVerdict[]> {
  if (!haveCore(core)) throw new Error(`no Triton core ${core} in ${CORES_DIR}: bash scripts/triton-cores/setup.sh lays it out`);
  let pending = options.models ? [...options.models] : undefined;
  const out: CoreVerdict[] = [];
  for (;;) {
    const answer = await driver(core, repo, pending ?? [], options);
    out.push(...answer.verdicts);
    if (answer.complete) return out;
    // All models (no list given): learn the list from the answer is impossible after a crash, so the
    // caller's list is required to go on.
    if (!pending) throw new Error(`the ${core} core crashed (status ${answer.status}) loading ${repo} with no model list to go on from:\n${answer.stderr}`);
    pending = pending.slice(answer.verdicts.length);
    if (pending.length === 0) return out;
    const crashing = pending[0]!;
    let alone: CoreVerdict | undefined;
    for (let attempt = 0; attempt < (options.retries ?? 12) && !alone; attempt++) alone = (await driver(core, repo, [crashing], options)).verdicts[0];
    if (!alone) throw new Error(`the ${core} core crashed on every load of '${crashing}' in ${repo} (status ${answer.status}):\n${answer.stderr}`);
    out.push(alone);
    pending = pending.slice(1);
    if (pending.length === 0) return out;
  }
}

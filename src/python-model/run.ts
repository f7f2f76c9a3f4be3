// `--run-python-autocomplete`: runs a model.py's TritonPythonModel.auto_complete_config the way
// python_backend's stub does (src/pb_stub.cc Stub::AutoCompleteModelConfig: import model.py, call the
// staticmethod with a ModelConfig over the config's JSON, check what it returns), in a subprocess of a
// Python the user has, only when asked. Guarded: a read-only temporary copy of the model directory
// (files above a size are left out: weights), a stand-in triton_python_backend_utils of tritonc's own
// (./stand-in.ts) that records the calls, an environment without proxy settings or credentials, the
// runner's refusal of Python's socket functions, a timeout, output read up to a bound, and what
// ./contain.ts holds it in (a supervised process group; namespaces where the platform has them).
// What it did comes back as the static reader's ScriptFacts.
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { copyToNewFile, writeNewFile } from '../util/atomic-write.js';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { ConfigHelper, PyValue, ScriptCall, ScriptFacts } from './auto-complete-config.js';
import { CONFIG_HELPERS } from './auto-complete-config.js';
import { RUNNER, STAND_IN_UTILS } from './stand-in.js';
import { boundary, supervise, type Boundary } from './contain.js';

export interface RunOptions {
  /** The Python to run (default: python3 on PATH). */
  python?: string;
  /** How long the run may take, in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** What holds the run in (default: what this machine offers, ./contain.ts's boundary()). */
  boundary?: Boundary;
}

export const RUN_LIMITS = {
  timeoutMs: 10_000,
  maxOutputBytes: 4 * 1024 * 1024,
  maxCopiedFileBytes: 16 * 1024 * 1024,
  maxCopiedBytes: 64 * 1024 * 1024,
  maxCopiedFiles: 2000,
} as const;
const MARK = '@@tritonc-auto-complete@@';

/** Whether `python` runs at all (for the CLI's usage error). */
export function pythonVersion(python = 'python3'): string | undefined {
  const r = spawnSync(python, ['--version'], { encoding: 'utf8', timeout: 5000, env: cleanEnv() });
  return r.status === 0 ? (r.stdout || r.stderr).trim() : undefined;
}

/** PATH and a locale, nothing else: no proxy settings, no PYTHONPATH, no credentials. */
function cleanEnv(home?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    no_proxy: '*',
    NO_PROXY: '*',
    ...(home ? { HOME: home, TMPDIR: home } : {}),
  };
}

/** Copies `from` into `to`, read-only, leaving out links, large files and whatever is past the limits. */
function copyModelDir(from: string, to: string): void {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string, depth: number): void => {
    if (depth > 16) return;
    mkdirSync(join(to, relative(from, dir)), { recursive: true });
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path, depth + 1);
      else if (
        stat.isFile() &&
        stat.size <= RUN_LIMITS.maxCopiedFileBytes &&
        files < RUN_LIMITS.maxCopiedFiles &&
        bytes + stat.size <= RUN_LIMITS.maxCopiedBytes
      ) {
        copyToNewFile(path, join(to, relative(from, path)));
        chmodSync(join(to, relative(from, path)), 0o444);
        files++;
        bytes += stat.size;
      }
    }
  };
  walk(from, 0);
  const seal = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) seal(join(dir, entry.name));
    chmodSync(dir, 0o555);
  };
  seal(to);
}

const unsealAndRemove = (dir: string): void => {
  const open = (d: string): void => {
    try {
      chmodSync(d, 0o755);
      for (const entry of readdirSync(d, { withFileTypes: true })) if (entry.isDirectory()) open(join(d, entry.name));
    } catch {
      // Removed below as far as it can be.
    }
  };
  open(dir);
  rmSync(dir, { recursive: true, force: true });
};

/**
 * Runs auto_complete_config of the model.py at `scriptPath` (in <model dir>/<version>/) with the config
 * as core hands it to the stub (`configJson`). Never throws for what the script does: a script that
 * cannot be imported, runs too long or prints nothing readable is "not known" (`unknown`).
 */
export function runAutoCompleteConfig(scriptPath: string, configJson: string, options: RunOptions = {}): ScriptFacts {
  const versionDir = dirname(scriptPath);
  const modelDir = dirname(versionDir);
  const work = mkdtempSync(join(tmpdir(), 'tritonc-autocomplete-'));
  const notKnown = (reason: string): ScriptFacts => ({ defines: true, calls: [], unknown: { line: 1, col: 1, reason } });
  try {
    const stub = join(work, 'stub');
    mkdirSync(stub);
    writeNewFile(join(stub, 'triton_python_backend_utils.py'), STAND_IN_UTILS);
    writeNewFile(join(stub, 'tritonc_run.py'), RUNNER);
    const home = join(work, 'home');
    mkdirSync(home);
    const dev = join(work, 'dev');
    mkdirSync(dev);
    const copy = join(work, 'model', basename(modelDir));
    copyModelDir(modelDir, copy);
    const script = join(copy, relative(modelDir, scriptPath));
    const timeout = options.timeoutMs ?? RUN_LIMITS.timeoutMs;
    // A path is taken from here: the run starts in the copy, where a relative one would not be found.
    const python = options.python?.includes('/') ? resolve(options.python) : (options.python ?? 'python3');
    const r = supervise({
      python,
      command: [python, '-E', '-B', join(stub, 'tritonc_run.py'), script, copy],
      cwd: join(copy, relative(modelDir, versionDir)),
      env: cleanEnv(home),
      input: configJson,
      timeoutMs: timeout,
      maxOutputBytes: RUN_LIMITS.maxOutputBytes,
      work,
      scratch: home,
      dev,
      boundary: options.boundary ?? boundary(),
    });
    if (r instanceof Error) return notKnown(`${python} could not be run (${r.message})`);
    if (r.end === 'timeout') return notKnown(`auto_complete_config did not finish within ${timeout / 1000} s`);
    if (r.end === 'overflow') return notKnown(`auto_complete_config printed more than ${RUN_LIMITS.maxOutputBytes} bytes`);
    const line = r.stdout.split('\n').find((l) => l.startsWith(MARK));
    if (!line) return notKnown(`the run printed no result (exit ${r.code}): ${r.stderr.trim().split('\n').slice(-3).join(' / ').slice(0, 500)}`);
    return factsOf(JSON.parse(line.slice(MARK.length)) as RunOutput);
  } finally {
    unsealAndRemove(work);
  }
}

interface RunOutput {
  defines: boolean;
  calls: { method: string; args: PyValue[]; line?: number }[];
  returns?: 'config' | 'other';
  raised?: string;
  at?: number[];
  importError?: string;
  /** The first line of auto_complete_config's definition (its decorator's, as Python counts it). */
  defLine?: number;
}

/** The runner's JSON as the static reader's facts (the same completion judges both). */
function factsOf(out: RunOutput): ScriptFacts {
  if (out.importError) return { defines: true, calls: [], unknown: { line: 1, col: 1, reason: `model.py could not be imported here (${out.importError})` } };
  const calls: ScriptCall[] = [];
  for (const c of out.calls) {
    if (!(CONFIG_HELPERS as readonly string[]).includes(c.method)) continue;
    const arg = c.args[0];
    calls.push({ method: c.method as ConfigHelper, ...(arg ? { arg } : {}), line: c.line ?? 0, col: 1 });
  }
  return {
    defines: out.defines,
    ...(out.defLine ? { at: { line: out.defLine, col: 1 } } : {}),
    calls,
    ...(out.returns ? { returns: out.returns } : {}),
    ...(out.raised ? { raised: out.raised, at: { line: out.at?.[0] ?? out.defLine ?? 1, col: 1 } } : {}),
  };
}

// Runs the generated Python clients (tritonc client --lang python) in the venv scripts/real-triton/setup.sh
// makes (tritonclient[http] and mypy pinned in scripts/real-triton/client-requirements.txt): mypy --strict
// over them, and Python scripts that use them, each printing one JSON line the test reads. Without the
// venv's client packages a suite is skipped with one line; with CI=true it must run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENV } from './real-triton.js';

export const PYTHON = join(VENV, 'bin', 'python');
const MYPY = join(VENV, 'bin', 'mypy');

function haveClientPackages(): boolean {
  if (!existsSync(MYPY)) return false;
  const lib = join(VENV, 'lib');
  if (!existsSync(lib)) return false;
  return readdirSync(lib).some((d) => existsSync(join(lib, d, 'site-packages', 'tritonclient', 'http', '_client.py')));
}

/** Whether `suite` runs here; says so in one line when it does not. */
export function pythonClientRuns(suite: string): boolean {
  const runs = haveClientPackages() || process.env.CI === 'true';
  if (!runs) console.log(`tritonc: ${suite} skipped: no tritonclient and mypy in ${VENV} (bash scripts/real-triton/setup.sh installs them)`);
  return runs;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command of the venv in `cwd`, without blocking the test's event loop (a fixture server answers meanwhile). */
export function runVenv(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** mypy --strict over `files` in `dir` (its cache inside dir). */
export function mypyStrict(dir: string, files: string[]): Promise<Ran> {
  return runVenv(MYPY, ['--strict', '--no-color-output', '--no-error-summary', '--cache-dir', join(dir, '.mypy_cache'), ...files], dir, 120_000);
}

let scripts = 0;

/**
 * Runs `code` (Python) as a script in `dir`, so the generated modules there import as they are, with
 * `args` in sys.argv[1:]; the script prints one JSON line last, which is returned parsed.
 */
export async function runPython(dir: string, code: string, args: string[] = [], timeoutMs = 60_000): Promise<any> {
  const file = join(dir, `script_${++scripts}.py`);
  writeFileSync(file, code);
  const r = await runVenv(PYTHON, [file, ...args], dir, timeoutMs);
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.code !== 0) throw new Error(`python ${file} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  try {
    return JSON.parse(last);
  } catch {
    throw new Error(`python ${file} printed no JSON line:\n${r.stdout}\n${r.stderr}`);
  }
}

/**
 * Python that runs `call` (an expression) and gives what it raised as a dict: the class name, message,
 * and the attributes every client error has (a helper the test scripts share).
 */
export const CATCH = `
import json, sys, time
import numpy

def caught(call):
    try:
        call()
    except Exception as e:
        return {"name": type(e).__name__, "message": str(e), "input": getattr(e, "input", None), "status": getattr(e, "status", None),
                "attempts": getattr(e, "attempts", None), "retryable": getattr(e, "retryable", None)}
    return None

def show(a):
    """An output array as JSON: its dtype, shape and values (bytes as text)."""
    values = [x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in a.flatten().tolist()]
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": values}
`;

// The generated clients' runtimes where they are written (src/client/runtime/): the TypeScript one
// compiles under tsc with the flags the generated modules are promised (its tsconfig.json), the
// Python one passes mypy --strict and ruff (the venv of scripts/python-lint/setup.sh, pinned). Each
// file's lines outside its "embedded" markers are what makes it whole for the checkers (the imports
// of a sibling file's names); the generated modules themselves are compiled and run by the other
// tests here. Without the venv the Python checks are skipped with one line; with CI=true they must run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const RUNTIME = join(ROOT, 'src', 'client', 'runtime');
const VENV = process.env.PYLINT_VENV ?? join(ROOT, '.venv-pylint');
const havePylint = existsSync(join(VENV, 'bin', 'mypy')) && existsSync(join(VENV, 'bin', 'ruff'));
const pythonRuns = havePylint || process.env.CI === 'true';
if (!pythonRuns) console.log(`tritonc: the Python runtime's mypy --strict and ruff skipped: no ${VENV} (bash scripts/python-lint/setup.sh makes it)`);

const files = readdirSync(RUNTIME).sort();
const tsFiles = files.filter((f) => f.endsWith('.ts'));
const pyFiles = files.filter((f) => f.endsWith('.py'));

describe('the TypeScript runtime (src/client/runtime/*.ts)', () => {
  it('its tsconfig.json names every .ts file there, so none escapes the check', () => {
    // tsconfig.json may hold comments: the files list is read from its text.
    const config = readFileSync(join(RUNTIME, 'tsconfig.json'), 'utf8');
    const listed = [...config.matchAll(/"([\w-]+\.ts)"/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(tsFiles);
    expect(tsFiles).toEqual(['client-core.ts', 'client-grpc.ts', 'client-http.ts']);
  });

  it('compiles under tsc --strict and the generated modules\' stricter flags', () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(RUNTIME, 'tsconfig.json'), '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 150_000);
});

describe.runIf(pythonRuns)('the Python runtime (src/client/runtime/*.py)', () => {
  it('passes mypy --strict', () => {
    expect(pyFiles).toEqual(['client_core.py', 'client_grpc.py', 'client_http.py']);
    const cache = tempDir('tritonc-mypy-');
    const r = spawnSync(join(VENV, 'bin', 'mypy'), ['--strict', '--no-color-output', '--cache-dir', cache, ...pyFiles], { cwd: RUNTIME, encoding: 'utf8', timeout: 120_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`Success: no issues found in ${pyFiles.length} source files\n`);
    expect(r.status).toBe(0);
  }, 150_000);

  it('passes ruff (its ruff.toml there)', () => {
    const r = spawnSync(join(VENV, 'bin', 'ruff'), ['check', '--no-cache', '--output-format', 'concise', ...pyFiles], { cwd: RUNTIME, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout + r.stderr).toBe('All checks passed!\n');
    expect(r.status).toBe(0);
  }, 90_000);
});
